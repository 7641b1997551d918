/**
 * Private calls (issue 27), in real Chromium with fake microphones: a dispatcher calls a member from the
 * dispatch console; the member's phone rings full screen, accepts, and both talk push-to-talk, each heard by
 * the other; a second call is declined and the caller is told so. Once a call is over, both parties are still
 * in their channel, on the mesh and through Janus, each hearing the other there (issue 58).
 */
import type { Page } from '@playwright/test';
import { chromiumLaunchOptions } from './chromium.ts';
import { hold, monitor, peakIn, peerIn, silenceIn } from './dispatch-support.ts';
import { type Account, expect as baseExpect, type TalkgroupServer, test } from './fixtures.ts';
import { janusDeployment, stopLeftovers } from './media-servers.ts';
import { fakeMicrophoneArgs } from './room-audio.ts';
import { heardAbove, openAs, type RoomPage, TONE_WAV } from './room-support.ts';

const expect = baseExpect.configure({ timeout: 60_000 });

test.use({ launchOptions: chromiumLaunchOptions(fakeMicrophoneArgs(TONE_WAV)) });
test.describe.configure({ timeout: 240_000 });
test.afterEach(stopLeftovers);

/** The key of the call's voice room on a page (a private call's room starts so). */
async function callRoomOf(page: Page): Promise<string> {
  let room = '';
  await expect
    .poll(async () => {
      room = await page.evaluate(
        () => Object.keys(window.__talkgroupRooms ?? {}).find((key) => key.startsWith('private')) ?? '',
      );
      return room;
    })
    .not.toBe('');
  return room;
}

test('a desk calls a member privately: it rings, is accepted, carries voice both ways; a declined call tells the caller', async ({
  browser,
  server,
  seed,
  admin,
}) => {
  const north = await seed.channel();
  const desk = await seed.member({ firstName: 'Dana', lastName: 'Desk', role: 'dispatcher' });
  const mia = await seed.member({ firstName: 'Mia', lastName: 'Field' });
  await seed.addToChannel(north.id, [desk.id, mia.id]);
  const d = await openAs(browser, server.baseURL, desk);
  const m = await openAs(browser, server.baseURL, mia, { viewport: { width: 390, height: 844 } });
  try {
    await m.page.goto(`/talk/${north.id}`);
    await expect(m.page.getByRole('button', { name: 'Push to talk' })).toBeVisible();
    await d.page.goto('/dispatch');
    await monitor(d.page, [north.name]);

    const call = async () => {
      const tile = d.page.getByRole('region', { name: `Channel ${north.name}` });
      await tile.getByRole('button', { name: `Private call to a member of ${north.name}` }).click();
      await d.page.getByRole('menuitem', { name: 'Private call with Mia Field' }).click();
      await expect(d.page.getByRole('dialog', { name: 'Private call' })).toContainText('Calling Mia Field…');
      const ring = m.page.getByRole('dialog', { name: 'Private call' });
      await expect(ring).toContainText('Dana Desk is calling you');
      return ring;
    };

    // The phone rings full screen; accepted, both are in the call.
    const ring = await call();
    await ring.getByRole('button', { name: 'Accept' }).click();
    const atDesk = d.page.getByRole('region', { name: 'Private call with Mia Field' });
    const atPhone = m.page.getByRole('region', { name: 'Private call with Dana Desk' });
    await expect(atDesk).toBeVisible();
    await expect(atPhone).toBeVisible();
    await expect(d.page.getByRole('dialog', { name: 'Private call' })).toBeHidden();

    const room = await callRoomOf(d.page);
    expect(await callRoomOf(m.page)).toBe(room);
    const deskAtPhone = await peerIn(m.page, room, desk.id);
    const miaAtDesk = await peerIn(d.page, room, mia.id);
    const quietAtPhone = await silenceIn(m.page, room, deskAtPhone);
    const quietAtDesk = await silenceIn(d.page, room, miaAtDesk);

    // The desk talks: the phone hears it. Then the member answers: the desk hears it.
    const releaseDesk = await hold(d.page, atDesk.getByRole('button', { name: 'Talk to Mia Field' }));
    await expect(atDesk.getByRole('status', { name: 'Who is talking in the call' })).toHaveText('You are talking');
    await expect.poll(() => peakIn(m.page, room, deskAtPhone)).toBeGreaterThan(heardAbove(quietAtPhone));
    await releaseDesk();
    await expect(atDesk.getByRole('status', { name: 'Who is talking in the call' })).toHaveText(
      'Hold the button to talk',
    );
    const releaseMia = await hold(m.page, atPhone.getByRole('button', { name: 'Talk to Dana Desk' }));
    await expect.poll(() => peakIn(d.page, room, miaAtDesk)).toBeGreaterThan(heardAbove(quietAtDesk));
    await expect(atDesk.getByRole('status', { name: 'Who is talking in the call' })).toHaveText('Mia Field is talking');
    await releaseMia();

    // The member hangs up: the desk is told.
    await atPhone.getByRole('button', { name: 'Hang up' }).click();
    await expect(atDesk).toBeHidden();
    await expect(d.page.getByRole('status').filter({ hasText: 'The call with Mia Field has ended.' })).toBeVisible();
    // Both transmissions are in the call's voice history, which both parties read; the desk lists the call.
    const { channelId } = (await server.call('/user/api/getPrivateCalls', {}, mia.token)).body.res[0];
    for (const party of [desk, mia])
      await expect
        .poll(async () => (await server.call('/user/api/getChannelVoiceMessages', { channelId }, party.token)).body.res)
        .toHaveLength(2);
    const history = d.page.getByRole('region', { name: 'Private calls' });
    await expect(history.getByRole('button', { name: /^Play the call: To Mia Field, .*: ended$/ })).toBeVisible();

    await stillInTheChannel(server, admin, { desk, mia, d, m, channel: north });

    // A second call, declined: the caller learns it.
    const again = await call();
    await again.getByRole('button', { name: 'Decline' }).click();
    await expect(again).toBeHidden();
    await expect(d.page.getByRole('dialog', { name: 'Private call' })).toBeHidden();
    await expect(d.page.getByRole('status').filter({ hasText: 'Mia Field declined the call.' })).toBeVisible();
  } finally {
    await d.close();
    await m.close();
  }
});

/**
 * After a call, both parties are still in the channel they were in (issue 58): connected there, no
 * channel_leave written, the desk's over from its tile heard on the phone and the member's at the desk.
 */
async function stillInTheChannel(
  server: TalkgroupServer,
  admin: Account,
  cast: {
    desk: Account;
    mia: Account;
    d: RoomPage;
    m: RoomPage;
    channel: { id: number; name: string; rtcSession: string };
  },
): Promise<void> {
  const { desk, mia, d, m, channel } = cast;
  const room = channel.rtcSession;
  await expect(m.page.getByRole('button', { name: 'Push to talk' })).toBeEnabled();
  const deskAtPhone = await peerIn(m.page, room, desk.id);
  const quietAtPhone = await silenceIn(m.page, room, deskAtPhone);
  const releaseDesk = await hold(d.page, d.page.getByRole('button', { name: `Talk on ${channel.name}` }));
  await expect.poll(() => peakIn(m.page, room, deskAtPhone)).toBeGreaterThan(heardAbove(quietAtPhone));
  await releaseDesk();
  const miaAtDesk = await peerIn(d.page, room, mia.id);
  const quietAtDesk = await silenceIn(d.page, room, miaAtDesk);
  const releaseMia = await hold(m.page, m.page.getByRole('button', { name: 'Push to talk' }));
  await expect.poll(() => peakIn(d.page, room, miaAtDesk)).toBeGreaterThan(heardAbove(quietAtDesk));
  await releaseMia();
  const activities = (await server.call('/user/api/getAllActivities/', { start: 0, limit: 200 }, admin.token)).body.res
    .activities as Array<{ type: string; channel: { id: number | null } | null }>;
  expect(activities.filter((a) => a.type === 'channel_leave' && a.channel?.id === channel.id)).toEqual([]);
}

test('through Janus, the desk hangs up and both parties still talk and hear each other on their channel', async ({
  browser,
}) => {
  const deployment = await janusDeployment();
  const { server, seed } = deployment;
  const pages: RoomPage[] = [];
  try {
    const north = await seed.channel();
    const desk = await seed.member({ firstName: 'Dana', lastName: 'Desk', role: 'dispatcher' });
    const mia = await seed.member({ firstName: 'Mia', lastName: 'Field' });
    await seed.addToChannel(north.id, [desk.id, mia.id]);
    const d = await openAs(browser, server.baseURL, desk);
    const m = await openAs(browser, server.baseURL, mia, { viewport: { width: 390, height: 844 } });
    pages.push(d, m);
    await m.page.goto(`/talk/${north.id}`);
    await d.page.goto('/dispatch');
    await monitor(d.page, [north.name]);
    const tile = d.page.getByRole('region', { name: `Channel ${north.name}` });
    await tile.getByRole('button', { name: `Private call to a member of ${north.name}` }).click();
    await d.page.getByRole('menuitem', { name: 'Private call with Mia Field' }).click();
    await m.page.getByRole('dialog', { name: 'Private call' }).getByRole('button', { name: 'Accept' }).click();
    const atDesk = d.page.getByRole('region', { name: 'Private call with Mia Field' });
    await expect(atDesk).toBeVisible();
    await expect(m.page.getByRole('region', { name: 'Private call with Dana Desk' })).toBeVisible();
    await atDesk.getByRole('button', { name: 'Hang up' }).click();
    await expect(m.page.getByRole('region', { name: 'Private call with Dana Desk' })).toBeHidden();
    await stillInTheChannel(server, deployment.admin, { desk, mia, d, m, channel: north });
  } finally {
    for (const page of pages) await page.close();
    await deployment.stop();
  }
});
