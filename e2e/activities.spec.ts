/**
 * The Activities page (spec sections 2, 8 and 9) against a server of its own whose activity log has a known
 * shape (laid down in its SQLite file): three columns of 21 per page, the pager, the empty text, and the
 * Delete menu removing exactly what is older than each period.
 */
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { DAY_MS, openServerDatabase, type SeedActivity } from './database.ts';
import { type Account, createAdmin, expect, seedFor, type TalkgroupServer, test, useSession } from './fixtures.ts';

async function openActivities(page: Page, server: TalkgroupServer, admin: Account) {
  await useSession(page, admin);
  await page.goto(`${server.baseURL}/activities`);
  // The first page load fetches the page's code and texts: allow for a busy machine.
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible({ timeout: 60_000 });
}

/** A sign-in by "Person <label>" at the given moment. */
const signInBy = (label: string, createdAt: Date): SeedActivity => ({
  type: 'login',
  createdAt,
  user: { id: null, firstName: 'Person', lastName: label },
});

/** Every entry shown, column after column (the columns are lists named 'Activities 1 to 7', ...). */
const entries = (page: Page) =>
  page
    .getByRole('main')
    .getByRole('list', { name: /^Activities \d+ to \d+$/ })
    .getByRole('listitem');
const notice = (page: Page) => page.locator('.MuiSnackbar-root').getByRole('alert');

test.describe('activities page (English)', () => {
  test("says 'No activities to display.' when the log is empty, and shows a new activity live", async ({
    page,
    freshServer,
  }) => {
    const admin = await createAdmin(freshServer);
    const database = openServerDatabase(freshServer);
    database.clearActivities();
    database.close();
    await openActivities(page, freshServer, admin);
    await expect(page.getByRole('heading', { level: 1, name: 'Activities List' })).toBeVisible();
    await expect(page.getByText('No activities to display.')).toBeVisible();
    await expect(entries(page)).toHaveCount(0);

    // A sign-in elsewhere appears without a reload.
    await seedFor(freshServer, admin).member({ firstName: 'Nina', lastName: 'Live' });
    await expect(entries(page).first()).toHaveText(/^Nina Live signed in/);
    await expect(page.getByText('No activities to display.')).toBeHidden();
  });

  test('shows 21 entries per page in three columns, latest first, with first and last buttons', async ({
    page,
    freshServer,
  }) => {
    const admin = await createAdmin(freshServer);
    const database = openServerDatabase(freshServer);
    database.clearActivities();
    const base = Date.UTC(2025, 4, 1, 12, 0);
    // Person 1 is the latest, person 50 the oldest: pages of 21, 21 and 8.
    database.insertActivities(
      Array.from({ length: 50 }, (_, i) => signInBy(String(i + 1), new Date(base - (i + 1) * 60_000))),
    );
    database.close();

    await openActivities(page, freshServer, admin);
    const main = page.getByRole('main');
    await expect(entries(page)).toHaveCount(21);
    await expect(main.getByRole('list', { name: /^Activities \d+ to \d+$/ })).toHaveCount(3);
    await expect(main.getByRole('list', { name: 'Activities 1 to 7' }).getByRole('listitem').first()).toHaveText(
      /^Person 1 signed in/,
    );
    await expect(main.getByRole('list', { name: 'Activities 8 to 14' }).getByRole('listitem').first()).toHaveText(
      /^Person 8 signed in/,
    );
    await expect(main.getByRole('list', { name: 'Activities 15 to 21' }).getByRole('listitem').last()).toHaveText(
      /^Person 21 signed in/,
    );
    await expect(page.getByText('Activities 1 to 21 of 50')).toBeVisible();

    const pager = page.getByRole('navigation', { name: 'Activities pages' });
    await pager.getByRole('button', { name: 'Go to last page' }).click();
    await expect(page).toHaveURL(/\?page=3$/);
    await expect(entries(page)).toHaveCount(8);
    await expect(entries(page).first()).toHaveText(/^Person 43 signed in/);
    await expect(entries(page).last()).toHaveText(/^Person 50 signed in/);

    await pager.getByRole('button', { name: 'Go to previous page' }).click();
    await expect(entries(page)).toHaveCount(21);
    await expect(entries(page).first()).toHaveText(/^Person 22 signed in/);
    await expect(entries(page).last()).toHaveText(/^Person 42 signed in/);

    await pager.getByRole('button', { name: 'Go to first page' }).click();
    await expect(entries(page).first()).toHaveText(/^Person 1 signed in/);
    await expect(page).toHaveURL(/\/activities$/);
  });

  test('each delete period removes exactly the activities older than it', async ({ page, freshServer }) => {
    const admin = await createAdmin(freshServer);
    const database = openServerDatabase(freshServer);
    database.clearActivities();
    const now = Date.now();
    // Ages in days, each a little inside or outside its boundary: 7 days, 14 days, one calendar month.
    const ages = [1, 6.9, 7.1, 13.9, 14.1, 27, 32, 60];
    database.insertActivities(ages.map((days) => signInBy(`${days}d`, new Date(now - days * DAY_MS))));
    database.close();
    await openActivities(page, freshServer, admin);
    await expect(entries(page)).toHaveCount(8);

    const shown = async (expected: number[]) =>
      expect(entries(page)).toHaveText(expected.map((days) => new RegExp(`^Person ${days}d signed in`)));

    const remove = async (period: string, sentencePeriod: string) => {
      await page.getByRole('button', { name: 'Delete', exact: true }).click();
      await page.getByRole('menuitem', { name: period }).click();
      const confirm = page.getByRole('alertdialog');
      await expect(confirm).toContainText(`Are you sure you want to delete all activities before ${sentencePeriod} ?`);
      await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
      await expect(notice(page)).toContainText('Activities Deleted');
      await expect(notice(page)).toContainText('Activities were deleted successfully.');
      await expect(confirm).toBeHidden();
    };

    // Cancel keeps everything.
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Last week' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Cancel' }).click();
    await shown(ages);

    await remove('Last month', 'last month');
    await shown([1, 6.9, 7.1, 13.9, 14.1, 27]);
    await remove('Last 2 weeks', 'last 2 weeks');
    await shown([1, 6.9, 7.1, 13.9]);
    await remove('Last week', 'last week');
    await shown([1, 6.9]);
  });

  test('reports a refused deletion and an unreachable server with the spec texts', async ({ page, server, admin }) => {
    // Both answers are the test's (nothing is deleted): the worker's server will do.
    await openActivities(page, server, admin);
    const deleteVia = async () => {
      await page.getByRole('button', { name: 'Delete', exact: true }).click();
      await page.getByRole('menuitem', { name: 'Last week' }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Delete', exact: true }).click();
    };

    await page.route('**/user/api/deleteOldActivities', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: '{"success":false,"result":"boom"}' }),
    );
    await deleteVia();
    await expect(notice(page)).toContainText('Failed to Delete Activities');
    await expect(notice(page)).toContainText('There was an error while deleting activities.');

    await page.route('**/user/api/deleteOldActivities', (route) => route.abort('connectionrefused'));
    await deleteVia();
    await expect(notice(page)).toContainText('Error');
    await expect(notice(page)).toContainText('An error occurred while processing your request.');
  });
});

test('filters the log by member, channel, type and days, pages the result, and exports it as .xlsx and .csv', async ({
  page,
  freshServer,
}) => {
  const admin = await createAdmin(freshServer);
  const seed = seedFor(freshServer, admin);
  const mia = await seed.member({ firstName: 'Mia', lastName: 'Filtered' });
  const ops = await seed.channel('Ops Room');
  const database = openServerDatabase(freshServer);
  database.clearActivities();
  const base = new Date(2025, 2, 10, 12, 0).getTime(); // 10 March 2025, noon, local time
  const miaUser = { id: mia.id, firstName: 'Mia', lastName: 'Filtered' };
  database.insertActivities([
    // 30 joins of Ops by Mia, one a day from 10 March back to 9 February.
    ...Array.from({ length: 30 }, (_, i) => ({
      type: 'channel_join',
      createdAt: new Date(base - i * DAY_MS),
      user: miaUser,
      channel: { id: ops.id, name: ops.name },
    })),
    ...Array.from({ length: 5 }, (_, i) => ({ type: 'login', createdAt: new Date(base - i * DAY_MS), user: miaUser })),
    ...Array.from({ length: 5 }, (_, i) => signInBy(`Other ${i}`, new Date(base - i * DAY_MS - 60_000))),
  ]);
  database.close();

  await openActivities(page, freshServer, admin);
  await expect(page.getByText('Activities 1 to 21 of 40')).toBeVisible();
  const filters = page.getByRole('search', { name: 'Filter the activities' });
  await filters.getByRole('combobox', { name: 'Member' }).fill('Mia');
  await page.getByRole('option', { name: 'Mia Filtered' }).click();
  await expect(page.getByText('Activities 1 to 21 of 35')).toBeVisible();
  await filters.getByRole('combobox', { name: 'Channel' }).fill('Ops');
  await page.getByRole('option', { name: 'Ops Room' }).click();
  await expect(page.getByText('Activities 1 to 21 of 30')).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`member=${mia.id}.*channel=${ops.id}|channel=${ops.id}.*member=${mia.id}`));

  // The filtered log pages like the whole one.
  await page
    .getByRole('navigation', { name: 'Activities pages' })
    .getByRole('button', { name: 'Go to last page' })
    .click();
  await expect(entries(page)).toHaveCount(9);
  await expect(entries(page).first()).toHaveText(/^Mia Filtered joined the channel Ops Room/);

  // Type and days: joins from 1 to 5 March, both included.
  await filters.getByRole('combobox', { name: 'Type' }).click();
  await page.getByRole('option', { name: 'Channel joined' }).click();
  await filters.getByLabel('From').fill('2025-03-01');
  await filters.getByLabel('To').fill('2025-03-05');
  await expect(page.getByText('Activities 1 to 5 of 5')).toBeVisible();
  await expect(entries(page)).toHaveCount(5);

  // The filtered log as a spreadsheet, in both formats.
  const exportButton = page.getByRole('button', { name: 'Export' });
  const [csv] = await Promise.all([
    page.waitForEvent('download'),
    exportButton.click().then(() => page.getByRole('menuitem', { name: 'CSV file (.csv)' }).click()),
  ]);
  expect(csv.suggestedFilename()).toBe('Activities.csv');
  const text = (await readFile((await csv.path())!, 'utf8')).replace(/^\uFEFF/, '');
  const lines = text.trim().split(/\r\n/);
  expect(lines[0]).toBe('Date,Type,Member,Channel,Activity');
  expect(lines).toHaveLength(6);
  // Noon here, in the browser's time zone.
  expect(lines[1]).toMatch(
    /^2025-03-05 \d{2}:00,Channel joined,Mia Filtered,Ops Room,Mia Filtered joined the channel Ops Room$/,
  );
  const [xlsx] = await Promise.all([
    page.waitForEvent('download'),
    exportButton.click().then(() => page.getByRole('menuitem', { name: 'Excel workbook (.xlsx)' }).click()),
  ]);
  expect(xlsx.suggestedFilename()).toBe('Activities.xlsx');
  expect((await readFile((await xlsx.path())!)).subarray(0, 2).toString()).toBe('PK');

  await filters.getByRole('button', { name: 'Clear the filters' }).click();
  await expect(page.getByText('Activities 1 to 21 of 40')).toBeVisible();
});
