/**
 * Live video through the media server (issue 61 items 3 and 5), in Chromium with its fake camera: with JANUS_URL a
 * member's video reaches a dispatcher's console through Janus's VideoRoom, frames moving in the channel's tile on
 * the low simulcast layer; "Plein écran" switches to the high layer (a larger picture received, not only shown);
 * a capture from the tile takes its frame from the high layer; video never changes the voice path; at "Stop video"
 * Janus's recording is converted and listed in the channel's history, and the phone uploads nothing (one
 * recording, kept by the server).
 */
import { expect, test } from './fixtures.ts';
import { janusDeployment, stopLeftovers, transportOf } from './media-servers.ts';
import { deskOn, expectMovingFrames, frameOf, phoneIn, shareVideo, videoLaunchOptions } from './video-support.ts';

test.use({ launchOptions: videoLaunchOptions });
test.describe.configure({ timeout: 300_000 });
test.afterEach(stopLeftovers);

test("through Janus, a member's live video reaches the console on its low layer, full screen takes the high one, and Janus's recording is listed", async ({
  browser,
}) => {
  const deployment = await janusDeployment();
  const { server, seed } = deployment;
  const field = await seed.channel();
  const mia = await seed.member({ firstName: 'Mia', lastName: 'Phone' });
  const dana = await seed.member({ firstName: 'Dana', lastName: 'Desk', role: 'dispatcher' });
  await seed.addToChannel(field.id, [mia.id, dana.id]);

  const phone = await phoneIn(browser, server, mia, field.id);
  const desk = await deskOn(browser, server, dana, [field.id], { language: 'fr' });
  try {
    await expect(transportOf(phone.page)).toHaveText('Voice through the server', { timeout: 60_000 });
    await shareVideo(phone);
    await expect(phone.page.getByLabel('Your video')).toBeVisible();

    const tile = desk.page.getByRole('region', { name: `Canal ${field.name}` });
    const stream = tile
      .getByRole('region', { name: `Vidéos en direct — ${field.name}` })
      .getByRole('group', { name: 'Vidéo en direct — Mia Phone' });
    const small = stream.getByLabel('Vidéo de Mia Phone');
    await expectMovingFrames(small);
    const live = await server.call('/user/api/getLiveVideos', { channelId: field.id }, dana.token);
    expect(live.body.res).toEqual([expect.objectContaining({ name: 'Mia Phone', via: 'server', maxViewers: null })]);
    // The tile receives the low layer: a quarter of the camera's width (the fake camera's 640 px).
    await expect.poll(async () => (await frameOf(small)).width, { timeout: 60_000 }).toBe(160);

    // Full screen: the high layer, the whole picture.
    await stream.getByRole('button', { name: 'Plein écran' }).click();
    const large = desk.page.getByRole('dialog', { name: 'Vidéo de Mia Phone' });
    const big = large.getByLabel('Vidéo de Mia Phone');
    await expect.poll(async () => (await frameOf(big)).width, { timeout: 60_000 }).toBe(640);
    await expectMovingFrames(big);
    await large.getByRole('button', { name: 'Fermer' }).click();
    await expect(large).toBeHidden();
    await expect.poll(async () => (await frameOf(small)).width, { timeout: 60_000 }).toBe(160);
    // The voice path is as it was.
    await expect(transportOf(phone.page)).toHaveText('Voice through the server');

    // Capture from the tile: a frame of the high layer goes to the chat, and the tile is back on the low one.
    await stream.getByRole('button', { name: 'Capture' }).click();
    await expect(desk.page.getByText(`Capture envoyée dans le chat de ${field.name}.`)).toBeVisible();
    const messages = await server.call('/user/api/getchannelmessagelistForAdmin', { channelId: field.id }, dana.token);
    const capture = (messages.body.discussion as Array<{ textMsg: string; file: { path: string } | null }>).find(
      (message) => message.textMsg.startsWith('Capture de la vidéo de Mia Phone à '),
    );
    expect(capture?.file?.path).toBeTruthy();
    await expect.poll(async () => (await frameOf(small)).width, { timeout: 60_000 }).toBe(160);

    // Stop: gone from the console; the server's recording is listed once, and the phone uploads nothing.
    await phone.page.getByRole('button', { name: 'Stop video' }).click();
    await expect(stream).toBeHidden();
    const videos = async () =>
      (await server.call('/user/api/getChannelVideos', { channelId: field.id }, dana.token)).body.res as Array<{
        name: string;
        durationMs: number;
        url: string;
      }>;
    await expect.poll(async () => (await videos()).length, { timeout: 90_000 }).toBe(1);
    const [kept] = await videos();
    expect(kept.name).toBe('Mia Phone');
    expect(kept.durationMs).toBeGreaterThan(1000);
    const file = await desk.page.request.get(new URL(kept.url, server.baseURL).toString());
    expect(file.status()).toBe(200);
    expect(file.headers()['content-type']).toBe('video/webm');
    await expect(phone.page.getByText('Video recording uploaded.')).toHaveCount(0);
    await expect(phone.page.getByRole('button', { name: 'Video', exact: true })).toBeEnabled();
  } finally {
    await Promise.all([phone.close(), desk.close()]);
    await deployment.stop();
  }
});
