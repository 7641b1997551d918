/**
 * One page, three channels, one socket (issue 25): an administrator in channel A's room switches on "Listen to"
 * B and C; it hears a member talking in B and another in C, names them, and still talks in A. The server sees
 * one socket in three channels (one presence row each, the extra two in listen mode).
 */
import type { Page } from '@playwright/test';
import { chromiumLaunchOptions } from './chromium.ts';
import { expect as baseExpect, test } from './fixtures.ts';
import { fakeMicrophoneArgs } from './room-audio.ts';
import { heardAbove, openAs, roomUrl, TONE_WAV } from './room-support.ts';

const expect = baseExpect.configure({ timeout: 30_000 });

test.use({ launchOptions: chromiumLaunchOptions(fakeMicrophoneArgs(TONE_WAV)) });
test.describe.configure({ timeout: 240_000 });

/** The socket id of the connected peer of this user in that channel's room. */
async function connectedIn(page: Page, room: string, userId: number): Promise<string> {
  let id = '';
  await expect
    .poll(
      async () => {
        const peer = await page.evaluate(
          ([key, user]) => window.__talkgroupRooms?.[key]?.peers().find((candidate) => candidate.userId === user),
          [room, userId] as const,
        );
        id = peer?.id ?? '';
        return peer?.connection;
      },
      { timeout: 45_000, message: `a connected peer of user ${userId} in ${room}` },
    )
    .toBe('connected');
  return id;
}

async function playedIn(page: Page, room: string, peerId: string): Promise<number> {
  return page.evaluate(
    async ([key, id]) => (await window.__talkgroupRooms?.[key]?.inboundAudio(id))?.playedSeconds ?? 0,
    [room, peerId] as const,
  );
}

async function peakIn(page: Page, room: string, peerId: string): Promise<number> {
  return page.evaluate(([key, id]) => window.__talkgroupRooms?.[key]?.recentPeak(id) ?? 0, [room, peerId] as const);
}

/** Silence received from a peer once a second of it has played (the level it is heard against). */
async function silenceIn(page: Page, room: string, peerId: string): Promise<number> {
  const first = await playedIn(page, room, peerId);
  await expect
    .poll(() => playedIn(page, room, peerId), { timeout: 45_000, message: `received silence in ${room}` })
    .toBeGreaterThan(first + 1);
  return peakIn(page, room, peerId);
}

test('a page in three channels talks in one and hears the other two, on one socket', async ({
  browser,
  server,
  admin,
  seed,
}) => {
  const [alpha, bravo, charlie] = [await seed.channel(), await seed.channel(), await seed.channel()];
  const bea = await seed.member({ firstName: 'Bea', lastName: 'Bravo' });
  const cal = await seed.member({ firstName: 'Cal', lastName: 'Charlie' });
  await seed.addToChannel(bravo.id, [bea.id]);
  await seed.addToChannel(charlie.id, [cal.id]);

  const desk = await openAs(browser, server.baseURL, admin);
  const b = await openAs(browser, server.baseURL, bea);
  const c = await openAs(browser, server.baseURL, cal);
  try {
    await desk.page.goto(roomUrl(alpha.rtcSession));
    await expect(desk.page.getByRole('heading', { level: 1, name: alpha.name })).toBeVisible();
    const listening = desk.page.getByRole('region', { name: 'Also listen to' });
    await listening.getByRole('switch', { name: `Listen to ${bravo.name}` }).check();
    await listening.getByRole('switch', { name: `Listen to ${charlie.name}` }).check();
    await b.page.goto(roomUrl(bravo.rtcSession));
    await c.page.goto(roomUrl(charlie.rtcSession));

    // One socket, three channels: a presence row for each, the listened ones in listen mode.
    await expect
      .poll(async () => {
        const { body } = await server.call('/user/api/getUsersPage', { search: 'Lovelace', limit: 5 }, admin.token);
        const sockets = (body.res.users[0]?.user_sockets ?? []) as Array<{ channelId: number; socket_id: string }>;
        return {
          channels: sockets.map((s) => s.channelId).sort(),
          sockets: new Set(sockets.map((s) => s.socket_id)).size,
        };
      })
      .toEqual({ channels: [alpha.id, bravo.id, charlie.id].sort(), sockets: 1 });

    const beaAtDesk = await connectedIn(desk.page, bravo.rtcSession, bea.id);
    const calAtDesk = await connectedIn(desk.page, charlie.rtcSession, cal.id);
    const quietB = await silenceIn(desk.page, bravo.rtcSession, beaAtDesk);
    const quietC = await silenceIn(desk.page, charlie.rtcSession, calAtDesk);

    // Bea talks in Bravo: heard at the desk, named in Bravo's row.
    const beaTalk = b.page.getByRole('button', { name: 'Push to talk' });
    await beaTalk.hover();
    await b.page.mouse.down();
    await expect(beaTalk).toHaveAttribute('aria-pressed', 'true');
    await expect.poll(() => peakIn(desk.page, bravo.rtcSession, beaAtDesk)).toBeGreaterThan(heardAbove(quietB));
    await expect(listening.getByRole('status', { name: `${bravo.name}: who is talking` })).toHaveText(
      'Bea Bravo talking',
    );

    // Cal talks in Charlie at the same time: heard too; the desk hears both channels at once.
    const calTalk = c.page.getByRole('button', { name: 'Push to talk' });
    await calTalk.hover();
    await c.page.mouse.down();
    await expect(calTalk).toHaveAttribute('aria-pressed', 'true');
    await expect.poll(() => peakIn(desk.page, charlie.rtcSession, calAtDesk)).toBeGreaterThan(heardAbove(quietC));
    await expect(listening.getByRole('status', { name: `${charlie.name}: who is talking` })).toHaveText(
      'Cal Charlie talking',
    );
    await b.page.mouse.up();
    await c.page.mouse.up();
    await expect(listening.getByRole('status', { name: `${bravo.name}: who is talking` })).toHaveText(
      'Listening, nobody is talking',
    );

    // The desk talks in Alpha, its own channel, while it listens to the others.
    const deskTalk = desk.page.getByRole('button', { name: 'Push to talk' });
    await deskTalk.hover();
    await desk.page.mouse.down();
    await expect(deskTalk).toHaveAttribute('data-mic', 'on');
    await desk.page.mouse.up();
    await expect(deskTalk).toHaveAttribute('aria-pressed', 'false');

    // Switched off, a channel is left: Bravo's room no longer lists the desk.
    await listening.getByRole('switch', { name: `Listen to ${bravo.name}` }).uncheck();
    await expect
      .poll(async () => (await b.page.evaluate(() => window.__talkgroupRoom?.peers() ?? [])).map((p) => p.userId))
      .not.toContain(admin.id);
  } finally {
    await desk.close();
    await b.close();
    await c.close();
  }
});

declare global {
  interface Window {
    __talkgroupRooms?: Record<
      string,
      {
        peers(): Array<{ id: string; userId: number | null; connection: string }>;
        recentPeak(peerId: string): number;
        inboundAudio(peerId: string): Promise<{ playedSeconds: number } | null>;
      }
    >;
  }
}
