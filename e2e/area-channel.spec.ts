/**
 * Area channels (issue 59), as a page shows them: the administrator gives a new channel a zone in the channel
 * dialog ("Area channel"); a member with map access shares its position from /talk inside the zone, and its
 * other device's /talk lists the channel (scanned) without a reload, and the channel's tile on a dispatcher's
 * console says he is in the area. The rules themselves (the delays, hand-added members) are the server tests'
 * (area-channels.test.ts).
 */
import { expect, test, unique } from './fixtures.ts';
import { openAs } from './room-support.ts';
import { PHONE, phoneLaunchOptions } from './talk-support.ts';

test.use({ launchOptions: phoneLaunchOptions });
test.describe.configure({ timeout: 120_000 });

const ZONE_CENTRE = { lat: 45.7578, lng: 4.832 };

test('a channel given a zone in its dialog takes in a member who shares a position there; its /talk lists it at once', async ({
  browser,
  server,
  admin,
  seed,
}) => {
  const zoneName = unique('Bellecour');
  const fence = await server.call(
    '/user/api/createGeofence',
    { name: zoneName, shape: { type: 'circle', ...ZONE_CENTRE, radiusM: 250 } },
    admin.token,
  );
  expect(fence.status).toBe(200);
  const home = await seed.channel(unique('Home'));
  const max = await seed.member({ firstName: 'Max', lastName: unique('Area'), mapRight: true });
  await seed.addToChannel(home.id, [max.id]);
  const areaName = unique('Square');
  const dana = await seed.member({ firstName: 'Dana', lastName: unique('Desk'), role: 'dispatcher' });

  const desk = await openAs(browser, server.baseURL, admin);
  const phone = await openAs(browser, server.baseURL, max, { viewport: PHONE });
  const laptop = await openAs(browser, server.baseURL, max);
  const dispatch = await openAs(browser, server.baseURL, dana);
  try {
    await desk.page.goto('/channelsList');
    await desk.page.getByRole('main').getByRole('button', { name: 'Add Channel' }).click();
    const dialog = desk.page.getByRole('dialog', { name: 'Add Channel' });
    await dialog.getByLabel(/^Channel Name/).fill(areaName);
    await dialog.getByRole('combobox', { name: 'Area channel' }).click();
    await desk.page.getByRole('option', { name: zoneName }).click();
    await expect(dialog.getByRole('combobox', { name: 'Area channel' })).toHaveText(zoneName);
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expect(desk.page.locator('.MuiSnackbar-root').getByRole('alert')).toContainText(
      'Channel created successfully',
    );
    const listed = (await server.call('/user/api/getAllChannels', {}, admin.token)).body.res.find(
      (channel: { name: string }) => channel.name === areaName,
    );
    expect(listed.areaGeofenceId).toBe(fence.body.res.id);
    // Dana dispatches the channel (added by hand) and monitors it on her console.
    await server.call('/user/api/addUserToChannel', { userId: dana.id, channelId: listed.id }, admin.token);
    await server.call(
      '/user/api/setMonitorList',
      { channels: [{ channelId: listed.id }], unselectedVolume: 40 },
      dana.token,
    );
    await dispatch.page.goto('/dispatch');
    await expect(dispatch.page.getByRole('region', { name: `Channel ${areaName}` })).toBeVisible({ timeout: 30_000 });

    // Max's laptop shows his channels: not the area's yet.
    await laptop.page.goto('/talk');
    await expect(laptop.page.getByRole('link', { name: new RegExp(home.name) })).toBeVisible();
    await expect(laptop.page.getByRole('link', { name: new RegExp(areaName) })).toHaveCount(0);

    // His phone, in the zone, shares its position.
    await phone.page.context().grantPermissions(['geolocation']);
    await phone.page.context().setGeolocation({ latitude: ZONE_CENTRE.lat, longitude: ZONE_CENTRE.lng, accuracy: 10 });
    await phone.page.goto(`/talk/${home.id}`);
    await phone.page.getByRole('switch', { name: 'Share my position' }).check();

    // Listed (said to be an area channel) and scanned on his other device, without a reload.
    await expect(laptop.page.getByRole('link', { name: new RegExp(`${areaName} · area channel`) })).toBeVisible();
    await expect(laptop.page.getByRole('switch', { name: `Scan ${areaName}` })).toBeChecked();
    // Dana's tile says who is in the area now.
    await expect(dispatch.page.getByRole('list', { name: `In the area of ${areaName}` })).toContainText(
      `Max ${max.lastName}`,
    );

    // The administrator's dialog shows the zone the channel follows.
    await desk.page.getByRole('searchbox', { name: 'Search channels' }).fill(areaName);
    await desk.page.getByRole('button', { name: `Edit ${areaName}` }).click();
    const edit = desk.page.getByRole('dialog', { name: 'Update Channel' });
    await expect(edit.getByRole('combobox', { name: 'Area channel' })).toHaveText(zoneName);
  } finally {
    await desk.close();
    await phone.close();
    await laptop.close();
    await dispatch.close();
  }
});
