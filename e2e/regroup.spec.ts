/**
 * Dynamic regrouping and the remote change of a member's channel (issue 59, items 3 and 4), in Chromium: the
 * desk regroups two members from the dispatch console, both phones' /talk switch to the regroup's channel with
 * a notice, and "End" brings each back to the channel it was on; the desk then switches one member's channel
 * from a tile's member list, and the phone says who switched it.
 * Issue 70: the regroup's tile says it is temporary and when it ends; "End" asks first; its end is named
 * ("Regroup … ended") on every page, none speaks of rights, and no page is refused a request for its channel.
 */

import { monitor, rowAction } from './dispatch-support.ts';
import { test } from './fixtures.ts';
import { openAs } from './room-support.ts';
import { expect, PHONE } from './talk-support.ts';

test.describe.configure({ timeout: 240_000 });

test('a regroup switches two members’ /talk to its channel and brings them back at its end; a remote select shows who did it', async ({
  browser,
  server,
  seed,
}) => {
  const quai = await seed.channel();
  const dock = await seed.channel();
  const desk = await seed.member({ firstName: 'Dana', lastName: 'Desk', role: 'dispatcher' });
  const ali = await seed.member({ firstName: 'Ali', lastName: 'Quai' });
  const bea = await seed.member({ firstName: 'Bea', lastName: 'Dock' });
  await seed.addToChannel(quai.id, [desk.id, ali.id, bea.id]);
  await seed.addToChannel(dock.id, [desk.id, ali.id, bea.id]);

  const d = await openAs(browser, server.baseURL, desk);
  const a = await openAs(browser, server.baseURL, ali, { viewport: PHONE });
  const b = await openAs(browser, server.baseURL, bea, { viewport: PHONE });
  // Every refused request of the three pages, with what it asked (issue 70: the ended regroup's channel was
  // asked for, and refused).
  const refused: Array<{ url: string; body: string }> = [];
  for (const { page } of [d, a, b])
    page.on('response', (response) => {
      if (response.status() === 403) refused.push({ url: response.url(), body: response.request().postData() ?? '' });
    });
  try {
    await a.page.goto(`/talk/${quai.id}`);
    await expect(a.page.getByRole('heading', { level: 1, name: quai.name })).toBeVisible();
    await b.page.goto(`/talk/${dock.id}`);
    await expect(b.page.getByRole('heading', { level: 1, name: dock.name })).toBeVisible();

    await d.page.goto('/dispatch');
    await expect(d.page.getByRole('heading', { level: 1, name: 'Dispatch console' })).toBeVisible();
    await monitor(d.page, [quai.name, dock.name]);

    // Regroup: name it, tick the two members, create.
    const regroups = d.page.getByRole('region', { name: 'Regroups' });
    await regroups.getByRole('button', { name: 'Regroup' }).click();
    const dialog = d.page.getByRole('dialog', { name: 'Regroup' });
    const name = `Fire ${Date.now().toString(36)}`;
    await dialog.getByRole('textbox', { name: 'Group name' }).fill(name);
    await dialog.getByRole('checkbox', { name: 'Ali Quai' }).check();
    await dialog.getByRole('checkbox', { name: 'Bea Dock' }).check();
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expect(dialog).toBeHidden();
    await expect(regroups.getByRole('button', { name: `End the regroup ${name}` })).toBeVisible();
    // The desk monitors the new group at once, selected, to talk to its members.
    await expect(d.page.getByRole('region', { name: `Channel ${name}` })).toBeVisible();

    const { body } = await server.call('/user/api/getRegroups', {}, desk.token);
    const channelId = body.res.find((regroup: { name: string }) => regroup.name === name).channelId;
    for (const phone of [a.page, b.page]) {
      await expect(phone).toHaveURL(new RegExp(`/talk/${channelId}$`));
      await expect(phone.getByRole('heading', { level: 1, name })).toBeVisible();
      await expect(
        phone.getByRole('status').filter({ hasText: `Regrouped into "${name}" by Dana Desk` }),
      ).toBeVisible();
    }

    // Its tile says it is temporary, and when it ends (in 120 minutes, the default).
    await expect(
      d.page.getByRole('region', { name: `Channel ${name}` }).getByText(/^Temporary regroup · ends at \d\d:\d\d$/),
    ).toBeVisible();

    // End asks first: kept when cancelled.
    await regroups.getByRole('button', { name: `End the regroup ${name}` }).click();
    const confirm = d.page.getByRole('alertdialog', { name: `End the regroup ${name}?` });
    await expect(confirm.getByText('Its 2 members go back to their channels')).toBeVisible();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(confirm).toBeHidden();
    await expect(d.page.getByRole('region', { name: `Channel ${name}` })).toBeVisible();

    // End: each phone goes back to the channel it was on.
    await regroups.getByRole('button', { name: `End the regroup ${name}` }).click();
    await confirm.getByRole('button', { name: 'End', exact: true }).click();
    await expect(regroups.getByText('No regroup now.')).toBeVisible();
    await expect(d.page.getByRole('region', { name: `Channel ${name}` })).toBeHidden();
    await expect(a.page).toHaveURL(new RegExp(`/talk/${quai.id}$`));
    await expect(a.page.getByRole('heading', { level: 1, name: quai.name })).toBeVisible();
    await expect(
      a.page.getByRole('status').filter({ hasText: `Regroup ${name} ended: back to ${quai.name}.` }),
    ).toBeVisible();
    await expect(b.page).toHaveURL(new RegExp(`/talk/${dock.id}$`));
    await expect(b.page.getByRole('heading', { level: 1, name: dock.name })).toBeVisible();
    // The desk, who made it, reads that it ended; nobody reads that an administrator took a channel away.
    await expect(d.page.getByText(`Regroup ${name} ended`, { exact: true })).toBeVisible();
    for (const { page } of [d, a, b]) await expect(page.getByText('Your rights changed')).toHaveCount(0);
    // The pages settle (their lists read again) without asking for the gone channel.
    await expect(a.page.getByRole('heading', { level: 1, name: quai.name })).toBeVisible();

    // A remote select from the tile of the dock: Ali's phone switches to it and says who did it.
    const dockTile = d.page.getByRole('region', { name: `Channel ${dock.name}` });
    await (await rowAction(dockTile, 'Ali Quai', `Switch channel: switch Ali Quai to ${dock.name}`)).click();
    await expect(a.page).toHaveURL(new RegExp(`/talk/${dock.id}$`));
    await expect(a.page.getByRole('heading', { level: 1, name: dock.name })).toBeVisible();
    await expect(
      a.page.getByRole('status').filter({ hasText: `Dana Desk switched you to ${dock.name}.` }),
    ).toBeVisible();

    // Chosen while Bea's /talk is closed: she lands there when she opens it, told who chose it.
    await b.page.goto('about:blank');
    const chosen = await server.call('/user/api/selectChannelFor', { userId: bea.id, channelId: quai.id }, desk.token);
    expect(chosen.status).toBe(200);
    await b.page.goto('/talk');
    await expect(b.page).toHaveURL(new RegExp(`/talk/${quai.id}$`));
    await expect(b.page.getByRole('heading', { level: 1, name: quai.name })).toBeVisible();
    await expect(
      b.page.getByRole('status').filter({ hasText: `Dana Desk switched you to ${quai.name}.` }),
    ).toBeVisible();

    // Since the regroup ended, through the switches and the pages' refreshes: no request about its channel was
    // refused (the pages knew it was gone).
    const aboutRegroup = refused.filter(
      ({ url, body }) => url.includes(`/${channelId}`) || new RegExp(`"channelIds?":\\[?${channelId}\\b`).test(body),
    );
    expect(aboutRegroup).toEqual([]);
  } finally {
    for (const page of [d, a, b]) await page.close();
  }
});
