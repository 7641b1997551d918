/**
 * Browser tests: real Chromium against the built web app (packages/web/dist) served by a real server on a
 * temporary SQLite DATA_DIR. Each worker starts its own server (e2e/fixtures.ts); `npm run test:e2e` builds
 * first, and e2e/global-setup.ts builds when dist is missing.
 */
import { defineConfig } from '@playwright/test';
import { chromiumLaunchOptions } from './e2e/chromium.ts';

export default defineConfig({
  testDir: './e2e',
  testMatch: '**/*.spec.ts',
  globalSetup: './e2e/global-setup.ts',
  fullyParallel: true,
  workers: 2,
  forbidOnly: Boolean(process.env.CI),
  // One retry, and never a quiet one: scripts/test-all.ts repeats under its summary every test that failed before its
  // retry passed. Beside a loaded CI a page's scripts can stall for a minute (talk-scan.spec: a talker's page ran a
  // 5 KB chunk's import 61 s after the chunk had arrived, and the peer the test waited for came after its bound);
  // four CIs in a row lost a whole session's work to one such test each, a different one each time.
  retries: 1,
  // Bounds, not timings: a test ends as soon as what it waits for happens. Two workers, each with its own server
  // and browser, share two cores; a page can take seconds to draw when both are busy (an import hashing
  // passwords next to it), so the bounds leave room for a busy machine: the unit suite runs beside the browser
  // tests (scripts/test-all.ts), and a fresh-clone CI on a loaded machine drew a sign-up page in over 30 s.
  timeout: 300_000,
  expect: { timeout: 60_000 },
  reporter: process.env.CI ? [['list'], ['html', { open: 'never' }]] : 'list',
  // E2E_OUTPUT_DIR: a separate folder when several runs share the checkout.
  outputDir: process.env.E2E_OUTPUT_DIR ?? 'test-results',
  use: {
    browserName: 'chromium',
    launchOptions: chromiumLaunchOptions(),
    viewport: { width: 1280, height: 800 },
    timezoneId: 'Europe/Paris',
    // No trace unless asked (E2E_TRACE=retain-on-failure): recording one costs as much CPU as the test itself
    // (dispatch.spec.ts and users.spec.ts: 67 s of CPU without, 117 s with, on 2 cores). A failure still leaves
    // its screenshot and its page's accessibility snapshot (error-context.md).
    trace: (process.env.E2E_TRACE as 'off' | 'on' | 'retain-on-failure' | undefined) ?? 'off',
    screenshot: 'only-on-failure',
  },
});
