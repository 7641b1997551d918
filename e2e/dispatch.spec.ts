/**
 * The dispatch console (issue 27), in real Chromium with fake microphones: a dispatcher's page monitors six
 * channels on one socket; it hears a talker in each of two channels at once, the selected channel louder than
 * the others (measured behind each channel's gain), switches the selection with a key; an all call preempts a
 * member and is heard in the three channels where someone listens (one of them on a phone); an SOS takes its tile over, and two open
 * alerts are both named. The monitor list follows the dispatcher to another browser.
 */
import { closeAllAlerts } from './alerts.ts';
import { chromiumLaunchOptions } from './chromium.ts';
import {
  arrivingLevel,
  decibelsApart,
  deskLevel,
  deskPeak,
  hold,
  levelCast,
  monitor,
  peakIn,
  peerIn,
  silenceIn,
} from './dispatch-support.ts';
import { expect as baseExpect, test } from './fixtures.ts';
import { fakeMicrophoneArgs } from './room-audio.ts';
import { heardAbove, openAs, roomUrl, TONE_WAV } from './room-support.ts';

const expect = baseExpect.configure({ timeout: 60_000 });

test.use({ launchOptions: chromiumLaunchOptions(fakeMicrophoneArgs(TONE_WAV)) });
test.describe.configure({ timeout: 300_000 });

test('a desk monitors six channels, hears two at once, selected louder, talks on all of them and takes an SOS', async ({
  browser,
  server,
  admin,
  seed,
}) => {
  const [alpha, bravo, charlie] = [await seed.channel(), await seed.channel(), await seed.channel()];
  const quietOnes = [await seed.channel(), await seed.channel(), await seed.channel()];
  const desk = await seed.member({ firstName: 'Dana', lastName: 'Desk', role: 'dispatcher' });
  const ali = await seed.member({ firstName: 'Ali', lastName: 'Alpha' });
  const bea = await seed.member({ firstName: 'Bea', lastName: 'Bravo' });
  const cal = await seed.member({ firstName: 'Cal', lastName: 'Charlie' });
  await seed.addToChannel(alpha.id, [desk.id, ali.id]);
  await seed.addToChannel(bravo.id, [desk.id, bea.id]);
  await seed.addToChannel(charlie.id, [desk.id, cal.id]);
  for (const channel of quietOnes) await seed.addToChannel(channel.id, [desk.id]);

  const d = await openAs(browser, server.baseURL, desk);
  const a = await openAs(browser, server.baseURL, ali, { viewport: { width: 390, height: 844 } });
  const b = await openAs(browser, server.baseURL, bea);
  const c = await openAs(browser, server.baseURL, cal);
  try {
    await d.page.goto('/dispatch');
    await expect(d.page.getByRole('heading', { level: 1, name: 'Dispatch console' })).toBeVisible();
    await monitor(d.page, [alpha.name, bravo.name, charlie.name, ...quietOnes.map((channel) => channel.name)]);
    // One socket in six channels: a presence row for each.
    await expect
      .poll(async () => {
        const { body } = await server.call('/user/api/getUsersPage', { search: 'Desk', limit: 5 }, admin.token);
        const sockets = (body.res.users.find((user: { id: number }) => user.id === desk.id)?.user_sockets ??
          []) as Array<{ channelId: number; socket_id: string }>;
        return { channels: sockets.length, sockets: new Set(sockets.map((s) => s.socket_id)).size };
      })
      .toEqual({ channels: 6, sockets: 1 });
    // Ali on the phone app, Bea and Cal in their channels' rooms.
    await a.page.goto(`/talk/${alpha.id}`);
    await b.page.goto(roomUrl(bravo.rtcSession));
    await c.page.goto(roomUrl(charlie.rtcSession));

    const beaAtDesk = await peerIn(d.page, bravo.rtcSession, bea.id);
    const calAtDesk = await peerIn(d.page, charlie.rtcSession, cal.id);
    const quietB = await silenceIn(d.page, bravo.rtcSession, beaAtDesk);
    const quietC = await silenceIn(d.page, charlie.rtcSession, calAtDesk);

    // Bea and Cal talk at the same time, each in a channel: the desk hears both, and names them on their tiles.
    const releaseBea = await hold(b.page, b.page.getByRole('button', { name: 'Push to talk' }));
    const releaseCal = await hold(c.page, c.page.getByRole('button', { name: 'Push to talk' }));
    await expect.poll(() => peakIn(d.page, bravo.rtcSession, beaAtDesk)).toBeGreaterThan(heardAbove(quietB));
    await expect.poll(() => peakIn(d.page, charlie.rtcSession, calAtDesk)).toBeGreaterThan(heardAbove(quietC));
    const bravoTile = d.page.getByRole('region', { name: `Channel ${bravo.name}` });
    const charlieTile = d.page.getByRole('region', { name: `Channel ${charlie.name}` });
    await expect(bravoTile.getByRole('status', { name: `${bravo.name}: who is talking` })).toHaveText(
      'Bea Bravo talking',
    );
    await expect(charlieTile.getByRole('status', { name: `${charlie.name}: who is talking` })).toHaveText(
      'Cal Charlie talking',
    );

    // The selected tile plays at full level, the others at the unselected level (40 % by default): what the
    // page plays of each, behind its gain.
    await bravoTile.getByRole('button', { name: `Select ${bravo.name}` }).click();
    await expect.poll(() => deskLevel(d.page, bravo.rtcSession)).toBeCloseTo(1, 2);
    await expect.poll(() => deskLevel(d.page, charlie.rtcSession)).toBeCloseTo(0.4, 2);
    await expect
      .poll(
        async () =>
          (await deskPeak(d.page, bravo.rtcSession)) / Math.max(1e-6, await deskPeak(d.page, charlie.rtcSession)),
      )
      .toBeGreaterThan(1.8);
    // Key 3 selects the third tile: now Charlie is the loud one.
    await d.page.keyboard.press('3');
    await expect(charlieTile).toHaveAttribute('data-selected', 'true');
    await expect
      .poll(
        async () =>
          (await deskPeak(d.page, charlie.rtcSession)) / Math.max(1e-6, await deskPeak(d.page, bravo.rtcSession)),
      )
      .toBeGreaterThan(1.8);
    await releaseBea();
    await releaseCal();

    // Ali talks in Alpha; the desk's all call breaks in, and all three channels hear the desk.
    const aliTalk = a.page.getByRole('button', { name: 'Push to talk' });
    const releaseAli = await hold(a.page, aliTalk);
    await expect(aliTalk).toHaveAttribute('data-mic', 'on');
    const deskAt = {
      ali: await peerIn(a.page, alpha.rtcSession, desk.id),
      bea: await peerIn(b.page, bravo.rtcSession, desk.id),
      cal: await peerIn(c.page, charlie.rtcSession, desk.id),
    };
    const quiet = {
      ali: await silenceIn(a.page, alpha.rtcSession, deskAt.ali),
      bea: await silenceIn(b.page, bravo.rtcSession, deskAt.bea),
      cal: await silenceIn(c.page, charlie.rtcSession, deskAt.cal),
    };
    const releaseAll = await hold(d.page, d.page.getByRole('button', { name: 'All call' }));
    // No tile checked: the all call is on every tile.
    await expect(d.page.getByRole('status', { name: 'All call' })).toHaveText('All call on 6 of 6 channels.');
    await expect(aliTalk).toHaveAttribute('data-mic', 'off');
    await expect.poll(() => peakIn(a.page, alpha.rtcSession, deskAt.ali)).toBeGreaterThan(heardAbove(quiet.ali));
    await expect.poll(() => peakIn(b.page, bravo.rtcSession, deskAt.bea)).toBeGreaterThan(heardAbove(quiet.bea));
    await expect.poll(() => peakIn(c.page, charlie.rtcSession, deskAt.cal)).toBeGreaterThan(heardAbove(quiet.cal));
    await releaseAll();
    await releaseAli();
    // The all call is one recording, listed in each channel's history (issue 37): the same take everywhere.
    const channels = [alpha, bravo, charlie, ...quietOnes];
    const deskTakes = async () =>
      Promise.all(
        channels.map(async (channel) => {
          const { body } = await server.call(
            '/user/api/getChannelVoiceMessages',
            { channelId: channel.id },
            admin.token,
          );
          return (body.res as Array<{ userId: number; createdAt: string; durationMs: number }>).filter(
            (take) => take.userId === desk.id,
          );
        }),
      );
    await expect.poll(async () => (await deskTakes()).map((takes) => takes.length)).toEqual(channels.map(() => 1));
    const everywhere = (await deskTakes()).map(([take]) => `${take.createdAt} ${take.durationMs}`);
    expect(new Set(everywhere).size).toBe(1);

    // An SOS in Alpha takes over: its tile is selected and plays at full level, muted or not.
    const alphaTile = d.page.getByRole('region', { name: `Channel ${alpha.name}` });
    await alphaTile.getByRole('switch', { name: `Mute ${alpha.name}` }).check();
    await expect.poll(() => deskLevel(d.page, alpha.rtcSession)).toBe(0);
    expect((await server.call('/user/api/sendEmergencyAlert', { channelId: alpha.id }, ali.token)).status).toBe(200);
    await expect(alphaTile).toHaveAttribute('data-selected', 'true');
    await expect.poll(() => deskLevel(d.page, alpha.rtcSession)).toBeCloseTo(1, 2);
    const sos = d.page.getByRole('region', { name: 'SOS alerts of the monitored channels' });
    await expect(sos.getByRole('alert', { name: 'SOS from Ali Alpha' })).toContainText(alpha.name);
    // A second alert while the first is open: every page names both senders, the newest first.
    expect((await server.call('/user/api/sendEmergencyAlert', { channelId: bravo.id }, bea.token)).status).toBe(200);
    await expect(d.page.getByTestId('sos-banner')).toHaveCount(2);
    await expect(d.page.getByTestId('sos-banner').first()).toContainText('Bea Bravo needs help');
    await expect(d.page.getByTestId('sos-banner').nth(1)).toContainText('Ali Alpha needs help');
    await expect(bravoTile).toHaveAttribute('data-selected', 'true');
    await sos
      .getByRole('alert', { name: 'SOS from Ali Alpha' })
      .getByRole('button', { name: 'Take the alert' })
      .click();
    await expect(sos.getByRole('alert', { name: 'SOS from Ali Alpha' })).toBeHidden();
    await expect(d.page.getByTestId('sos-banner')).toHaveCount(1);
  } finally {
    for (const page of [d, a, b, c]) await page.close();
    await closeAllAlerts(server, admin);
  }
});

test('the monitor list, volumes and mutes follow the desk to a reload and another browser', async ({
  browser,
  server,
  seed,
}) => {
  const [north, south] = [await seed.channel(), await seed.channel()];
  const desk = await seed.member({ firstName: 'Dora', lastName: 'Desk', role: 'dispatcher' });
  await seed.addToChannel(north.id, [desk.id]);
  await seed.addToChannel(south.id, [desk.id]);
  const first = await openAs(browser, server.baseURL, desk);
  try {
    await first.page.goto('/dispatch');
    await monitor(first.page, [north.name, south.name]);
    const southTile = first.page.getByRole('region', { name: `Channel ${south.name}` });
    await southTile.getByRole('switch', { name: `Mute ${south.name}` }).check();
    const volume = first.page.getByRole('slider', { name: `Volume ${north.name}` });
    await volume.focus();
    await first.page.keyboard.press('PageDown');
    await first.page.keyboard.press('PageDown');
    await expect(volume).toHaveValue('80');
    // Saved once the slider rests.
    await expect
      .poll(async () => (await server.call('/user/api/getMonitorList', {}, desk.token)).body.res)
      .toEqual([
        { channelId: north.id, volume: 80, muted: false },
        { channelId: south.id, volume: 100, muted: true },
      ]);
    await first.page.reload();
    await expect(first.page.getByRole('slider', { name: `Volume ${north.name}` })).toHaveValue('80');
  } finally {
    await first.close();
  }
  const other = await openAs(browser, server.baseURL, desk);
  try {
    await other.page.goto('/dispatch');
    await expect(other.page.getByRole('region', { name: `Channel ${north.name}` })).toBeVisible();
    await expect(other.page.getByRole('slider', { name: `Volume ${north.name}` })).toHaveValue('80');
    await expect(other.page.getByRole('switch', { name: `Mute ${south.name}` })).toBeChecked();
    await expect(other.page.getByRole('switch', { name: `Mute ${north.name}` })).not.toBeChecked();
  } finally {
    await other.close();
  }
});

test('a member gets the not-found page at /dispatch; a dispatcher finds it in the navigation, in French', async ({
  browser,
  server,
  seed,
}) => {
  const member = await seed.member();
  const desk = await seed.member({ role: 'dispatcher' });
  const m = await openAs(browser, server.baseURL, member);
  const d = await openAs(browser, server.baseURL, desk, { language: 'fr' });
  try {
    await m.page.goto('/dispatch');
    await expect(m.page.getByText('The page you are looking for does not exist.')).toBeVisible();
    await d.page.goto('/dispatch');
    await expect(d.page.getByRole('heading', { level: 1, name: 'Console de répartition' })).toBeVisible();
    // Below 1480 px the navigation is a drawer.
    await d.page.getByRole('button', { name: 'Ouvrir le menu' }).click();
    await expect(
      d.page
        .getByRole('navigation', { name: 'Navigation principale' })
        .getByRole('link', { name: 'Console de répartition' }),
    ).toHaveAttribute('href', '/dispatch');
    await d.page.keyboard.press('Escape');
    await expect(d.page.getByRole('button', { name: 'Appel général' })).toBeVisible();
  } finally {
    await m.close();
    await d.close();
  }
});

test("the desk's voice arrives at a member's page at a member's level, talking on one channel and in an all call", async ({
  browser,
  server,
  seed,
}) => {
  const { alpha, desk, bea, d, a, b, pages } = await levelCast(browser, server.baseURL, seed);
  try {
    const beaAtAli = await peerIn(a.page, alpha.rtcSession, bea.id);
    const deskAtAli = await peerIn(a.page, alpha.rtcSession, desk.id);
    const quietBea = await silenceIn(a.page, alpha.rtcSession, beaAtAli);
    const quietDesk = await silenceIn(a.page, alpha.rtcSession, deskAtAli);

    // A member's voice: the reference.
    let release = await hold(b.page, b.page.getByRole('button', { name: 'Push to talk' }));
    await expect.poll(() => peakIn(a.page, alpha.rtcSession, beaAtAli)).toBeGreaterThan(heardAbove(quietBea));
    const member = await arrivingLevel(a.page, alpha.rtcSession, beaAtAli);
    await release();

    // The desk talks on the channel: the same fake microphone, the same level within 3 dB.
    release = await hold(d.page, d.page.getByRole('button', { name: `Talk on ${alpha.name}` }));
    await expect.poll(() => peakIn(a.page, alpha.rtcSession, deskAtAli)).toBeGreaterThan(heardAbove(quietDesk));
    expect(decibelsApart(await arrivingLevel(a.page, alpha.rtcSession, deskAtAli), member)).toBeLessThan(3);
    await release();

    // And in an all call.
    await expect.poll(() => peakIn(a.page, alpha.rtcSession, deskAtAli)).toBeLessThan(heardAbove(quietDesk));
    release = await hold(d.page, d.page.getByRole('button', { name: 'All call' }));
    await expect.poll(() => peakIn(a.page, alpha.rtcSession, deskAtAli)).toBeGreaterThan(heardAbove(quietDesk));
    expect(decibelsApart(await arrivingLevel(a.page, alpha.rtcSession, deskAtAli), member)).toBeLessThan(3);
    await release();
  } finally {
    for (const page of pages) await page.close();
  }
});
