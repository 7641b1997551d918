import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/*/test/**/*.test.ts', 'packages/*/src/**/*.test.ts', 'packages/*/src/**/*.test.tsx'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Cheap scrypt figures for every file but the two that check OWASP's (packages/server/test/setup-figures.ts).
    setupFiles: ['packages/server/test/setup-figures.ts'],
    pool: 'forks',
    // Two files at a time on CI's two cores: each test's PostgreSQL schema, Redis prefix, ports and processes are
    // its own, and the tests wait on states, not on times.
    maxWorkers: 2,
  },
});
