/**
 * The members' app as an installed app: its manifest and service worker, the shell offline, the console outside
 * the worker's scope; and the member pages checked by axe for serious accessibility violations.
 */
import { seriousViolations } from './axe.ts';
import { test, useSession } from './fixtures.ts';
import { openAs } from './room-support.ts';
import { expect, PHONE, phoneLaunchOptions } from './talk-support.ts';

test.use({ launchOptions: phoneLaunchOptions });
test.describe.configure({ timeout: 180_000 });

test('the app is installable: manifest and service worker served, the shell opens offline, the console stays uncached', async ({
  page,
  request,
  seed,
}) => {
  const manifest = await request.get('/manifest.webmanifest');
  expect(manifest.status()).toBe(200);
  expect(manifest.headers()['content-type']).toMatch(/^application\/manifest\+json/);
  const fields = await manifest.json();
  expect(fields).toMatchObject({
    name: 'Talkgroup',
    short_name: 'Talkgroup',
    display: 'standalone',
    start_url: '/talk',
  });
  expect(fields.theme_color).toBeTruthy();
  const sizes = fields.icons.map((icon: { sizes: string; purpose: string }) => `${icon.sizes} ${icon.purpose}`);
  expect(sizes).toEqual(expect.arrayContaining(['192x192 any', '512x512 any', '512x512 maskable']));
  for (const icon of fields.icons) {
    const image = await request.get(icon.src);
    expect(image.status(), icon.src).toBe(200);
    expect(image.headers()['content-type']).toBe('image/png');
  }
  const worker = await request.get('/sw.js');
  expect(worker.status()).toBe(200);
  expect(worker.headers()['content-type']).toMatch(/javascript/);
  expect(worker.headers()['cache-control']).toBe('no-cache');
  const workerCode = await worker.text();
  // Server calls, sockets and files are never answered from the cache.
  expect(workerCode).not.toContain('/user/api/getMyChannels');

  const member = await seed.member();
  await page.setViewportSize(PHONE);
  // Remembered: the session is in localStorage, as on a phone that signed in once.
  await useSession(page, member, { remember: true });
  await page.goto('/talk');
  await expect(page.locator('link[rel="manifest"]')).toHaveAttribute('href', '/manifest.webmanifest');
  const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
  expect(new URL(scope).pathname).toBe('/talk');
  await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);

  await page.context().setOffline(true);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Talkgroup' })).toBeVisible();
  await expect(page.getByText('You are offline', { exact: false })).toBeVisible();
  await expect(page.getByText('Your channels will show as soon as the network is back.')).toBeVisible();
  await page.context().setOffline(false);

  // The console is outside the worker's scope: always the server's latest build.
  const consolePage = await page.context().newPage();
  await consolePage.goto('/signin');
  expect(await consolePage.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(false);
  await consolePage.close();
});

/**
 * axe-core's serious and critical violations on the page once its transitions are over (axe.ts): read while a
 * panel still faded in, its text was taken for low contrast once beside a loaded CI. The account menu is the
 * console's (app/shell/AccountMenu.tsx), checked with the console.
 */
const memberPageViolations = (page: import('@playwright/test').Page) =>
  seriousViolations(page, 'body', ['button[aria-haspopup="menu"]']);

test('the member pages have no serious accessibility violations (axe)', async ({ browser, server, seed }) => {
  const channel = await seed.channel();
  const noa = await seed.member({ firstName: 'Noa', lastName: 'Checked', mapRight: true });
  await seed.addToChannel(channel.id, [noa.id]);
  const phone = await openAs(browser, server.baseURL, noa, { viewport: PHONE });
  try {
    await phone.page.goto('/talk');
    await expect(phone.page.getByRole('link', { name: new RegExp(channel.name) })).toBeVisible();
    expect(await memberPageViolations(phone.page)).toEqual([]);

    await phone.page.goto(`/talk/${channel.id}`);
    await expect(phone.page.getByRole('button', { name: 'Push to talk' })).toBeEnabled();
    expect(await memberPageViolations(phone.page)).toEqual([]);

    await phone.page.getByRole('tab', { name: 'Members' }).click();
    await expect(phone.page.getByRole('listitem', { name: 'Noa Checked' })).toBeVisible();
    expect(await memberPageViolations(phone.page)).toEqual([]);
  } finally {
    await phone.close();
  }
});
