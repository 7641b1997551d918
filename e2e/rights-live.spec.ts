/**
 * Rights rechecked live (issue 35): an administrator takes a member's map access, then its channel, while the
 * member's /talk page is open; the page follows at once without a reload (the Map tab goes, then the channel
 * page says it is not one of the member's channels), and a notice says what changed.
 */
import { chromiumLaunchOptions } from './chromium.ts';
import { expect as baseExpect, test } from './fixtures.ts';
import { fakeMicrophoneArgs } from './room-audio.ts';
import { openAs, TONE_WAV } from './room-support.ts';

const expect = baseExpect.configure({ timeout: 60_000 });
const PHONE = { width: 390, height: 844 };

test.use({ launchOptions: chromiumLaunchOptions(fakeMicrophoneArgs(TONE_WAV)) });
test.describe.configure({ timeout: 150_000 });

test("a member's open page follows when its map access and then its channel are taken away", async ({
  browser,
  server,
  admin,
  seed,
}) => {
  const channel = await seed.channel();
  const max = await seed.member({ firstName: 'Max', lastName: 'Scout', mapRight: true });
  await seed.addToChannel(channel.id, [max.id]);
  const connected = async () => {
    const users = await server.call('/user/api/getAllUsers', {}, admin.token);
    const found = (users.body.res as Array<{ id: number; user_sockets: unknown[] }>).find((u) => u.id === max.id);
    return found?.user_sockets.length ?? 0;
  };

  const phone = await openAs(browser, server.baseURL, max, { viewport: PHONE });
  try {
    const page = phone.page;
    await page.goto(`/talk/${channel.id}`);
    // The first page load on a busy machine may take long.
    await expect(page.getByRole('heading', { level: 1, name: channel.name })).toBeVisible({ timeout: 90_000 });
    await expect(page.getByRole('tab', { name: 'Map' })).toBeVisible();
    await expect.poll(connected, { timeout: 60_000 }).toBeGreaterThan(0);

    const edited = await server.call(
      '/user/api/updateUserData',
      { id: max.id, firstName: 'Max', lastName: 'Scout', mapRight: false },
      admin.token,
    );
    expect(edited.status).toBe(200);
    await expect(page.getByRole('alert').filter({ hasText: 'Your rights changed' })).toContainText(
      "You may no longer see your channels' map.",
    );
    await expect(page.getByRole('tab', { name: 'Map' })).toHaveCount(0);

    const removed = await server.call(
      '/user/api/deleteUserFromChannel',
      { userId: max.id, channelId: channel.id },
      admin.token,
    );
    expect(removed.status).toBe(200);
    await expect(page.getByRole('alert').filter({ hasText: 'Your rights changed' })).toContainText(
      'An administrator removed you from a channel: you left it.',
    );
    await expect(page.getByText('This channel does not exist, or you are not one of its members.')).toBeVisible();
  } finally {
    await phone.close();
  }
});
