/**
 * Names every unit test that failed and then passed on its retry (vitest.config.ts `retry`), with what it failed
 * on, in lines `npm test` repeats under its summary as it does a failure (scripts/test-all.ts): the run passes, the
 * test is still a defect to look at (docs/testing.md, "One retry for a test, never a quiet one").
 */
import type { Reporter, TestCase } from 'vitest/node';

export default class RetriedReporter implements Reporter {
  onTestCaseResult(testCase: TestCase): void {
    const result = testCase.result();
    const retries = testCase.diagnostic()?.retryCount ?? 0;
    if (result.state !== 'passed' || retries === 0) return;
    const first = result.errors?.[0]?.message?.split('\n')[0]?.slice(0, 200) ?? 'no error kept';
    process.stdout.write(
      `× passed on retry ${retries}: ${testCase.module.relativeModuleId} > ${testCase.fullName}\n` +
        `Error: (the failed try) ${first}\n`,
    );
  }
}
