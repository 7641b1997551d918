import { globSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';

const INCLUDE = ['packages/*/test/**/*.test.ts', 'packages/*/src/**/*.test.ts', 'packages/*/src/**/*.test.tsx'];

/**
 * The files that replace something of the process for their tests (fake timers, a stubbed global or environment
 * variable, a mocked module): each runs in a process of its own, so that nothing it replaced, even after a failure
 * that skipped its clean-up, reaches the next file. Found by their text, so that a new such file is isolated too.
 */
const REPLACES_PROCESS_STATE = /\bvi\.(mock|doMock|useFakeTimers|stubGlobal|stubEnv)\(/;
const ROOT = import.meta.dirname;
const ISOLATED = INCLUDE.flatMap((pattern) => globSync(pattern, { cwd: ROOT })).filter((file) =>
  REPLACES_PROCESS_STATE.test(readFileSync(path.join(ROOT, file), 'utf8')),
);

export default defineConfig({
  test: {
    // Bounds, not timings: a test ends as soon as what it waits for happens. The browser tests run beside the
    // unit tests (scripts/test-all.ts), and a loaded fresh-clone CI took a job of full-strength hashes past 30 s
    // (import-jobs.test.ts waits up to 45 s for it by design).
    testTimeout: 90_000,
    hookTimeout: 90_000,
    // Cheap scrypt figures for every file but the two that check OWASP's (packages/server/test/setup-figures.ts).
    setupFiles: ['packages/server/test/setup-figures.ts'],
    // Names the run: its files share PostgreSQL's migrated template and schemas (packages/server/test/schema-pool.ts).
    globalSetup: ['packages/server/test/global-setup.ts'],
    pool: 'forks',
    // Three files at a time on CI's two cores: each test's PostgreSQL schema, Redis prefix, ports and processes are
    // its own, and the tests wait on states, not on times. A third worker fills the time the others spend waiting
    // on a real Janus, baresip or a sweep's interval, and keeps the suite's share of the cores beside other work:
    // 381 s instead of two workers' 471 s beside two busy loops (docs/testing.md).
    maxWorkers: 3,
    // One retry, named under `npm test`'s summary (retried-reporter.ts): a CI lost a whole session's work to one
    // test that a loaded machine failed once (docs/testing.md). A test that fails twice fails the run.
    retry: 1,
    reporters: ['default', './packages/server/test/retried-reporter.ts'],
    projects: [
      // Each file in one project only (the root names no files: a project's include adds to the root's). Most
      // files share their worker's process, one file after the other: each test builds its own app, store and
      // sockets, and a fresh process per file spent 17 % of the suite's time importing the server again
      // (docs/testing.md).
      {
        extends: true,
        test: { name: 'shared', isolate: false, include: INCLUDE, exclude: [...configDefaults.exclude, ...ISOLATED] },
      },
      { extends: true, test: { name: 'isolated', isolate: true, include: ISOLATED } },
    ],
  },
});
