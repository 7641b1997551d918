/**
 * The dashboard (spec sections 2, 3 and 9) against a server of its own whose users, channels and activities
 * have known creation dates (set in its SQLite file after creating them through the API).
 */
import type { Page } from '@playwright/test';
import { DAY_MS, HOUR_MS, openServerDatabase } from './database.ts';
import {
  type Account,
  createAdmin,
  expect,
  type Seed,
  seedFor,
  type TalkgroupServer,
  test,
  useSession,
} from './fixtures.ts';

interface Team {
  server: TalkgroupServer;
  admin: Account;
  seed: Seed;
}

async function team(server: TalkgroupServer): Promise<Team> {
  const admin = await createAdmin(server);
  return { server, admin, seed: seedFor(server, admin) };
}

async function openDashboard(page: Page, { server, admin }: Team) {
  await useSession(page, admin);
  await page.goto(`${server.baseURL}/dashboard`);
  // The first page load fetches the page's code and texts: allow for a busy machine.
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible({ timeout: 60_000 });
}

const tile = (page: Page, name: string) => page.getByRole('region', { name });

test.describe('dashboard (English)', () => {
  test('shows the totals, the ten daily buckets and the percent change of known creation dates', async ({
    page,
    freshServer,
  }) => {
    test.slow(); // eleven accounts and channels made through the API, each password hashed with scrypt
    const t = await team(freshServer);
    const database = openServerDatabase(freshServer);
    const now = Date.now();
    // Ages in hours: two in the last day, one 1 to 2 days old, two 3 to 4 days, one 9 to 10, two older.
    for (const hours of [1, 5, 30, 80, 90, 9 * 24 + 5, 12 * 24, 40 * 24]) {
      const member = await t.seed.member();
      database.setCreatedAt('users', member.id, new Date(now - hours * HOUR_MS));
    }
    database.setCreatedAt('users', t.admin.id, new Date(now - 400 * DAY_MS));
    for (const [name, hours] of [
      ['Alpha', 2],
      ['Bravo', 50],
      ['Charlie', 26 * 24],
    ] as const) {
      const channel = await t.seed.channel(name);
      database.setCreatedAt('channels', channel.id, new Date(now - hours * HOUR_MS));
    }
    database.close();

    await openDashboard(page, t);
    const users = tile(page, 'Total Users');
    await expect(users.getByLabel('Total Users: 9')).toHaveText('9');
    // Six created in the last ten days, three before: +200 %.
    await expect(users).toContainText('+200% over 10 days');
    await expect(
      users.getByRole('img', {
        name: 'New users per day over 10 days, oldest to newest: 1, 0, 0, 0, 0, 0, 2, 0, 1, 2',
      }),
    ).toBeVisible();

    const channels = tile(page, 'Total Channels');
    await expect(channels.getByLabel('Total Channels: 3')).toHaveText('3');
    await expect(channels).toContainText('+200% over 10 days');
    await expect(
      channels.getByRole('img', {
        name: 'New channels per day over 10 days, oldest to newest: 0, 0, 0, 0, 0, 0, 0, 1, 0, 1',
      }),
    ).toBeVisible();
  });

  test('follows a new user and its sign-in without a reload', async ({ page, freshServer }) => {
    const t = await team(freshServer);
    await openDashboard(page, t);
    const users = tile(page, 'Total Users');
    await expect(users.getByLabel('Total Users: 1')).toBeVisible();
    await expect(page.getByRole('list', { name: 'Last Activities' })).toBeVisible();

    await t.seed.member({ firstName: 'Nina', lastName: 'Late' });
    await expect(users.getByLabel('Total Users: 2')).toBeVisible();
    await expect(users.getByRole('img', { name: /oldest to newest: 0, 0, 0, 0, 0, 0, 0, 0, 0, 2$/ })).toBeVisible();
    await expect(page.getByRole('list', { name: 'Last Activities' }).getByRole('listitem').first()).toContainText(
      'Nina Late signed in',
    );
  });

  test('opens the Add User and Add Channel dialogs of the lists, and counts the new channel', async ({
    page,
    freshServer,
  }) => {
    const t = await team(freshServer);
    await openDashboard(page, t);
    await page.getByRole('button', { name: 'Add User', exact: true }).click();
    const addUser = page.getByRole('dialog', { name: 'Add User' });
    await expect(addUser.getByRole('textbox', { name: 'Password', exact: true })).toBeVisible();
    await addUser.getByRole('button', { name: 'Cancel' }).click();
    await expect(addUser).toBeHidden();

    await page.getByRole('button', { name: 'Add Channel', exact: true }).click();
    const addChannel = page.getByRole('dialog', { name: 'Add Channel' });
    await addChannel.getByRole('textbox').first().fill('Night shift');
    await addChannel.getByRole('button', { name: 'Create' }).click();
    await expect(addChannel).toBeHidden();
    const channels = tile(page, 'Total Channels');
    await expect(channels.getByLabel('Total Channels: 1')).toBeVisible();
    await expect(page.getByRole('list', { name: 'Top Active Channels' })).toContainText('Night shift');
  });

  test('lists the five channels with the most members, highest first, with connected/total and last activity', async ({
    page,
    freshServer,
  }) => {
    test.slow(); // thirteen accounts and channels made through the API
    const t = await team(freshServer);
    const members: number[] = [t.admin.id];
    for (let i = 0; i < 6; i++) members.push((await t.seed.member()).id);
    const sizes: Array<[string, number]> = [
      ['Alpha', 2],
      ['Bravo', 7],
      ['Charlie', 0],
      ['Delta', 4],
      ['Echo', 5],
      ['Foxtrot', 1],
      ['Golf', 3],
    ];
    const ids: Record<string, number> = {};
    for (const [name, size] of sizes) {
      const channel = await t.seed.channel(name);
      ids[name] = channel.id;
      if (size > 0) await t.seed.addToChannel(channel.id, members.slice(0, size));
    }
    // Only Echo keeps an activity: 4 March 2025, 14:05 in Paris (the tests' time zone).
    const database = openServerDatabase(freshServer);
    database.clearActivities();
    database.insertActivities([
      {
        type: 'channel_join',
        createdAt: new Date('2025-03-04T13:05:00Z'),
        user: { id: t.admin.id, firstName: 'Ada', lastName: 'Lovelace' },
        channel: { id: ids.Echo, name: 'Echo' },
      },
    ]);
    database.close();

    await openDashboard(page, t);
    const top = page.getByRole('list', { name: 'Top Active Channels' }).getByRole('listitem');
    await expect(top).toHaveCount(5);
    await expect(top.nth(0)).toContainText('Bravo');
    await expect(top.nth(0)).toContainText('0/7');
    await expect(top.nth(0)).toContainText('No activity yet.');
    await expect(top.nth(1)).toContainText('Echo');
    await expect(top.nth(1)).toContainText('0/5');
    await expect(top.nth(1)).toContainText('Last activity: 04 Mar 2025 14:05');
    await expect(top.nth(2)).toContainText('Delta');
    await expect(top.nth(3)).toContainText('Golf');
    await expect(top.nth(4)).toContainText('Alpha');
    await expect(top.nth(4)).toContainText('0/2');
  });

  test('pages the last activities 8 at a time, in the card and in the dialog, and links to /activities', async ({
    page,
    freshServer,
  }) => {
    const t = await team(freshServer);
    const database = openServerDatabase(freshServer);
    database.clearActivities();
    const base = Date.UTC(2025, 0, 10, 12, 0);
    // Person 1 is the latest, person 20 the oldest.
    database.insertActivities(
      Array.from({ length: 20 }, (_, i) => ({
        type: 'login',
        createdAt: new Date(base - (i + 1) * 60_000),
        user: { id: null, firstName: 'Person', lastName: String(i + 1) },
      })),
    );
    database.close();

    await openDashboard(page, t);
    const card = page.getByRole('region', { name: 'Last Activities' });
    const entries = card.getByRole('list', { name: 'Last Activities' }).getByRole('listitem');
    await expect(entries).toHaveCount(8);
    await expect(entries.first()).toContainText('Person 1 signed in');
    await card
      .getByRole('navigation', { name: 'Pages of the last activities' })
      .getByRole('button', { name: 'Go to page 3' })
      .click();
    await expect(entries).toHaveCount(4);
    await expect(entries.first()).toContainText('Person 17 signed in');
    await expect(entries.last()).toContainText('Person 20 signed in');

    await card.getByRole('button', { name: 'Browse all activities' }).click();
    const dialog = page.getByRole('dialog', { name: 'All activities' });
    const all = dialog.getByRole('list', { name: 'All activities' }).getByRole('listitem');
    await expect(all).toHaveCount(8);
    await dialog.getByRole('button', { name: 'Go to page 2' }).click();
    await expect(all.first()).toContainText('Person 9 signed in');
    await expect(all.last()).toContainText('Person 16 signed in');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(dialog).toBeHidden();

    await card.getByRole('link', { name: 'See all' }).click();
    await expect(page).toHaveURL(/\/activities$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Activities List' })).toBeVisible();
  });
});

test.describe('dashboard (French)', () => {
  test.use({ language: 'fr' });

  test('writes the timeline in French, dates included, and says when a channel has no activity', async ({
    page,
    freshServer,
  }) => {
    const t = await team(freshServer);
    const channel = await t.seed.channel('Équipe Alpha');
    await t.seed.addToChannel(channel.id, [t.admin.id]);
    const database = openServerDatabase(freshServer);
    database.clearActivities();
    const mia = { id: null, firstName: 'Mia', lastName: 'Membre' };
    const alpha = { id: null, name: 'Équipe Alpha' };
    database.insertActivities([
      { type: 'login', createdAt: new Date('2025-03-04T08:00:00Z'), user: mia },
      { type: 'channel_join', createdAt: new Date('2025-03-04T08:01:00Z'), user: mia, channel: alpha },
      { type: 'channel_talk', createdAt: new Date('2025-03-04T08:02:00Z'), user: mia, channel: alpha },
      { type: 'image_send', createdAt: new Date('2025-03-04T08:03:00Z'), user: mia, channel: alpha },
      { type: 'channel_leave', createdAt: new Date('2025-03-04T08:04:00Z'), user: mia, channel: alpha },
      { type: 'logout', createdAt: new Date('2025-03-04T13:05:00Z'), user: mia },
    ]);
    database.close();

    await openDashboard(page, t);
    const entries = page.getByRole('list', { name: 'Dernières activités' }).getByRole('listitem');
    await expect(entries).toHaveText([
      'Déconnexion de Mia Membre04 mars 2025 14:05',
      'Mia Membre a quitté le canal Équipe Alpha04 mars 2025 09:04',
      'Mia Membre a envoyé une image dans Équipe Alpha04 mars 2025 09:03',
      'Mia Membre a parlé dans le canal Équipe Alpha04 mars 2025 09:02',
      'Mia Membre a rejoint le canal Équipe Alpha04 mars 2025 09:01',
      'Connexion de Mia Membre04 mars 2025 09:00',
    ]);
    const top = page.getByRole('list', { name: 'Canaux les plus actifs' }).getByRole('listitem');
    await expect(top).toHaveCount(1);
    await expect(top.first()).toContainText('Équipe Alpha');
    await expect(top.first()).toContainText('0/1');
    await expect(top.first()).toContainText("Pas d'activité encore.");
    await expect(tile(page, 'Total coéquipiers')).toContainText('+100 % sur 10 jours');
  });
});
