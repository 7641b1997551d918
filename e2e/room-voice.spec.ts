/**
 * Push-to-talk with real audio: every page's fake microphone plays a 1 kHz tone (room-support.ts), and the
 * listener measures what it receives with an AnalyserNode on the remote stream (the room's diagnostics),
 * judged against the silence it received from the same talker earlier in the test.
 */
import { chromiumLaunchOptions } from './chromium.ts';
import { expect as baseExpect, test } from './fixtures.ts';
import { fakeMicrophoneArgs } from './room-audio.ts';
import {
  connectedPeer,
  expectSilence,
  expectToHear,
  inboundBytes,
  measureSilence,
  openAs,
  roomUrl,
  TONE_WAV,
} from './room-support.ts';

// Several browsers and media pipelines on a small, busy machine: give the room time to come up.
const expect = baseExpect.configure({ timeout: 60_000 });

test.use({ launchOptions: chromiumLaunchOptions(fakeMicrophoneArgs(TONE_WAV)) });
test.describe.configure({ timeout: 180_000 });

test('two members hear each other only while the button or the space bar is held, and see who talks', async ({
  browser,
  server,
  admin,
  seed,
}) => {
  const channel = await seed.channel();
  const bea = await seed.member({ firstName: 'Bea', lastName: 'Listener' });
  await seed.addToChannel(channel.id, [bea.id]);

  const a = await openAs(browser, server.baseURL, admin);
  const b = await openAs(browser, server.baseURL, bea);
  try {
    await a.page.goto(roomUrl(channel.rtcSession));
    await expect(a.page.getByRole('heading', { level: 1, name: channel.name })).toBeVisible();
    await expect(a.page.getByText('Waiting for users')).toBeVisible();
    await b.page.goto(roomUrl(channel.rtcSession));

    // Each sees the other's tile, and the connections come up before anyone presses.
    const adaTileAtB = b.page.getByRole('listitem', { name: 'Ada Lovelace' });
    const beaTileAtA = a.page.getByRole('listitem', { name: 'Bea Listener' });
    await expect(adaTileAtB).toBeVisible();
    await expect(beaTileAtA).toBeVisible();
    const adaAtB = await connectedPeer(b.page, admin.id);
    const beaAtA = await connectedPeer(a.page, bea.id);

    // Muted at start: the track is disabled, so B receives silence frames only; what B receives from A
    // and from B's own space bar is judged against this silence.
    const ptt = a.page.getByRole('button', { name: 'Push to talk' });
    await expect(ptt).toBeEnabled();
    await expect(ptt).toHaveAttribute('aria-pressed', 'false');
    const silenceAtB = await measureSilence(b.page, adaAtB);
    const silenceAtA = await measureSilence(a.page, beaAtA);
    await expect(adaTileAtB).toHaveAttribute('data-talking', 'false');

    // A holds the button: B's level rises and B sees A talking.
    const bytesBefore = await inboundBytes(b.page, adaAtB);
    await ptt.hover();
    await a.page.mouse.down();
    await expect(ptt).toHaveAttribute('aria-pressed', 'true');
    await expect(ptt).toHaveAttribute('data-mic', 'on');
    await expectToHear(b.page, adaAtB, silenceAtB);
    await expect(adaTileAtB).toHaveAttribute('data-talking', 'true');
    await expect(adaTileAtB).toContainText('Talking');
    await expect.poll(() => inboundBytes(b.page, adaAtB)).toBeGreaterThan(bytesBefore);

    // Release: back to silence, and the indicator goes off.
    await a.page.mouse.up();
    await expect(ptt).toHaveAttribute('aria-pressed', 'false');
    await expectSilence(b.page, adaAtB, silenceAtB);
    await expect(adaTileAtB).toHaveAttribute('data-talking', 'false');

    // Leaving the button while pressing also ends the talk.
    await ptt.hover();
    await a.page.mouse.down();
    await expectToHear(b.page, adaAtB, silenceAtB);
    await a.page.mouse.move(5, 5);
    await expect(ptt).toHaveAttribute('aria-pressed', 'false');
    await expectSilence(b.page, adaAtB, silenceAtB);
    await a.page.mouse.up();

    // The other way round, with the space bar held on B's page.
    await b.page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await b.page.keyboard.down('Space');
    await expect(b.page.getByRole('button', { name: 'Push to talk' })).toHaveAttribute('aria-pressed', 'true');
    await expectToHear(a.page, beaAtA, silenceAtA);
    await expect(beaTileAtA).toHaveAttribute('data-talking', 'true');
    await b.page.keyboard.up('Space');
    await expectSilence(a.page, beaAtA, silenceAtA);
    await expect(beaTileAtA).toHaveAttribute('data-talking', 'false');

    // Each change was reported to the server too (updateUserMicState/ and micStateChange): the talk burst
    // is in the activity log.
    await expect
      .poll(async () => {
        const { body } = await server.call('/user/api/getLastActivities/', { limit: 20 }, admin.token);
        return (body.res as Array<{ type: string; user: { id: number } | null }>).some(
          (activity) => activity.type === 'channel_talk' && activity.user?.id === bea.id,
        );
      })
      .toBe(true);
  } finally {
    await a.close();
    await b.close();
  }
});

test('a third member joins and appears in every grid, and disappears when it leaves', async ({
  browser,
  server,
  admin,
  seed,
}) => {
  const channel = await seed.channel();
  const bea = await seed.member({ firstName: 'Bea', lastName: 'Second' });
  const cal = await seed.member({ firstName: 'Cal', lastName: 'Third' });
  await seed.addToChannel(channel.id, [bea.id, cal.id]);

  const a = await openAs(browser, server.baseURL, admin);
  const b = await openAs(browser, server.baseURL, bea);
  const c = await openAs(browser, server.baseURL, cal);
  try {
    await a.page.goto(roomUrl(channel.rtcSession));
    await b.page.goto(roomUrl(channel.rtcSession));
    await c.page.goto(roomUrl(channel.rtcSession));
    for (const { page } of [a, b]) {
      await expect(page.getByRole('listitem', { name: 'Cal Third' })).toBeVisible();
      await connectedPeer(page, cal.id);
    }
    await expect(c.page.getByRole('list', { name: 'Participants' }).getByRole('listitem')).toHaveCount(2);
    await expect(c.page.getByRole('list', { name: 'Participants' })).toHaveAttribute('data-layout', '2-4');

    // C hears A: the newcomer's offers reached both peers.
    const adaAtC = await connectedPeer(c.page, admin.id);
    const silenceAtC = await measureSilence(c.page, adaAtC);
    await a.page.getByRole('button', { name: 'Push to talk' }).hover();
    await a.page.mouse.down();
    await expectToHear(c.page, adaAtC, silenceAtC);
    await expect(c.page.getByRole('listitem', { name: 'Ada Lovelace' })).toHaveAttribute('data-talking', 'true');
    await a.page.mouse.up();

    // C leaves the room (navigates away): its tile goes from the others' grids. A member lands on /talk, which
    // hears its channels (scan): the channel is taken out of C's scan first, so that leaving is leaving.
    expect(
      (await server.call('/user/api/setChannelScan', { channelId: channel.id, scan: false }, cal.token)).status,
    ).toBe(200);
    await c.page.goto('/channelsList');
    await expect(a.page.getByRole('listitem', { name: 'Cal Third' })).toHaveCount(0);
    await expect(b.page.getByRole('listitem', { name: 'Cal Third' })).toHaveCount(0);
    await expect(a.page.getByRole('list', { name: 'Participants' }).getByRole('listitem')).toHaveCount(1);
    await expect(a.page.getByRole('list', { name: 'Participants' })).toHaveAttribute('data-layout', '1');

    // B closes its browser: A is alone again.
    await b.close();
    await expect(a.page.getByText('Waiting for users')).toBeVisible();
  } finally {
    await a.close();
    await b.close().catch(() => {});
    await c.close();
  }
});

test('without a microphone the room says why and keeps working: the user still hears the others', async ({
  browser,
  server,
  admin,
  seed,
}) => {
  const channel = await seed.channel();
  const dan = await seed.member({ firstName: 'Dan', lastName: 'Nomic' });
  await seed.addToChannel(channel.id, [dan.id]);

  const a = await openAs(browser, server.baseURL, admin);
  const d = await openAs(browser, server.baseURL, dan);
  await d.page.addInitScript(() => {
    navigator.mediaDevices.getUserMedia = () =>
      Promise.reject(new DOMException('Permission denied', 'NotAllowedError'));
  });
  try {
    await d.page.goto(roomUrl(channel.rtcSession));
    await expect(d.page.getByRole('alert').filter({ hasText: 'No microphone' })).toContainText(
      'Access to the microphone was refused',
    );
    await expect(d.page.getByRole('button', { name: 'Push to talk' })).toBeDisabled();

    await a.page.goto(roomUrl(channel.rtcSession));
    await expect(a.page.getByRole('listitem', { name: 'Dan Nomic' })).toBeVisible();
    const adaAtD = await connectedPeer(d.page, admin.id);
    const silenceAtD = await measureSilence(d.page, adaAtD);
    await a.page.getByRole('button', { name: 'Push to talk' }).hover();
    await a.page.mouse.down();
    await expectToHear(d.page, adaAtD, silenceAtD);
    await expect(d.page.getByRole('listitem', { name: 'Ada Lovelace' })).toHaveAttribute('data-talking', 'true');
    await a.page.mouse.up();
  } finally {
    await a.close();
    await d.close();
  }
});
