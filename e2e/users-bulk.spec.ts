/**
 * The users list's bulk actions and its remembered paging (issue 17), in English. Each test makes its own users
 * and channels (unique names): the worker's server is shared.
 */
import { expect, test, unique } from './fixtures.ts';
import { openUsers } from './users-support.ts';

test.describe('bulk actions and remembered paging (English)', () => {
  test.use({ language: 'en' });

  test('selects every filtered row at once, adds them to a channel, deletes them with one confirmation, and keeps rows per page', async ({
    page,
    admin,
    server,
    seed,
  }) => {
    const tag = unique('Bulk').split(' ')[1];
    const channel = await seed.channel(unique('Bulk'));
    for (const first of ['Ann', 'Ben', 'Cat', 'Dan', 'Eve', 'Fay'])
      await seed.member({ firstName: first, lastName: `Bulk${tag}` });
    await openUsers(page, admin);
    await page.getByRole('searchbox').fill(`Bulk${tag}`);
    const rows = page.getByRole('main').locator('tbody tr');
    await expect(rows).toHaveCount(5);
    // Five rows a page before the filter applies too: the pager says when it has (a loaded machine checked the
    // box before, and took all 26 users).
    await expect(page.getByText('1-5 of 6')).toBeVisible();

    // The header box takes the six filtered rows, the one on the next page included.
    await page.getByRole('checkbox', { name: 'Select all filtered rows' }).check();
    const bulk = page.getByRole('region', { name: 'Actions on the selection' });
    await expect(bulk.getByRole('status')).toHaveText('6 users selected');
    await expect(page.getByRole('checkbox', { name: `Select Fay Bulk${tag}` })).toBeChecked();

    await bulk.getByRole('button', { name: 'Add to a channel' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add 6 users to a channel' });
    await dialog.getByRole('combobox', { name: 'Channel' }).click();
    await page.getByRole('option', { name: channel.name }).click();
    await dialog.getByRole('button', { name: 'Add to a channel' }).click();
    await expect(page.getByText(`6 users added to ${channel.name}`)).toBeVisible();
    const members = await server.call('/user/api/getUsersInChannel', { channelId: channel.id }, admin.token);
    expect(members.body.res.filter((u: { lastName: string }) => u.lastName === `Bulk${tag}`)).toHaveLength(6);

    // Rows per page: 25 and 50 are offered, and the choice is kept.
    await page.getByRole('combobox', { name: 'Rows per page' }).click();
    await expect(page.getByRole('option')).toHaveText(['5', '10', '25', '50']);
    await page.getByRole('option', { name: '50' }).click();
    await page.reload();
    await expect(page.getByRole('combobox', { name: 'Rows per page' })).toHaveText('50');

    await page.getByRole('searchbox').fill(`Bulk${tag}`);
    // The filter applied (50 rows a page: all six shown) before the header box takes what is filtered.
    await expect(rows).toHaveCount(6);
    await page.getByRole('checkbox', { name: 'Select all filtered rows' }).check();
    await expect(bulk.getByRole('status')).toHaveText('6 users selected');
    await page
      .getByRole('region', { name: 'Actions on the selection' })
      .getByRole('button', { name: 'Delete the 6' })
      .click();
    const confirm = page.getByRole('alertdialog');
    await expect(confirm).toContainText('Do you really want to delete 6 users?');
    await confirm.getByRole('button', { name: 'Delete the 6' }).click();
    await expect(page.getByText('6 users deleted')).toBeVisible();
    await expect(page.getByText(`No user matches “Bulk${tag}”`)).toBeVisible();
    const left = (await server.call('/user/api/getAllUsers', {}, admin.token)).body.res;
    expect(left.filter((u: { lastName: string }) => u.lastName === `Bulk${tag}`)).toHaveLength(0);
  });
});
