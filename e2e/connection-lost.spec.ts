/**
 * What the activity log calls a lost connection (issue 17): a page that reloads says goodbye and is never
 * logged as `connexion_lost`; a network that dies (the browser offline for longer than the grace period) is.
 * A server of its own, with a short grace (CONNECTION_LOST_GRACE_SECONDS=2), so the test waits seconds.
 */
import { createAdmin, expect, login, seedFor, startServer, test, useSession } from './fixtures.ts';

test.describe.configure({ timeout: 120_000 });

test('a reload records no connexion_lost; a network lost for longer than the grace period does', async ({
  browser,
}) => {
  const server = await startServer({ CONNECTION_LOST_GRACE_SECONDS: '2' });
  try {
    const admin = await createAdmin(server);
    const seed = seedFor(server, admin);
    const member = await seed.member({ firstName: 'Lou', lastName: 'Lost' });
    const lostEntries = async () => {
      const log = await server.call('/user/api/getAllActivities/', { start: 0, limit: 100 }, admin.token);
      return (log.body.res.activities as Array<{ type: string; user: { id: number } | null }>).filter(
        (activity) => activity.type === 'connexion_lost' && activity.user?.id === member.id,
      ).length;
    };
    const socketIds = async () => {
      const users = await server.call('/user/api/getAllUsers', {}, admin.token);
      const lou = (users.body.res as Array<{ id: number; user_sockets: Array<{ socket_id: string }> }>).find(
        (u) => u.id === member.id,
      );
      return (lou?.user_sockets ?? []).map((socket) => socket.socket_id);
    };
    const connectedCount = async () => (await socketIds()).length;

    const context = await browser.newContext({ baseURL: server.baseURL });
    const page = await context.newPage();
    await useSession(page, await login(server, member.login, member.password));
    await page.goto('/talk');
    await expect(page.getByRole('heading', { level: 1, name: 'Talkgroup' })).toBeVisible();
    await expect.poll(connectedCount, { timeout: 60_000 }).toBeGreaterThan(0);

    // Reloads: the page says goodbye each time; once it is back, three grace periods pass with no entry.
    // Each reload waits for the page's new socket: a page still connecting has nobody to say goodbye to.
    for (let i = 0; i < 2; i += 1) {
      const before = await socketIds();
      await page.reload();
      await expect(page.getByRole('heading', { level: 1, name: 'Talkgroup' })).toBeVisible();
      await expect
        .poll(async () => (await socketIds()).some((id) => !before.includes(id)), { timeout: 60_000 })
        .toBe(true);
    }
    await expect.poll(connectedCount, { timeout: 60_000 }).toBeGreaterThan(0);
    await page.waitForTimeout(6_000);
    expect(await lostEntries()).toBe(0);

    // The network dies without a goodbye: after the grace period, one connexion_lost.
    await context.setOffline(true);
    await expect.poll(connectedCount, { timeout: 60_000 }).toBe(0);
    await expect.poll(lostEntries, { timeout: 60_000 }).toBe(1);
    await context.setOffline(false);
    await context.close();
  } finally {
    await server.stop();
  }
});

test("a page the server refuses says why, in the reader's language, and connects once a place is free", async ({
  browser,
}) => {
  const server = await startServer({ MAX_CONNECTIONS: '1' });
  try {
    const admin = await createAdmin(server);
    const member = await seedFor(server, admin).member({ firstName: 'Bea', lastName: 'Busy' });
    const first = await browser.newContext({ baseURL: server.baseURL });
    const firstPage = await first.newPage();
    await useSession(firstPage, await login(server, member.login, member.password));
    await firstPage.goto('/talk');
    await expect(firstPage.getByRole('heading', { level: 1, name: 'Talkgroup' })).toBeVisible();

    // The one place is taken: a second page in French is told the server is full, not that it is offline.
    const second = await browser.newContext({ baseURL: server.baseURL, locale: 'fr-FR' });
    const secondPage = await second.newPage();
    await useSession(secondPage, await login(server, member.login, member.password));
    await secondPage.goto('/talk');
    const full = 'Le serveur a autant de connexions qu’il peut en prendre : nouvel essai automatique dans un instant.';
    // A status, beside the page's others (the notifications switch says its own state).
    await expect(secondPage.getByRole('status').filter({ hasText: full })).toBeVisible();
    // The first page goes: the second connects by itself and the sentence goes.
    await first.close();
    await expect(secondPage.getByText(full)).toBeHidden({ timeout: 60_000 });
    const sockets = async () => {
      const users = await server.call('/user/api/getAllUsers', {}, admin.token);
      const bea = (users.body.res as Array<{ id: number; user_sockets: unknown[] }>).find((u) => u.id === member.id);
      return bea?.user_sockets.length ?? 0;
    };
    await expect.poll(sockets).toBe(1);
    await second.close();
  } finally {
    await server.stop();
  }
});
