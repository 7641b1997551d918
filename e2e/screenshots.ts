/**
 * Screenshots to look at (not a test): sign-in, sign-up, the shell and the 404 page, in French and English,
 * at 1280x800 and 390x844. `npm run build && node e2e/screenshots.ts [outDir]` (default test-results/screens).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { chromiumLaunchOptions } from './chromium.ts';
import { createAdmin, startServer } from './fixtures.ts';

const outDir = path.resolve(process.argv[2] ?? 'test-results/screens');
mkdirSync(outDir, { recursive: true });

const server = await startServer();
const browser = await chromium.launch(chromiumLaunchOptions());
try {
  const admin = await createAdmin(server);
  const viewports = {
    desktop: { width: 1280, height: 800 },
    mobile: { width: 390, height: 844 },
    wide: { width: 1600, height: 900 },
  };
  for (const language of ['fr', 'en'] as const) {
    for (const [device, viewport] of Object.entries(viewports)) {
      const context = await browser.newContext({ viewport, baseURL: server.baseURL });
      await context.addInitScript((lng) => localStorage.setItem('i18nextLng', lng), language);
      const page = await context.newPage();
      const shot = async (name: string) => {
        await page
          .locator('h1, [role=dialog], [role=alertdialog], [role=menu]')
          .filter({ visible: true })
          .last()
          .waitFor();
        await page.waitForTimeout(400); // transitions
        await page.screenshot({ path: path.join(outDir, `${name}-${language}-${device}.png`) });
      };
      await page.goto('/signup');
      await shot('signup');
      await page.goto('/notFound');
      await shot('notfound');
      await page.goto('/signin');
      await page.locator('#signin-login').fill('not-an-email');
      await page.locator('#signin-password').fill('x');
      await page.locator('#signin-password').blur();
      await shot('signin-errors');
      // Keyboard focus: from the password, Tab reaches the show/hide button then 'Remember me'.
      await page.locator('#signin-password').focus();
      await page.keyboard.press('Tab');
      await page.keyboard.press('Tab');
      await shot('signin-focus');
      await page.locator('#signin-login').fill(admin.login);
      await page.locator('#signin-password').fill(admin.password);
      await page.locator('form button[type=submit]').click();
      await page.waitForURL(/channelsList/);
      await shot('shell');
      if (device !== 'wide') {
        await page.locator('header button').first().click();
        await shot('shell-drawer');
        await page.keyboard.press('Escape');
      }
      await page.locator('header button').last().click();
      await shot('shell-menu');
      await page.getByRole('menuitem').last().click();
      await shot('logout-dialog');
      await context.close();
    }
  }
  console.log(`screenshots in ${outDir}`);
} finally {
  await browser.close();
  await server.stop();
}
