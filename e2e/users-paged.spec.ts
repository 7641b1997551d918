/**
 * An organisation past 5,000 users (issue 18): the console's user tables page, sort and search on the server
 * (getUsersPage, getUserIds) and never load the whole list (getAllUsers). One server of its own with 5,002
 * users, written straight into its database: the worker's shared server stays small for the other tests.
 */
import type { Page } from '@playwright/test';
import { openServerDatabase } from './database.ts';
import { type Account, createAdmin, expect, startServer, type TalkgroupServer, test, useSession } from './fixtures.ts';

const MEMBERS = 5001;
// One server of 5,002 users for the file's tests, in one worker, one after the other: under the config's fullyParallel, each worker
// that ran one of them would start its own (beforeAll runs once per worker).
test.describe.configure({ mode: 'default' });
let big: TalkgroupServer;
let admin: Account;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  big = await startServer();
  admin = await createAdmin(big, { firstName: 'Ada', lastName: 'Lovelace' });
  const database = openServerDatabase(big);
  const start = Date.now() - MEMBERS * 60_000;
  database.insertMembers(
    Array.from({ length: MEMBERS }, (_, i) =>
      i === 4242
        ? {
            firstName: 'Zélie',
            lastName: 'Paged',
            identifier: 'zelie.paged@example.org',
            pseudo: 'zp',
            createdAt: new Date(start + i * 60_000),
          }
        : {
            firstName: `First${String(i).padStart(4, '0')}`,
            lastName: `Member${i % 97}`,
            identifier: `member${i}@example.org`,
            pseudo: `m${i}`,
            createdAt: new Date(start + i * 60_000),
          },
    ),
    admin.id,
  );
  database.close();
});

test.afterAll(async () => {
  await big?.stop();
});

/** Paths of the calls the page makes. */
function watchCalls(page: Page): string[] {
  const calls: string[] = [];
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (pathname.startsWith('/user/api/')) calls.push(pathname);
  });
  return calls;
}

const rows = (page: Page) => page.getByRole('main').locator('tbody tr');

test('the users list pages, sorts and searches on the server, and never loads the whole list', async ({ page }) => {
  const calls = watchCalls(page);
  await useSession(page, admin);
  await page.goto(`${big.baseURL}/usersList`);
  await expect(rows(page).first()).toBeVisible({ timeout: 60_000 });
  const main = page.getByRole('main');
  // Newest first, five to a page, counted on the server: 5,001 members and the administrator.
  await expect(main.getByText('1-5 of 5,002')).toBeVisible();
  await expect(rows(page).first()).toContainText('Ada');

  // Typed a key at a time: each keystroke asks the server, and the last one's answer is what stays.
  await main.getByRole('searchbox', { name: 'Search users' }).pressSequentially('zelie');
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page).first()).toContainText('Zélie');
  await expect(rows(page).first()).toContainText('zelie.paged@example.org');
  await expect(main.getByText('1-1 of 1')).toBeVisible();

  await main.getByRole('button', { name: 'Clear the search' }).click();
  await expect(main.getByText('1-5 of 5,002')).toBeVisible();
  await main.getByRole('columnheader', { name: 'Firstname' }).getByText('Firstname').click();
  await expect(rows(page).first()).toContainText('Ada');
  await expect(rows(page).nth(1)).toContainText('First0000');
  await main.getByRole('columnheader', { name: 'Firstname' }).getByText('Firstname').click();
  await expect(rows(page).first()).toContainText('Zélie');
  await expect(rows(page).nth(1)).toContainText('First5000');
  await main.getByRole('button', { name: 'Go to next page' }).click();
  await expect(main.getByText('6-10 of 5,002')).toBeVisible();
  await expect(rows(page).first()).toContainText('First4996');

  // Select all: every user the search keeps, not only the page's.
  await main.getByRole('searchbox', { name: 'Search users' }).fill('member1');
  // A new search starts from its first page.
  await expect(main.getByText(/^1-5 of /)).toBeVisible();
  await expect(rows(page).first()).toContainText(/member1/i);
  const count = await page.evaluate(async (token) => {
    const answer = await fetch('/user/api/getUserIds', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-access-token': token },
      body: JSON.stringify({ search: 'member1' }),
    });
    return ((await answer.json()) as { res: number[] }).res.length;
  }, admin.token);
  expect(count).toBeGreaterThan(5);
  const selectAll = main.getByRole('checkbox', { name: 'Select all filtered rows' });
  // The ids come from the server: the box follows once they are there.
  await selectAll.click();
  await expect(page.getByText(`${count} users selected`)).toBeVisible();
  await expect(selectAll).toBeChecked();
  await selectAll.click();
  await expect(page.getByText(/users? selected/)).toBeHidden();
  await expect(selectAll).not.toBeChecked();

  expect(calls).toContain('/user/api/getUsersPage');
  expect(calls).not.toContain('/user/api/getAllUsers');
});

test("the channel dialog's user table searches the server: a member found there joins the new channel", async ({
  page,
}) => {
  const calls = watchCalls(page);
  await useSession(page, admin);
  await page.goto(`${big.baseURL}/channelsList`);
  await page.getByRole('main').getByRole('button', { name: 'Add Channel' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Channel' });
  const name = `Paged ${Date.now()}`;
  await dialog.getByRole('textbox', { name: /Channel Name/ }).fill(name);
  await dialog.getByRole('searchbox').fill('Paged');
  await expect(dialog.locator('tbody tr')).toHaveCount(1);
  await dialog.getByRole('checkbox', { name: 'Select Zélie Paged' }).check();
  await expect(dialog.getByText('1 user selected')).toBeVisible();
  await dialog.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(dialog).toBeHidden();

  const channels = await big.call('/user/api/getAllChannels', {}, admin.token);
  const created = (channels.body.res as Array<{ id: number; name: string }>).find((c) => c.name === name);
  const members = await big.call('/user/api/getUsersInChannel', { channelId: created?.id }, admin.token);
  expect((members.body.res as Array<{ identifier: string }>).map((u) => u.identifier)).toEqual([
    'zelie.paged@example.org',
  ]);
  expect(calls).not.toContain('/user/api/getAllUsers');
});

test("the activity log's member filter finds members on the server", async ({ page }) => {
  const calls = watchCalls(page);
  await useSession(page, admin);
  await page.goto(`${big.baseURL}/activities`);
  const member = page.getByRole('combobox', { name: 'Member' });
  await member.fill('zeli');
  await page.getByRole('option', { name: 'Zélie Paged' }).click();
  await expect(member).toHaveValue('Zélie Paged');
  expect(calls).not.toContain('/user/api/getAllUsers');
});
