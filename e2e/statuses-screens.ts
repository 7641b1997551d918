/**
 * Screenshots of members' statuses to look at (not a test): the 'Statuts' section of /settings, and "Mon statut"
 * on /talk (its menu open, then with a status) and on a channel page; in French and English, at 390x844 and
 * 1400x900. `npm run build && node e2e/statuses-screens.ts [outDir]` (default test-results/statuses-screens).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { chromiumLaunchOptions } from './chromium.ts';
import { createAdmin, seedFor, startServer } from './fixtures.ts';
import { openAs } from './room-support.ts';

const outDir = path.resolve(process.argv[2] ?? 'test-results/statuses-screens');
mkdirSync(outDir, { recursive: true });
const VIEWPORTS = { narrow: { width: 390, height: 844 }, wide: { width: 1400, height: 900 } };
const TEXTS = {
  fr: { section: 'Statuts', mine: 'Mon statut', onScene: 'Sur place' },
  en: { section: 'Statuses', mine: 'My status', onScene: 'On scene' },
} as const;

const server = await startServer();
const browser = await chromium.launch(chromiumLaunchOptions());
try {
  const admin = await createAdmin(server);
  const seed = seedFor(server, admin);
  const channel = await seed.channel('Quai');
  const mia = await seed.member({ firstName: 'Mia', lastName: 'Terrain' });
  await seed.addToChannel(channel.id, [mia.id]);

  for (const language of ['fr', 'en'] as const) {
    const texts = TEXTS[language];
    for (const [size, viewport] of Object.entries(VIEWPORTS)) {
      const shot = (page: Page, name: string) =>
        page.screenshot({ path: path.join(outDir, `${language}-${size}-${name}.png`), fullPage: name === 'settings' });

      const desk = await openAs(browser, server.baseURL, admin, { language, viewport });
      await desk.page.goto('/settings');
      const section = desk.page.getByRole('region', { name: texts.section });
      await section.getByRole('group').first().waitFor({ timeout: 120_000 });
      await shot(desk.page, 'settings');
      await desk.close();

      await server.call('/user/api/setMyStatus', { statusId: null }, mia.token);
      const phone = await openAs(browser, server.baseURL, mia, { language, viewport });
      await phone.page.goto('/talk');
      const mine = phone.page.getByRole('button', { name: texts.mine });
      await mine.waitFor({ timeout: 120_000 });
      await mine.click();
      await phone.page.getByRole('menuitemradio', { name: texts.onScene }).waitFor();
      await phone.page.waitForTimeout(400); // the menu's transition
      await shot(phone.page, 'talk-menu');
      await phone.page.getByRole('menuitemradio', { name: texts.onScene }).click();
      await phone.page.getByRole('menu').waitFor({ state: 'hidden' });
      await phone.page.waitForTimeout(400);
      await shot(phone.page, 'talk-home');
      await phone.page.goto(`/talk/${channel.id}`);
      await phone.page.getByRole('heading', { level: 1, name: 'Quai' }).waitFor({ timeout: 120_000 });
      await phone.page.waitForTimeout(400);
      await shot(phone.page, 'talk-channel');
      await phone.close();
    }
  }
} finally {
  await browser.close();
  await server.stop();
}
