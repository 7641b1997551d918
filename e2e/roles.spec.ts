/**
 * Roles in the console (issue 25): an administrator gives a new user the dispatcher role in Add User; a
 * dispatcher's console shows only what it may use (its channels and their activities: no dashboard, users or
 * audit, no channel management), in French and in English; a member made listen-only from the room's
 * "Users in" section finds its push-to-talk button disabled, with the reason.
 */
import type { Locator, Page } from '@playwright/test';
import { type Account, expect, startIn, test, unique, useSession } from './fixtures.ts';

const field = (scope: Locator, label: string) =>
  scope.getByLabel(new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(\\s*\\*)?$`));

// Wide enough for the sidebar to stay open (spec section 2: 1480px).
const WIDE = { width: 1500, height: 900 };
test.use({ viewport: WIDE });
// Two signed-in browsers each: give a busy machine time.
test.describe.configure({ timeout: 150_000 });

async function navEntries(page: Page): Promise<string[]> {
  const nav = page.getByRole('navigation', { name: /Main navigation|Navigation principale/ });
  await expect(nav.getByRole('link').first()).toBeVisible();
  return nav.getByRole('link').allInnerTexts();
}

test.describe('roles (English)', () => {
  test('Add User gives the dispatcher role; the dispatcher sees its channels and activities only', async ({
    page,
    browser,
    admin,
    server,
    seed,
  }) => {
    const own = await seed.channel(unique('Own'));
    const other = await seed.channel(unique('Other'));
    const tag = unique('d').split(' ')[1];
    const login = `dina.${tag}@example.org`;

    await useSession(page, admin);
    await page.goto('/usersList');
    await page.getByRole('main').getByRole('button', { name: 'Add User' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add User' });
    await field(dialog, 'First name').fill('Dina');
    await field(dialog, 'Last name').fill('Desk');
    await field(dialog, 'Login (e-mail)').fill(login);
    await field(dialog, 'Password').fill('desk-secret-1');
    await field(dialog, 'Validate password').fill('desk-secret-1');
    await dialog.getByRole('combobox', { name: 'Role' }).click();
    await page.getByRole('option', { name: 'Dispatcher' }).click();
    await dialog.getByRole('cell', { name: own.name, exact: true }).click();
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();
    await expect(dialog).toHaveCount(0);

    const { body } = await server.call('/user/api/login', { user_email: login, user_password: 'desk-secret-1' });
    expect(body.user.role).toBe('dispatcher');
    const dispatcher: Account = {
      id: body.user.id,
      token: body.user.authToken,
      login,
      password: 'desk-secret-1',
      firstName: 'Dina',
      lastName: 'Desk',
      role: 'dispatcher',
    };

    const context = await browser.newContext({ baseURL: server.baseURL, viewport: WIDE });
    await startIn(context, 'en');
    const desk = await context.newPage();
    try {
      await useSession(desk, dispatcher);
      // Issue 70: a dispatcher starts on its dispatch console.
      await desk.goto('/');
      await expect(desk).toHaveURL(/\/dispatch$/);
      // Its channels, their activities, and its dispatch console (issue 27).
      expect(await navEntries(desk)).toEqual(['Channels', 'Activities', 'Dispatch console', 'Reports']);
      await desk.goto('/channelsList');
      const table = desk.getByRole('main');
      await expect(table.getByRole('row', { name: `Enter the channel ${own.name}` })).toBeVisible();
      await expect(table.getByText(other.name, { exact: true })).toHaveCount(0);
      await expect(table.getByRole('button', { name: 'Add Channel' })).toHaveCount(0);
      await expect(table.getByRole('button', { name: 'Import' })).toHaveCount(0);

      await desk.goto('/usersList');
      await expect(desk.getByRole('heading', { name: 'Page not found' })).toBeVisible();
      await desk.goto('/activities');
      await expect(desk.getByRole('heading', { level: 1, name: 'Activities List' })).toBeVisible();
      await expect(desk.getByRole('button', { name: 'Delete' })).toHaveCount(0);
    } finally {
      await context.close();
    }
  });

  test('a member made listen-only in the room finds its push-to-talk button disabled', async ({
    page,
    browser,
    admin,
    server,
    seed,
  }) => {
    const channel = await seed.channel(unique('Listen'));
    const leo = await seed.member({ firstName: 'Leo', lastName: 'Listener' });
    await seed.addToChannel(channel.id, [leo.id]);

    await useSession(page, admin);
    await page.goto(`/groupCallView/${encodeURIComponent(channel.rtcSession)}`);
    // The first room page of a worker waits for its code and the server's first answers.
    await expect(page.getByRole('heading', { level: 1, name: channel.name })).toBeVisible({ timeout: 60_000 });
    const section = page.getByRole('region', { name: `Users in ${channel.name}` });
    const mayTalk = section.getByRole('switch', { name: 'May talk: Leo Listener' });
    await expect(mayTalk).toBeChecked();
    // The switch follows the server: it turns off once the change is saved and the members are read again.
    await mayTalk.click();
    await expect(mayTalk).not.toBeChecked();
    await expect(section.getByText(/listen only/)).toBeVisible();
    await expect
      .poll(async () => {
        const { body } = await server.call('/user/api/getUsersInChannel', { channelId: channel.id }, admin.token);
        return body.res.find((user: { id: number }) => user.id === leo.id)?.canTalk;
      })
      .toBe(false);

    const context = await browser.newContext({ baseURL: server.baseURL, viewport: WIDE });
    await startIn(context, 'en');
    const phone = await context.newPage();
    try {
      await useSession(phone, leo);
      await phone.goto(`/groupCallView/${encodeURIComponent(channel.rtcSession)}`);
      await expect(phone.getByRole('status').filter({ hasText: 'Listen only' })).toBeVisible();
      await expect(phone.getByRole('button', { name: 'Push to talk' })).toBeDisabled();
    } finally {
      await context.close();
    }
  });
});

test.describe('roles (French)', () => {
  test.use({ language: 'fr' });

  test("la console d'un dispatcheur n'offre que ses canaux et leurs activités", async ({ page, seed }) => {
    const channel = await seed.channel(unique('Canal'));
    const dina = await seed.member({ firstName: 'Dina', lastName: 'Dispatch', role: 'dispatcher' });
    await seed.addToChannel(channel.id, [dina.id]);
    await useSession(page, dina);
    await page.goto('/');
    await expect(page).toHaveURL(/\/dispatch$/);
    expect(await navEntries(page)).toEqual(['Canaux', 'Activités', 'Console de répartition', 'Rapports']);
    await page.goto('/channelsList');
    await expect(page.getByRole('main').getByText(channel.name, { exact: true })).toBeVisible();
    await page.goto('/dashboard');
    await expect(page.getByRole('heading', { name: 'Page introuvable' })).toBeVisible();
  });
});
