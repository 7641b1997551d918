/**
 * A channel is a radio net (issue 14), in real browsers: while one member talks another's press is refused
 * with the talker's name and its microphone stays off; an administrator breaks in and the member's
 * microphone goes off.
 */
import { chromiumLaunchOptions } from './chromium.ts';
import { expect as baseExpect, test } from './fixtures.ts';
import { fakeMicrophoneArgs } from './room-audio.ts';
import {
  connectedPeer,
  expectSilence,
  expectToHear,
  measureSilence,
  openAs,
  type RoomPage,
  roomUrl,
  TONE_WAV,
} from './room-support.ts';

const expect = baseExpect.configure({ timeout: 60_000 });

test.use({ launchOptions: chromiumLaunchOptions(fakeMicrophoneArgs(TONE_WAV)) });
test.describe.configure({ timeout: 180_000 });

test('one talker at a time: a second press is refused with the name, an administrator breaks in', async ({
  browser,
  server,
  admin,
  seed,
}) => {
  const channel = await seed.channel();
  // Without its floor queue (issue 59): a press on a busy floor is refused, as it was (floor-queue.spec: queued).
  const noQueue = await server.call(
    '/user/api/updateChannel',
    { channelId: channel.id, channelName: channel.name, floorQueue: false },
    admin.token,
  );
  expect(noQueue.status).toBe(200);
  const mia = await seed.member({ firstName: 'Mia', lastName: 'Talker' });
  const noe = await seed.member({ firstName: 'Noe', lastName: 'Waiting' });
  await seed.addToChannel(channel.id, [mia.id, noe.id]);

  const m = await openAs(browser, server.baseURL, mia);
  const n = await openAs(browser, server.baseURL, noe);
  const a = await openAs(browser, server.baseURL, admin);
  const pages: RoomPage[] = [m, n, a];
  try {
    for (const { page } of pages) await page.goto(roomUrl(channel.rtcSession));
    const miaAtNoe = await connectedPeer(n.page, mia.id);
    const noeAtMia = await connectedPeer(m.page, noe.id);
    await connectedPeer(m.page, admin.id);
    const silenceAtNoe = await measureSilence(n.page, miaAtNoe);
    const silenceAtMia = await measureSilence(m.page, noeAtMia);

    // Mia holds the button: she gets the floor, Noe hears her.
    const miaPtt = m.page.getByRole('button', { name: 'Push to talk' });
    await miaPtt.hover();
    await m.page.mouse.down();
    await expect(miaPtt).toHaveAttribute('aria-pressed', 'true');
    await expectToHear(n.page, miaAtNoe, silenceAtNoe);

    // Noe presses too: refused, with Mia's name; Noe's microphone stays off.
    const noePtt = n.page.getByRole('button', { name: 'Push to talk' });
    await noePtt.hover();
    await n.page.mouse.down();
    await expect(n.page.getByText('Channel busy: Mia Talker is talking')).toBeVisible();
    await expect(noePtt).toHaveAttribute('aria-pressed', 'false');
    await expect(noePtt).toHaveAttribute('data-mic', 'off');
    await expectSilence(m.page, noeAtMia, silenceAtMia);
    await n.page.mouse.up();

    // The administrator breaks in: Mia's microphone goes off, everyone sees the administrator talk.
    const adminPtt = a.page.getByRole('button', { name: 'Push to talk' });
    await adminPtt.hover();
    await a.page.mouse.down();
    await expect(adminPtt).toHaveAttribute('aria-pressed', 'true');
    await expect(miaPtt).toHaveAttribute('aria-pressed', 'false');
    await expectSilence(n.page, miaAtNoe, silenceAtNoe);
    await expect(n.page.getByRole('listitem', { name: 'Ada Lovelace' })).toHaveAttribute('data-talking', 'true');
    await a.page.mouse.up();
    await m.page.mouse.up();
    await expect(n.page.getByRole('listitem', { name: 'Ada Lovelace' })).toHaveAttribute('data-talking', 'false');
  } finally {
    for (const { close } of pages) await close();
  }
});
