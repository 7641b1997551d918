/**
 * Screenshots of /reports to look at (not a test), over a server with data: the reports bench's year of an
 * organisation (bench/reports/seed.ts, at 5% of its bulk: BENCH_REPORTS_SCALE) seeded into the server's SQLite
 * database between two starts; the last 30 days. In French and English, at 390x844 and 1400x900, each as the first screen and as
 * the whole page; the French wide first screen is docs/images/reports.png.
 * `npm run build && node e2e/reports-screens.ts [outDir]` (default test-results/reports-screens).
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { openDatabase } from '../packages/server/src/db/open.ts';
import { chromiumLaunchOptions } from './chromium.ts';
import { createAdmin, login, startServer } from './fixtures.ts';
import { openAs } from './room-support.ts';

process.env.BENCH_REPORTS_SCALE ??= '0.05';
const { seed } = await import('../bench/reports/seed.ts');

const outDir = path.resolve(process.argv[2] ?? 'test-results/reports-screens');
mkdirSync(outDir, { recursive: true });
const VIEWPORTS = { narrow: { width: 390, height: 844 }, wide: { width: 1400, height: 900 } };
const TEXTS = {
  fr: { title: 'Rapports', sos: 'Alertes SOS', days30: '30 jours' },
  en: { title: 'Reports', sos: 'SOS alerts', days30: '30 days' },
} as const;

const dataDir = mkdtempSync(path.join(tmpdir(), 'talkgroup-reports-screens-'));
// The administrator first (the first sign-up of an empty database), then the data, server stopped.
const first = await startServer({ DATA_DIR: dataDir });
const { login: loginName, password } = await createAdmin(first);
await first.stop();
const database = await openDatabase({ dataDir });
await seed(database.db, database.dialect, (line) => console.log(line));
// Alerts never taken would stand as SOS banners over every page: the screenshots leave them out.
await database.db.deleteFrom('emergency_alerts').where('acknowledged_at', 'is', null).execute();
await database.close();

const server = await startServer({ DATA_DIR: dataDir });
const browser = await chromium.launch(chromiumLaunchOptions());
try {
  const admin = await login(server, loginName, password);
  for (const language of ['fr', 'en'] as const) {
    for (const [size, viewport] of Object.entries(VIEWPORTS)) {
      const desk = await openAs(browser, server.baseURL, admin, { language, viewport });
      await desk.page.goto('/reports');
      await desk.page.getByRole('heading', { level: 1, name: TEXTS[language].title }).waitFor({ timeout: 120_000 });
      await desk.page.getByRole('table', { name: TEXTS[language].sos, exact: true }).waitFor({ timeout: 120_000 });
      // The last 30 days: a month of the bench's organisation.
      await Promise.all([
        desk.page.waitForResponse((response) => response.url().endsWith('/user/api/getReport'), { timeout: 120_000 }),
        desk.page.getByRole('button', { name: TEXTS[language].days30 }).click(),
      ]);
      await desk.page.getByRole('progressbar').waitFor({ state: 'detached', timeout: 120_000 });
      console.log(language, size, 'report shown');
      await desk.page.waitForTimeout(1500); // the charts' entrance animation
      const file = (name: string) => path.join(outDir, `${language}-${size}-${name}.png`);
      await desk.page.screenshot({ path: file('top') });
      await desk.page.screenshot({ path: file('page'), fullPage: true });
      await desk.close();
    }
  }
  copyFileSync(path.join(outDir, 'fr-wide-top.png'), path.resolve('docs/images/reports.png'));
} finally {
  await browser.close();
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
