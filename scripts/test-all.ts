/**
 * `npm test`: every check. The lint, the type check, the web app's build and the server's unit tests start at
 * once; the browser tests start once the build has passed and the unit tests are over. Each line of output says
 * which check printed it, and the summary gives each one's answer and time.
 *
 * The browser tests do not run beside the unit tests: on a loaded 2-core machine (a fresh-clone CI of issue 49
 * ran at a load of 14 to 16) the two suites side by side starved the pages' rendering, and a console page stayed
 * on its spinner for more than 45 s. What only a page shows needs the page drawn in time; the unit tests (bounds
 * of 90 s, waits on states) share the cores with the lint, the type check and the build instead.
 *
 * A browser test that failed once and passed on its retry (playwright.config.ts) is named under the summary, as a
 * failure is: the run passes, the test is still a defect to look at.
 *
 * `npm test -- unit` (or lint, typecheck, e2e) runs only the checks named.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { stripVTControlCharacters } from 'node:util';

interface Check {
  name: string;
  command: string[];
  /** A check that must pass first (the browser tests need the build). */
  after?: string;
  /** Checks that must be over first, whatever their answer (the browser tests wait for the unit tests). */
  alone?: string[];
}

const CHECKS: Check[] = [
  { name: 'lint', command: ['npm', 'run', '--silent', 'lint'] },
  { name: 'typecheck', command: ['npm', 'run', '--silent', 'typecheck'] },
  { name: 'unit', command: ['npm', 'run', '--silent', 'test:unit'] },
  { name: 'build', command: ['npm', 'run', '--silent', 'build'] },
  { name: 'e2e', command: ['npx', 'playwright', 'test'], after: 'build', alone: ['unit'] },
];

const wanted = process.argv.slice(2);
const selected = wanted.length
  ? CHECKS.filter(
      (check) => wanted.includes(check.name) || CHECKS.some((c) => wanted.includes(c.name) && c.after === check.name),
    )
  : CHECKS;
if (wanted.some((name) => !CHECKS.some((check) => check.name === name))) {
  console.error(
    `npm test: unknown check among ${wanted.join(', ')}; the checks are ${CHECKS.map((c) => c.name).join(', ')}.`,
  );
  process.exit(2);
}

const width = Math.max(...selected.map((check) => check.name.length));
const started = Date.now();
const results = new Map<string, { code: number; seconds: number }>();
/**
 * Each check's lines that name a failed test (Vitest's FAIL and ×, Playwright's ✘ and numbered failures),
 * repeated under the summary: a CI log kept only by its end still says which test failed and where.
 */
const FAILURE_LINE = /^\s*(FAIL\s|×\s|✘\s|\d+\) )|^\s*(AssertionError|Error): /;
const failures = new Map<string, string[]>();

function run(check: Check): Promise<number> {
  const begin = Date.now();
  const child = spawn(check.command[0] as string, check.command.slice(1), {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? '0' },
  });
  const label = `[${check.name.padEnd(width)}]`;
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on('line', (line) => {
      process.stdout.write(`${label} ${line}\n`);
      const plain = stripVTControlCharacters(line);
      if (!FAILURE_LINE.test(plain)) return;
      const kept = failures.get(check.name) ?? [];
      if (kept.length < 30) failures.set(check.name, [...kept, plain.trim().slice(0, 240)]);
    });
  }
  return new Promise((resolve) => {
    child.on('close', (code, signal) => {
      const result = code ?? (signal ? 1 : 0);
      results.set(check.name, { code: result, seconds: Math.round((Date.now() - begin) / 1000) });
      process.stdout.write(`${label} ${result === 0 ? 'passed' : `FAILED (exit ${result})`}\n`);
      resolve(result);
    });
  });
}

const running = new Map<string, Promise<number>>();
for (const check of selected) {
  const first = check.after ? running.get(check.after) : undefined;
  const over = (check.alone ?? []).flatMap((name) => running.get(name) ?? []);
  const before = first || over.length > 0 ? Promise.all([first ?? 0, ...over]).then(([code]) => code) : undefined;
  running.set(
    check.name,
    before
      ? before.then((code) => {
          if (code === 0) return run(check);
          results.set(check.name, { code: 1, seconds: 0 });
          process.stdout.write(`[${check.name.padEnd(width)}] not run: ${check.after} failed\n`);
          return 1;
        })
      : run(check),
  );
}
const codes = await Promise.all(running.values());

console.log(`\nnpm test, ${Math.round((Date.now() - started) / 1000)} s in all:`);
for (const check of selected) {
  const result = results.get(check.name);
  console.log(`  ${check.name.padEnd(width)}  ${result?.code === 0 ? 'passed' : 'FAILED'}  ${result?.seconds ?? 0} s`);
}
for (const check of selected) {
  const lines = failures.get(check.name) ?? [];
  if (lines.length === 0) continue;
  // A check that passed with failure lines: a browser test that failed once and passed on its retry
  // (playwright.config.ts), said as loudly as a failure.
  const what = results.get(check.name)?.code === 0 ? 'failed once, then passed on its retry' : 'what failed';
  console.log(`\n${check.name}, ${what}:\n${lines.map((line) => `  ${line}`).join('\n')}`);
}
process.exit(codes.some((code) => code !== 0) ? 1 : 0);
