/**
 * The room's map and channel users table: a member's phone reports positions over its own socket
 * (onLocationChanged), and the administrator's room shows and moves its marker. Map tiles come from the
 * internet and do not load here; the map works without them.
 */
import { io, type Socket } from 'socket.io-client';
import { chromiumLaunchOptions } from './chromium.ts';
import { openServerDatabase } from './database.ts';
import { expect as baseExpect, type TalkgroupServer, test } from './fixtures.ts';
import { fakeMicrophoneArgs } from './room-audio.ts';
import { openAs, roomUrl, TONE_WAV } from './room-support.ts';

// A busy machine may be slow: wait on states, with deadlines to match.
const expect = baseExpect.configure({ timeout: 60_000 });

test.use({ launchOptions: chromiumLaunchOptions(fakeMicrophoneArgs(TONE_WAV)) });
test.describe.configure({ timeout: 180_000 });

/** A member's device: a socket with the member's token. */
async function phoneOf(server: TalkgroupServer, token: string): Promise<Socket> {
  const socket = io(server.baseURL, { query: { token }, transports: ['websocket'], forceNew: true });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  return socket;
}

test('a member reporting positions appears on the map, moves live, and a row click centres on it', async ({
  browser,
  server,
  admin,
  seed,
}) => {
  const channel = await seed.channel();
  const mia = await seed.member({ firstName: 'Mia', lastName: 'Walker', pseudo: 'mimosa' });
  const noa = await seed.member({ firstName: 'Noa', lastName: 'Nowhere', pseudo: 'noa' });
  await seed.addToChannel(channel.id, [mia.id, noa.id]);

  const phone = await phoneOf(server, mia.token);
  const a = await openAs(browser, server.baseURL, admin);
  try {
    // Mia is connected but not in this channel: a marker of the other colour.
    phone.emit('onLocationChanged', { lat: 48.8584, lng: 2.2945 });
    await a.page.goto(roomUrl(channel.rtcSession));
    const marker = a.page.getByRole('button', { name: /^Mia Walker, / });
    await expect(marker).toHaveAccessibleName('Mia Walker, Not in this channel');
    await expect(marker).toHaveText('MIA');
    await expect(marker).toHaveAttribute('data-in-channel', 'false');

    // Mia's phone joins the channel's room: the marker turns green.
    phone.emit('join_room', { room: channel.rtcSession, name: 'Mia' });
    await expect(marker).toHaveAttribute('data-in-channel', 'true');
    await expect(marker).toHaveAccessibleName('Mia Walker, In this channel');

    // A click opens the last activity, the longitude and the latitude.
    await marker.click();
    const popup = a.page.getByTestId('marker-popup');
    await expect(popup).toContainText('Mia Walker');
    await expect(popup).toContainText('Longitude : 2.2945');
    await expect(popup).toContainText('Latitude : 48.8584');
    // The last activity is Mia joining this channel.
    await expect(popup).toContainText(channel.name);

    // A new position moves the marker and the open info window follows.
    const before = await marker.boundingBox({ timeout: 60_000 });
    phone.emit('onLocationChanged', { lat: 48.8606, lng: 2.3376 });
    await expect(popup).toContainText('Longitude : 2.3376');
    await expect(popup).toContainText('Latitude : 48.8606');
    await expect.poll(async () => (await marker.boundingBox({ timeout: 60_000 }))?.x).not.toBe(before?.x);

    // Closing the popup, then a row click centres the map on Mia at the deepest zoom the tiles allow.
    await a.page.keyboard.press('Escape');
    const table = a.page.getByRole('table');
    await expect(table.getByRole('row')).toHaveCount(3);
    await table.getByRole('row', { name: /Mia Walker/ }).click();
    await expect(popup).toContainText('Mia Walker');
    await expect(a.page.getByRole('button', { name: 'Zoom in' })).toHaveClass(/leaflet-disabled/);
    const map = await a.page
      .getByRole('region', { name: "Map of the channel's members" })
      .boundingBox({ timeout: 60_000 });
    const pin = await marker.boundingBox({ timeout: 60_000 });
    if (!map || !pin) throw new Error('map or marker not laid out');
    expect(Math.abs(pin.x + pin.width / 2 - (map.x + map.width / 2))).toBeLessThan(4);

    // The table filters and sorts by name.
    await a.page.getByRole('searchbox', { name: 'Filter the channel users' }).fill('nowh');
    await expect(table.getByRole('row')).toHaveCount(2);
    await a.page.getByRole('searchbox', { name: 'Filter the channel users' }).fill('');
    await table.getByRole('button', { name: /Name/ }).first().click();
    await expect(table.getByRole('row').nth(1)).toContainText('Noa Nowhere');

    // Noa has never sent a position: 'Unknown location'.
    await table.getByRole('row', { name: /Noa Nowhere/ }).click();
    const unknown = a.page.getByRole('dialog', { name: 'Unknown location' });
    await expect(unknown).toContainText('The current position of Noa Nowhere is not known.');
    await unknown.getByRole('button', { name: 'OK' }).click();
    await expect(unknown).toBeHidden();

    // Mia's phone goes: the marker keeps its place in the other colour.
    phone.disconnect();
    await expect(marker).toHaveAttribute('data-in-channel', 'false');
    await expect(marker).toHaveAttribute('data-fresh', 'true');

    // A position older than POSITION_STALE_SECONDS (5 minutes by default) is shown as stale, with its age.
    const database = openServerDatabase(server);
    try {
      database.agePositions(mia.id, new Date(Date.now() - 20 * 60 * 1000));
    } finally {
      database.close();
    }
    await a.page.reload();
    await expect(marker).toHaveAttribute('data-fresh', 'false');
    await expect(marker).toHaveAccessibleDescription(/^Old position \(20 minutes ago\)$/);
    await marker.click();
    await expect(a.page.getByTestId('marker-popup')).toContainText('Old position (20 minutes ago)');
  } finally {
    phone.disconnect();
    await a.close();
  }
});

test('the map asks for Ctrl + wheel to zoom instead of taking the page scroll', async ({
  browser,
  server,
  admin,
  seed,
}) => {
  const channel = await seed.channel();
  const a = await openAs(browser, server.baseURL, admin);
  try {
    await a.page.goto(roomUrl(channel.rtcSession));
    const map = a.page.getByRole('region', { name: "Map of the channel's members" });
    await map.scrollIntoViewIfNeeded();
    await map.hover();
    await a.page.mouse.wheel(0, 200);
    await expect(a.page.getByText('Use Ctrl + scroll to zoom the map')).toBeVisible();
    await expect(a.page.getByText('Use Ctrl + scroll to zoom the map')).toBeHidden({ timeout: 60_000 });
  } finally {
    await a.close();
  }
});

test('on a narrow screen a button scrolls down to the map', async ({ browser, server, admin, seed }) => {
  const channel = await seed.channel();
  const a = await openAs(browser, server.baseURL, admin, { viewport: { width: 390, height: 844 } });
  try {
    await a.page.goto(roomUrl(channel.rtcSession));
    const map = a.page.getByRole('region', { name: "Map of the channel's members" });
    await expect(map).not.toBeInViewport();
    await a.page.getByRole('button', { name: 'Map', exact: true }).click();
    await expect(map).toBeInViewport();
    await expect(a.page.getByRole('button', { name: 'Map', exact: true })).toBeHidden();
  } finally {
    await a.close();
  }
});
