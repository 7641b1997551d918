/**
 * Screenshots of the console at the sizes a control room uses (issue 58), to look at (not a test): the dispatch
 * console's busy scene (console-scene.ts: five members in Quai, an SOS) at 1280x720, 1366x850 and 1920x1080,
 * the users list and its add dialog, a channel room, /settings, and /talk at 390 px, in French and English.
 * `npm run build && node e2e/console-screens.ts [outDir]` (default test-results/console-screens); `--docs` also
 * writes docs/images/console.png (English, 1366x850).
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { chromiumLaunchOptions } from './chromium.ts';
import { type ConsoleScene, consoleScene, hangUp } from './console-scene.ts';
import { createAdmin, seedFor, startServer } from './fixtures.ts';
import { openAs, roomUrl } from './room-support.ts';

const args = process.argv.slice(2);
const outDir = path.resolve(args.find((arg) => !arg.startsWith('--')) ?? 'test-results/console-screens');
mkdirSync(outDir, { recursive: true });

const SIZES = {
  '1280x720': { width: 1280, height: 720 },
  '1366x850': { width: 1366, height: 850 },
  '1920x1080': { width: 1920, height: 1080 },
};

const server = await startServer();
const browser = await chromium.launch(chromiumLaunchOptions());
let scene: ConsoleScene | undefined;
try {
  const admin = await createAdmin(server);
  const seed = seedFor(server, admin);
  scene = await consoleScene(server, admin, seed, '');
  const { dana, quai } = scene;
  for (const language of ['fr', 'en'] as const) {
    for (const [size, viewport] of Object.entries(SIZES)) {
      const desk = await openAs(browser, server.baseURL, dana, { language, viewport });
      const { page } = desk;
      await page.goto('/dispatch');
      await page.locator('[data-presence="inChannel"]').nth(4).waitFor({ state: 'attached', timeout: 60_000 });
      await page.waitForTimeout(1500); // transitions
      const file = path.join(outDir, `console-${language}-${size}.png`);
      await page.screenshot({ path: file });
      if (language === 'en' && size === '1366x850' && args.includes('--docs'))
        copyFileSync(file, path.resolve('docs/images/console.png'));
      await desk.close();
    }
    const office = await openAs(browser, server.baseURL, admin, { language, viewport: SIZES['1366x850'] });
    const { page } = office;
    await page.goto('/usersList');
    await page.getByRole('table').first().waitFor();
    await page.waitForTimeout(800);
    await page.screenshot({ path: path.join(outDir, `users-${language}-1366x850.png`) });
    await page
      .getByRole('main')
      .getByRole('button', { name: language === 'fr' ? 'Ajouter un coéquipier' : 'Add User' })
      .click();
    await page.getByRole('dialog').waitFor();
    await page.waitForTimeout(600);
    await page.screenshot({ path: path.join(outDir, `add-user-${language}-1366x850.png`) });
    await page.keyboard.press('Escape');
    await page.goto(roomUrl(quai.rtcSession));
    await page.getByRole('heading', { level: 1, name: quai.name }).waitFor();
    await page.waitForTimeout(1500);
    await page.screenshot({ path: path.join(outDir, `room-${language}-1366x850.png`), fullPage: true });
    await page.goto('/settings');
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.waitForTimeout(800);
    await page.screenshot({ path: path.join(outDir, `settings-${language}-1366x850.png`), fullPage: true });
    await office.close();
    const member = scene.people[0] ?? dana;
    const phone = await openAs(browser, server.baseURL, member, { language, viewport: { width: 390, height: 844 } });
    await phone.page.goto('/talk');
    await phone.page.getByRole('heading', { level: 1 }).first().waitFor();
    await phone.page.waitForTimeout(800);
    await phone.page.screenshot({ path: path.join(outDir, `talk-${language}-390.png`) });
    await phone.close();
  }
  console.log(`screenshots in ${outDir}`);
} finally {
  await hangUp(scene);
  await browser.close();
  await server.stop();
}
