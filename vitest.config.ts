import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/*/test/**/*.test.ts', 'packages/*/src/**/*.test.ts', 'packages/*/src/**/*.test.tsx'],
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
    // Two files at a time on CI's two cores: each test's PostgreSQL schema, Redis prefix, ports and processes are
    // its own, and the tests wait on states, not on times.
    maxWorkers: 2,
    // One retry, named under `npm test`'s summary (retried-reporter.ts): a CI lost a whole session's work to one
    // test that a loaded machine failed once (docs/testing.md). A test that fails twice fails the run.
    retry: 1,
    reporters: ['default', './packages/server/test/retried-reporter.ts'],
  },
});
