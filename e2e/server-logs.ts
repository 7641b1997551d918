/**
 * A failed browser test says what the servers it used printed meanwhile (warnings and errors: the servers run
 * at LOG_LEVEL=warn): the whole of it attached to the report, its last lines in the run's output, which is what
 * a CI log keeps (an all call's recording missing once in a CI, dispatch-janus.spec, left nothing to read).
 */
import type { TestInfo } from '@playwright/test';

export interface StartedServer {
  baseURL: string;
  /** How much the server has printed so far. */
  mark: () => number;
  /** What it printed after that mark (as far as its kept log goes back). */
  since: (mark: number) => string;
  stopped: boolean;
}

/** The servers this worker started, the worker's own and a test's own (a Janus deployment's). */
export const startedServers: StartedServer[] = [];

/**
 * The test fixture (auto): marks each server's log before the test, and prints what came after if it failed.
 * Playwright reads the fixtures a fixture needs from its first parameter's pattern: it must be one.
 */
// biome-ignore lint/correctness/noEmptyPattern: Playwright reads the fixtures a fixture needs from this pattern
export async function serverLogs({}: object, use: (value: undefined) => Promise<void>, testInfo: TestInfo) {
  // Servers stopped by earlier tests are theirs.
  for (const [index, started] of [...startedServers.entries()].reverse())
    if (started.stopped) startedServers.splice(index, 1);
  const marks = new Map(startedServers.map((started) => [started, started.mark()]));
  await use(undefined);
  if (testInfo.status === testInfo.expectedStatus) return;
  for (const started of startedServers) {
    const printed = started.since(marks.get(started) ?? 0).trim();
    if (!printed) continue;
    await testInfo.attach(`server ${started.baseURL}`, { body: printed, contentType: 'text/plain' });
    const last = printed.split('\n').slice(-30).join('\n');
    console.log(`The server at ${started.baseURL} printed, during "${testInfo.title}" (its last lines):\n${last}`);
  }
}
