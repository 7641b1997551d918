/**
 * Device status and remote disable (issue 60 items 4 and 5), in Chromium: a member's /talk reports its device; a
 * dispatcher reads it from the tile on /dispatch ("Device status of …", with Refresh); then an administrator
 * disables the member's device from the users page ("Disable this device", confirmed): the phone's page wipes its
 * local storage, IndexedDB and Cache Storage, shows "This device was disabled by an administrator", and its token
 * is refused from then on.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { monitor, rowAction } from './dispatch-support.ts';
import { test } from './fixtures.ts';
import { openAs } from './room-support.ts';
import { expect, PHONE } from './talk-support.ts';

test.describe.configure({ timeout: 240_000 });

/** What the page keeps: local and session storage keys, IndexedDB databases, Cache Storage caches. */
async function kept(page: import('@playwright/test').Page) {
  return page.evaluate(async () => ({
    local: Object.keys(localStorage),
    session: Object.keys(sessionStorage),
    databases: (await indexedDB.databases()).map((db) => db.name),
    caches: await caches.keys(),
  }));
}

test('a dispatcher reads a member’s device status; a disabled device wipes its storage, says so, and its token is refused', async ({
  browser,
  server,
  admin,
  seed,
}, testInfo) => {
  const field = await seed.channel();
  const desk = await seed.member({ firstName: 'Dana', lastName: 'Desk', role: 'dispatcher' });
  const mia = await seed.member({ firstName: 'Mia', lastName: 'Phone' });
  await seed.addToChannel(field.id, [desk.id, mia.id]);

  const phone = await openAs(browser, server.baseURL, mia, { viewport: PHONE });
  const d = await openAs(browser, server.baseURL, desk);
  const a = await openAs(browser, server.baseURL, admin);
  try {
    await phone.page.goto(`/talk/${field.id}`);
    await expect(phone.page.getByRole('heading', { level: 1, name: field.name })).toBeVisible();
    // Things the page keeps: a value in local storage, a database with a row, a cache with a response.
    await phone.page.evaluate(async () => {
      localStorage.setItem('talkgroup.test', 'kept');
      await new Promise<void>((resolve, reject) => {
        const request = indexedDB.open('talkgroup-e2e-kept', 1);
        request.onupgradeneeded = () => request.result.createObjectStore('things', { keyPath: 'id' });
        request.onsuccess = () => {
          const db = request.result;
          const put = db.transaction('things', 'readwrite').objectStore('things').put({ id: 1, what: 'kept' });
          put.onsuccess = () => {
            db.close();
            resolve();
          };
          put.onerror = () => reject(put.error);
        };
        request.onerror = () => reject(request.error);
      });
      await (await caches.open('talkgroup-e2e-kept')).put('/e2e-kept', new Response('kept'));
    });
    const before = await kept(phone.page);
    expect(before.local).toContain('talkgroup.test');
    expect(before.databases).toContain('talkgroup-e2e-kept');
    expect(before.caches).toContain('talkgroup-e2e-kept');

    // The phone reported itself on connecting: the server has its status.
    await expect
      .poll(async () => (await server.call('/user/api/getDeviceStatus', { userId: mia.id }, desk.token)).body.res, {
        timeout: 60_000,
      })
      .toMatchObject({ userId: mia.id, appOpen: true, visible: true, network: { online: true } });

    // The dispatcher's tile: the member's device status, and Refresh asks the phone again.
    await d.page.goto('/dispatch');
    await expect(d.page.getByRole('heading', { level: 1, name: 'Dispatch console' })).toBeVisible();
    await monitor(d.page, [field.name]);
    const tile = d.page.getByRole('region', { name: `Channel ${field.name}` });
    await (await rowAction(tile, 'Mia Phone', /^Device status of Mia Phone/)).click();
    const dialog = d.page.getByRole('dialog', { name: 'Device status — Mia Phone' });
    await expect(dialog.getByRole('row', { name: /App open/ })).toBeVisible();
    await expect(dialog.getByRole('row', { name: /Network online/ })).toBeVisible();
    await dialog.getByRole('button', { name: 'Refresh' }).click();
    await expect(dialog.getByRole('status')).toHaveText('Asked: an open phone answers within 5 seconds.');
    const shot = testInfo.outputPath('dispatch-device-status.png');
    await d.page.screenshot({ path: shot });
    if (process.env.E2E_DOCS_SCREENSHOTS) {
      mkdirSync(path.resolve('docs/images'), { recursive: true });
      copyFileSync(shot, path.resolve('docs/images/dispatch-device-status.png'));
    }
    await dialog.getByRole('button', { name: 'Close' }).click();

    // The administrator disables the phone from the user's sessions, after confirming.
    await a.page.goto('/usersList');
    await a.page.getByRole('searchbox', { name: 'Search users' }).fill(mia.login);
    await a.page.getByRole('button', { name: 'Sessions of Mia Phone' }).click();
    const list = a.page.getByRole('dialog', { name: 'Sessions of Mia Phone' });
    await list.getByRole('button', { name: /^Disable this device/ }).click();
    const confirm = a.page.getByRole('alertdialog', { name: 'Disable this device?' });
    await confirm.getByRole('button', { name: 'Disable this device' }).click();
    await expect(list.getByRole('status')).toHaveText('Device disabled.');

    // The phone: wiped, and told why, with nothing but signing in again.
    await expect(phone.page).toHaveURL(/\/device-disabled/);
    await expect(
      phone.page.getByRole('heading', { level: 1, name: 'This device was disabled by an administrator' }),
    ).toBeVisible();
    await expect(phone.page.getByRole('link', { name: 'Sign in again' })).toBeVisible();
    await expect.poll(() => kept(phone.page)).toEqual({ local: [], session: [], databases: [], caches: [] });
    // Its token never works again.
    expect((await server.call('/user/api/getMyChannels', {}, mia.token)).status).toBe(401);
    const audit = (await server.call('/user/api/getAuditLog', {}, admin.token)).body.res.entries;
    expect(audit.find((entry: { action: string }) => entry.action === 'session.disable_device')).toMatchObject({
      targetId: mia.id,
    });
  } finally {
    await phone.close();
    await d.close();
    await a.close();
  }
});
