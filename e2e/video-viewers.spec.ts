/**
 * Peer to peer, a live video has 4 viewers at most (issue 61 item 3): with its 4 places taken by other viewers'
 * sockets (real Socket.IO clients of an administrator's, as 4 console pages would be), a dispatcher's console shows
 * the server's sentence instead of the picture; once one of them stops watching, "Try again" plays the stream.
 */
import { io, type Socket } from 'socket.io-client';
import { test } from './fixtures.ts';
import { deskOn, expect, expectMovingFrames, phoneIn, shareVideo, videoLaunchOptions } from './video-support.ts';

test.use({ launchOptions: videoLaunchOptions });
test.describe.configure({ timeout: 300_000 });

function connected(baseURL: string, token: string): Promise<Socket> {
  const socket = io(baseURL, { query: { token }, auth: { app: 'console' }, transports: ['websocket'] });
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
  });
}

function watch(socket: Socket, streamId: string): Promise<{ success: boolean; result?: string }> {
  return new Promise((resolve) => socket.emit('video_watch', { streamId }, resolve));
}

test('the fifth viewer of a live video is told why, and watches once a place is free', async ({
  browser,
  server,
  admin,
  seed,
}) => {
  const field = await seed.channel();
  const mia = await seed.member({ firstName: 'Mia', lastName: 'Seen' });
  const dana = await seed.member({ firstName: 'Dana', lastName: 'Fifth', role: 'dispatcher' });
  await seed.addToChannel(field.id, [mia.id, dana.id]);
  const phone = await phoneIn(browser, server, mia, field.id);
  const viewers = await Promise.all([1, 2, 3, 4].map(() => connected(server.baseURL, admin.token)));
  let desk: Awaited<ReturnType<typeof deskOn>> | undefined;
  try {
    await shareVideo(phone);
    const live = await server.call('/user/api/getLiveVideos', { channelId: field.id }, admin.token);
    const streamId: string = live.body.res[0].streamId;
    for (const viewer of viewers) expect(await watch(viewer, streamId)).toMatchObject({ success: true });

    desk = await deskOn(browser, server, dana, [field.id]);
    const stream = desk.page
      .getByRole('region', { name: `Channel ${field.name}` })
      .getByRole('group', { name: 'Live video — Mia Seen' });
    await expect(stream.getByRole('alert')).toContainText('This live video already has its 4 viewers');
    await expect(stream.getByLabel('Video of Mia Seen')).toHaveCount(0);

    viewers[0].emit('video_unwatch', { streamId });
    await stream.getByRole('button', { name: 'Try again' }).click();
    await expectMovingFrames(stream.getByLabel('Video of Mia Seen'));
  } finally {
    for (const viewer of viewers) viewer.disconnect();
    await Promise.all([phone.close(), desk?.close()]);
  }
});
