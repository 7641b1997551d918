/**
 * Issue 17 point 7: axe-core finds no serious or critical violation on any screen of the console and its
 * dialogs, at a laptop width (the members' app has its own check in talk-app.spec.ts).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';
import { chromiumLaunchOptions } from './chromium.ts';
import { expect, test, useSession } from './fixtures.ts';
import { fakeMicrophoneArgs } from './room-audio.ts';
import { openAs, roomUrl, TONE_WAV } from './room-support.ts';

test.use({
  launchOptions: chromiumLaunchOptions(fakeMicrophoneArgs(TONE_WAV)),
  viewport: { width: 1366, height: 900 },
});
test.describe.configure({ timeout: 240_000 });

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core's serious and critical violations on the page as it is now: rule id and the elements named. */
async function seriousViolations(page: Page): Promise<string[]> {
  // Colours are read once the transitions are over (a chip half-way from grey to green is neither).
  await page
    .waitForFunction(
      () => document.getAnimations().every((animation) => animation.effect?.getTiming().iterations === Infinity),
      undefined,
      { timeout: 5_000 },
    )
    .catch(() => undefined);
  // Evaluated, not added as a <script>: the page's Content-Security-Policy refuses inline scripts.
  await page.evaluate(AXE);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: () => Promise<{ violations: any[] }> } }).axe;
    return (await axe.run()).violations;
  });
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id}: ${violation.nodes.map((node: { target: string[] }) => node.target.join(' ')).join(', ')}`,
    );
}

test('every console screen and dialog has no serious or critical accessibility violation (axe)', async ({
  page,
  browser,
  server,
  admin,
  seed,
}) => {
  const channel = await seed.channel();
  const mia = await seed.member({ firstName: 'Mia', lastName: 'Axe', mapRight: true });
  await seed.addToChannel(channel.id, [mia.id]);
  const found: Record<string, string[]> = {};
  const check = async (screen: string) => {
    found[screen] = await seriousViolations(page);
  };

  await page.goto('/signin');
  await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();
  await check('sign-in');
  await page.goto('/signup');
  await expect(page.getByRole('button', { name: 'Sign up' })).toBeVisible();
  await check('sign-up');
  await page.goto('/notFound');
  await check('not found');

  await useSession(page, admin);
  await page.goto('/dashboard');
  await expect(page.getByRole('main').locator('tbody tr').first()).toBeVisible({ timeout: 60_000 });
  await check('dashboard');

  await page.goto('/usersList');
  await expect(page.getByRole('main').locator('tbody tr').first()).toBeVisible({ timeout: 60_000 });
  await check('users');
  await page.getByRole('main').getByRole('button', { name: 'Add User' }).click();
  await expect(page.getByRole('dialog', { name: 'Add User' })).toBeVisible();
  await check('add user dialog');
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Edit Mia Axe' }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await check('admin password dialog');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await page.getByRole('button', { name: /Account menu/ }).click();
  await expect(page.getByRole('menu')).toBeVisible();
  await check('account menu');
  await page.keyboard.press('Escape');

  await page.goto('/channelsList');
  await expect(page.getByRole('main').locator('tbody tr').first()).toBeVisible({ timeout: 60_000 });
  await check('channels');
  await page.getByRole('main').getByRole('button', { name: 'Add Channel' }).click();
  await expect(page.getByRole('dialog', { name: 'Add Channel' })).toBeVisible();
  await check('add channel dialog');
  await page.keyboard.press('Escape');

  await page.goto('/activities');
  await expect(page.getByRole('heading', { level: 1, name: 'Activities List' })).toBeVisible({ timeout: 60_000 });
  await check('activities');

  // Mia in the room too: her participant tile is checked with the room.
  const other = await openAs(browser, server.baseURL, mia);
  try {
    await other.page.goto(roomUrl(channel.rtcSession));
    await page.goto(roomUrl(channel.rtcSession));
    await expect(page.getByRole('button', { name: 'Push to talk' })).toBeEnabled({ timeout: 60_000 });
    await expect(page.getByRole('listitem', { name: /Mia Axe/ })).toBeVisible({ timeout: 60_000 });
    await check('room');
  } finally {
    await other.close();
  }
  await page.getByRole('button', { name: 'Messages' }).click();
  await expect(page.getByRole('region', { name: 'Messages' })).toBeVisible();
  await check('room with the chat open');

  expect(found).toEqual(Object.fromEntries(Object.keys(found).map((screen) => [screen, []])));
});
