/**
 * Never drop out (issue 12), in real browsers: the server restarted (SIGTERM as a deploy, SIGKILL as a
 * crash) or the network dropped under two pages in a room; with no reload and no click they are back in
 * the room, hear each other again, and a message sent while one was away shows in its page. A session
 * ended elsewhere signs the page out instead.
 */
import type { Page } from '@playwright/test';
import { chromiumLaunchOptions } from './chromium.ts';
import { expect as baseExpect, createAdmin, seedFor, test } from './fixtures.ts';
import { fakeMicrophoneArgs } from './room-audio.ts';
import {
  connectedPeer,
  expectSilence,
  expectToHear,
  hookPeers,
  measureSilence,
  openAs,
  type RoomPage,
  roomUrl,
  TONE_WAV,
} from './room-support.ts';

const expect = baseExpect.configure({ timeout: 60_000 });

test.use({ launchOptions: chromiumLaunchOptions(fakeMicrophoneArgs(TONE_WAV)) });
test.describe.configure({ timeout: 240_000 });

/** `talker` holds the button; `listener` hears it above the silence it measures first; released, silence. */
async function talkAndHear(talker: Page, listener: Page, peerAtListener: string) {
  const silence = await measureSilence(listener, peerAtListener);
  const ptt = talker.getByRole('button', { name: 'Push to talk' });
  await expect(ptt).toBeEnabled();
  await ptt.hover();
  await talker.mouse.down();
  await expect(ptt).toHaveAttribute('aria-pressed', 'true');
  await expectToHear(listener, peerAtListener, silence);
  await talker.mouse.up();
  await expectSilence(listener, peerAtListener, silence);
}

/**
 * The listener's connection with the talker as the talker is now: a restart makes clients reconnect more
 * than once (to the closing server, then to the new one), so the peer seen first may be a former socket.
 */
async function settledPeer(listener: Page, talker: Page, talkerUserId: number): Promise<string> {
  await expect
    .poll(
      async () => {
        const self = await talker.evaluate(() => window.__talkgroupRoom?.selfId ?? null);
        const peer = (await hookPeers(listener)).find((candidate) => candidate.userId === talkerUserId);
        return Boolean(self) && peer?.id === self && peer?.connection === 'connected';
      },
      { timeout: 60_000, message: `connected again with user ${talkerUserId} as it is now` },
    )
    .toBe(true);
  return talker.evaluate(() => window.__talkgroupRoom?.selfId ?? '');
}

for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
  test(`after a server ${signal} the room comes back by itself: voice again, and the chat missed meanwhile`, async ({
    browser,
    freshServer,
  }) => {
    const server = freshServer;
    const admin = await createAdmin(server);
    const seed = seedFor(server, admin);
    const channel = await seed.channel();
    const bea = await seed.member({ firstName: 'Bea', lastName: 'Away' });
    await seed.addToChannel(channel.id, [bea.id]);

    const a = await openAs(browser, server.baseURL, admin);
    const b = await openAs(browser, server.baseURL, bea);
    const pages: RoomPage[] = [a, b];
    try {
      for (const { page } of pages) await page.goto(roomUrl(channel.rtcSession));
      await connectedPeer(b.page, admin.id);
      await connectedPeer(a.page, bea.id);

      await server.restart(signal);

      // Back with new socket ids, voice connected again, without a reload.
      const adaAtB = await settledPeer(b.page, a.page, admin.id);
      const beaAtA = await settledPeer(a.page, b.page, bea.id);
      await expect(a.page.getByText('Connected', { exact: true }).first()).toBeVisible();
      for (const { page } of pages) await expect(page.getByText('Connection to the server lost')).toHaveCount(0);
      await talkAndHear(a.page, b.page, adaAtB);
      await talkAndHear(b.page, a.page, beaAtA);

      // B goes offline; what is said meanwhile shows in its page once it is back.
      await b.page.getByRole('button', { name: 'Messages' }).click();
      const chatB = b.page.getByRole('region', { name: 'Messages' });
      await expect(chatB).toBeVisible();
      await b.page.context().setOffline(true);
      await expect(b.page.getByText(/^Offline: the connection will come back/).first()).toBeVisible();
      const said = await server.call(
        '/user/api/sendMessageToChannel',
        { channelId: channel.id, message: 'Said while you were away' },
        admin.token,
      );
      expect(said.status).toBe(200);
      await b.page.context().setOffline(false);
      await expect(chatB.getByRole('listitem', { name: 'Message from Ada Lovelace' }).last()).toContainText(
        'Said while you were away',
      );
      await expect(chatB.getByText('Said while you were away')).toHaveCount(1);
      await connectedPeer(b.page, admin.id);
    } finally {
      for (const { close } of pages) await close();
    }
  });
}

test('a session ended elsewhere closes the room and signs the page out', async ({ browser, server, admin, seed }) => {
  const channel = await seed.channel();
  const bea = await seed.member({ firstName: 'Bea', lastName: 'Revoked' });
  await seed.addToChannel(channel.id, [bea.id]);
  const b = await openAs(browser, server.baseURL, bea);
  try {
    await b.page.goto(roomUrl(channel.rtcSession));
    await expect(b.page.getByText('Connected', { exact: true })).toBeVisible();
    const revoked = await server.call('/user/api/deleteUserTokens/', { userId: bea.id }, admin.token);
    expect(revoked.status).toBe(200);
    await expect(b.page).toHaveURL(/\/signin$/);
  } finally {
    await b.close();
  }
});
