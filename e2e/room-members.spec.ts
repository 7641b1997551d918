/** The sidebar's 'Users in {channel}' section of the room: statuses that follow the sockets, and the
 * Search User dialog behind its icon. */
import { io } from 'socket.io-client';
import { chromiumLaunchOptions } from './chromium.ts';
import { expect as baseExpect, test } from './fixtures.ts';
import { fakeMicrophoneArgs } from './room-audio.ts';
import { openAs, roomUrl, TONE_WAV } from './room-support.ts';

// A busy machine may be slow: wait on states, with deadlines to match.
const expect = baseExpect.configure({ timeout: 60_000 });

test.use({ launchOptions: chromiumLaunchOptions(fakeMicrophoneArgs(TONE_WAV)) });
test.describe.configure({ timeout: 180_000 });

test("the sidebar lists the channel's users with their status, and its icon adds a user", async ({
  browser,
  server,
  admin,
  seed,
}) => {
  const channel = await seed.channel();
  const mia = await seed.member({ firstName: 'Mia', lastName: 'Sidebar' });
  await seed.member({ firstName: 'Noa', lastName: 'Newcomer' });
  await seed.addToChannel(channel.id, [mia.id]);

  const a = await openAs(browser, server.baseURL, admin, { viewport: { width: 1600, height: 900 } });
  const phone = io(server.baseURL, {
    query: { token: mia.token },
    transports: ['websocket'],
    forceNew: true,
    autoConnect: false,
  });
  try {
    await a.page.goto(roomUrl(channel.rtcSession));
    const section = a.page.getByRole('region', { name: `Users in ${channel.name}` });
    await expect(section.getByRole('listitem').filter({ hasText: 'Mia Sidebar' })).toContainText('Offline');

    // Mia's phone connects, then joins this channel's room: the status follows.
    await new Promise<void>((resolve) => phone.once('connect', () => resolve()).connect());
    await expect(section.getByRole('listitem').filter({ hasText: 'Mia Sidebar' })).toContainText('Connected elsewhere');
    phone.emit('join_room', { room: channel.rtcSession, name: 'Mia' });
    await expect(section.getByRole('listitem').filter({ hasText: 'Mia Sidebar' })).toContainText('In this channel');

    // The section folds.
    await section.getByRole('button', { name: `Users in ${channel.name}` }).click();
    await expect(section.getByRole('listitem').filter({ hasText: 'Mia Sidebar' })).toBeHidden();
    await section.getByRole('button', { name: `Users in ${channel.name}` }).click();

    // The icon opens the Search User dialog; adding Noa shows Noa in the section.
    await section.getByRole('button', { name: 'Add or remove users' }).click();
    const dialog = a.page.getByRole('dialog', { name: `Users of the channel ${channel.name}` });
    await dialog.getByRole('button', { name: 'Add Noa Newcomer to the channel' }).click();
    await a.page.getByRole('alertdialog').getByRole('button', { name: 'Add' }).click();
    await expect(dialog.getByRole('button', { name: 'Remove Noa Newcomer from the channel' })).toBeVisible();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(section.getByRole('listitem').filter({ hasText: 'Noa Newcomer' })).toContainText('Offline');
    await expect(a.page.getByRole('table').getByRole('row', { name: /Noa Newcomer/ })).toBeVisible();
  } finally {
    phone.disconnect();
    await a.close();
  }
});

test('a channel renamed while its room is open: the room follows the new name', async ({
  browser,
  server,
  admin,
  seed,
}) => {
  const channel = await seed.channel();
  const a = await openAs(browser, server.baseURL, admin);
  try {
    await a.page.goto(roomUrl(channel.rtcSession));
    await expect(a.page.getByRole('heading', { level: 1, name: channel.name })).toBeVisible();
    const renamed = `${channel.name} bis`;
    const answer = await server.call(
      '/user/api/updateChannel',
      { channelId: channel.id, channelName: renamed, userId: admin.id },
      admin.token,
    );
    expect(answer.status).toBe(200);
    await expect(a.page.getByRole('heading', { level: 1, name: renamed })).toBeVisible();
    await expect(a.page).toHaveURL(new RegExp(`/groupCallView/${encodeURIComponent(renamed.replace(/\s+/g, ''))}$`));
    await expect(a.page.getByRole('button', { name: 'Push to talk' })).toBeEnabled();
  } finally {
    await a.close();
  }
});
