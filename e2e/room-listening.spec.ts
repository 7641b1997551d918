/**
 * One page, three channels, one socket (issue 25): an administrator in channel A's room switches on "Listen to"
 * B and C; it hears a member talking in B and another in C, names them, and still talks in A. The server sees
 * one socket in three channels (one presence row each, the extra two in listen mode).
 */
import { chromiumLaunchOptions } from './chromium.ts';
import { expect as baseExpect, test } from './fixtures.ts';
import { fakeMicrophoneArgs } from './room-audio.ts';
import { connectedIn, heardAbove, openAs, peakIn, roomUrl, silenceIn, TONE_WAV } from './room-support.ts';

const expect = baseExpect.configure({ timeout: 60_000 });

test.use({ launchOptions: chromiumLaunchOptions(fakeMicrophoneArgs(TONE_WAV)) });
test.describe.configure({ timeout: 240_000 });

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
