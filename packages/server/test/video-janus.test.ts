/**
 * Live video through the media server (issue 61 items 3 and 5): with JANUS_URL a stream goes through a VideoRoom
 * room of its channel's own, apart from its voice rooms. The sharer's end (a real RTCPeerConnection in headless
 * Chromium, a moving canvas sent with two simulcast layers) publishes through the server (`video_publish`); each
 * viewer the audience lets in gets Janus's offer, more than the mesh's 4; a tile receives the low layer and
 * `video_layer` switches to the high one; a member outside the audience, or a page that is not the sharer's, gets
 * nothing from Janus; hostile payloads end their call only; the stream's end leaves Janus, and Janus's recording,
 * converted to WebM, is listed in the channel's history and plays. Issue 69: a viewer removed from the channel is
 * let go at once (its subscription leaves Janus); the sharer's upload is refused before, during and after the
 * conversion, and the server's recording is listed with its SHA-256 and its source.
 */
import { createHash } from 'node:crypto';
import type { Browser, Page } from '@playwright/test';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseVideoConfig } from '../src/config/video.ts';
import { VIDEO_ROOM_BASE } from '../src/video/janus-video.ts';
import { isWebmVideo } from '../src/video/webm.ts';
import { multipartForm } from './chat-fixtures.ts';
import { janusInspector, type TestJanus, testJanus } from './janus-harness.ts';
import { launchMediaBrowser } from './media-browser.ts';
import type { TestClient } from './realtime-harness.ts';
import { type VideoWorld, videoWorld, webmVideo } from './video-world.ts';

declare global {
  interface Window {
    __video?: Record<string, RTCPeerConnection>;
  }
}

/** The sharer's end: a moving canvas, simulcast (rids h then l), every candidate in the offer. */
function publisherOffer(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const canvas = document.createElement('canvas');
    canvas.width = 640;
    canvas.height = 480;
    const context = canvas.getContext('2d') as CanvasRenderingContext2D;
    let tick = 0;
    setInterval(() => {
      tick += 1;
      context.fillStyle = `hsl(${(tick * 7) % 360} 80% 50%)`;
      context.fillRect(0, 0, 640, 480);
      context.fillStyle = '#fff';
      context.fillRect((tick * 9) % 600, (tick * 5) % 440, 40, 40);
    }, 33);
    const stream = canvas.captureStream(30);
    const pc = new RTCPeerConnection();
    pc.addTransceiver(stream.getVideoTracks()[0], {
      direction: 'sendonly',
      streams: [stream],
      sendEncodings: [
        { rid: 'h', maxBitrate: 1_200_000 },
        { rid: 'l', maxBitrate: 200_000, scaleResolutionDownBy: 4 },
      ],
    });
    window.__video = { ...window.__video, sharer: pc };
    await pc.setLocalDescription(await pc.createOffer());
    await new Promise<void>((resolve) => {
      if (pc.iceGatheringState === 'complete') return resolve();
      pc.addEventListener('icegatheringstatechange', () => pc.iceGatheringState === 'complete' && resolve());
    });
    return pc.localDescription?.sdp ?? '';
  });
}

/** A viewer's end: answers Janus's offer (receive only), every candidate in the answer. */
function viewerAnswer(page: Page, name: string, offer: string): Promise<string> {
  return page.evaluate(
    async ([name, offer]) => {
      const pc = new RTCPeerConnection();
      window.__video = { ...window.__video, [name]: pc };
      pc.ontrack = (event) => {
        const element = document.createElement('video');
        element.muted = true;
        element.srcObject = event.streams[0] ?? new MediaStream([event.track]);
        void element.play();
      };
      await pc.setRemoteDescription({ type: 'offer', sdp: offer });
      await pc.setLocalDescription(await pc.createAnswer());
      await new Promise<void>((resolve) => {
        if (pc.iceGatheringState === 'complete') return resolve();
        pc.addEventListener('icegatheringstatechange', () => pc.iceGatheringState === 'complete' && resolve());
      });
      return pc.localDescription?.sdp ?? '';
    },
    [name, offer] as const,
  );
}

/** What a viewer's end receives now: frames decoded and their width. */
function received(page: Page, name: string): Promise<{ frames: number; width: number }> {
  return page.evaluate(async (name) => {
    const pc = window.__video?.[name];
    let frames = 0;
    let width = 0;
    for (const report of (await pc?.getStats())?.values() ?? [])
      if (report.type === 'inbound-rtp' && report.kind === 'video') {
        frames = report.framesDecoded ?? 0;
        width = report.frameWidth ?? 0;
      }
    return { frames, width };
  }, name);
}

describe('live video through the media server', { timeout: 180_000 }, () => {
  let janus: TestJanus;
  let browser: Browser;
  let w: VideoWorld;
  beforeAll(async () => {
    [janus, browser] = await Promise.all([testJanus(), launchMediaBrowser()]);
  });
  afterAll(async () => {
    await Promise.all([browser?.close(), janus?.stop()]);
  });
  afterEach(async () => {
    await w?.close();
  });

  it('publishes once with simulcast, subscribes each viewer the audience lets in, switches layers and keeps Janus’s recording', async () => {
    w = await videoWorld('sqlite', { janusUrls: [janus.url], janusApiSecret: janus.secret });
    const page = await browser.newPage();
    await page.goto(`${w.url}/media-test`).catch(() => {});
    const inspector = await janusInspector(janus.url);
    try {
      const phone = await w.inRoom(w.mia);
      const started = await phone.emitAck('video_start', { room: w.field.rtcSession });
      expect(started).toEqual({ success: true, streamId: expect.any(String), maxViewers: null, via: 'server' });
      const { streamId } = started as unknown as { streamId: string };

      // Dana's console watches before the sharer's connection is up: Janus's offer comes once it is.
      const desk = await w.open(w.dana, { console: true });
      const offered = desk.next('video_offer');
      expect(await desk.emitAck('video_watch', { streamId })).toEqual({ success: true, streamId });

      // Only the page that started it publishes it; bad payloads end their call, nothing else.
      const olafPhone = await w.inRoom(w.olaf);
      const offer = await publisherOffer(page);
      expect(await olafPhone.emitAck('video_publish', { streamId, sdp: offer })).toMatchObject({ success: false });
      expect(await phone.emitAck('video_publish', { streamId, sdp: 42 })).toMatchObject({ success: false });
      expect(await phone.emitAck('video_publish', { streamId: '../../etc', sdp: offer })).toMatchObject({
        success: false,
      });
      // A description Janus cannot take: refused with a sentence; the page may publish after.
      expect(await phone.emitAck('video_publish', { streamId, sdp: 'v=0\r\nnot an offer' })).toEqual({
        success: false,
        result: expect.stringMatching(/^video_publish: the media server refused it/),
      });
      const published = (await phone.emitAck('video_publish', { streamId, sdp: offer })) as unknown as {
        success: boolean;
        sdp: string;
      };
      expect(published.success).toBe(true);
      expect(published.sdp).toMatch(/^v=0/);
      await page.evaluate((sdp) => window.__video?.sharer.setRemoteDescription({ type: 'answer', sdp }), published.sdp);

      // The channel's video room, apart from its voice rooms: its publisher is the sharer.
      const room = VIDEO_ROOM_BASE + w.field.id;
      await expect.poll(async () => (await inspector.participants(room)).filter((p) => p.publisher).length).toBe(1);
      expect(await inspector.exists(w.field.id)).toBe(false);

      // A member outside the audience ('dispatch'): refused, no offer; its answers and layers go nowhere.
      expect(await olafPhone.emitAck('video_watch', { streamId })).toMatchObject({ success: false, status: 403 });
      expect(await olafPhone.emitAck('video_layer', { streamId, layer: 'high' })).toMatchObject({ success: false });
      olafPhone.socket.emit('video_answer', { streamId, sdp: 'v=0' });
      await olafPhone.flush();
      expect(olafPhone.all('video_offer')).toEqual([]);

      // Dana's console: Janus's offer, answered; the low layer first, then the high one.
      const janusOffer = (await offered) as { streamId: string; sdp: string };
      expect(janusOffer.streamId).toBe(streamId);
      desk.socket.emit('video_answer', { streamId, sdp: await viewerAnswer(page, 'dana', janusOffer.sdp) });
      await expect.poll(async () => (await received(page, 'dana')).frames, { timeout: 30_000 }).toBeGreaterThan(10);
      await expect.poll(async () => (await received(page, 'dana')).width, { timeout: 30_000 }).toBe(160);
      expect(await desk.emitAck('video_layer', { streamId, layer: 'high' })).toEqual({ success: true });
      await expect.poll(async () => (await received(page, 'dana')).width, { timeout: 30_000 }).toBe(640);
      expect(await desk.emitAck('video_layer', { streamId, layer: 'low' })).toEqual({ success: true });
      await expect.poll(async () => (await received(page, 'dana')).width, { timeout: 30_000 }).toBe(160);

      // More viewers than the mesh's 4: each gets an offer of its own.
      const more: TestClient[] = [];
      for (let i = 0; i < 5; i++) more.push(await w.open(i % 2 ? w.admin : w.dana, { console: true }));
      for (const viewer of more) {
        const next = viewer.next('video_offer');
        expect(await viewer.emitAck('video_watch', { streamId })).toEqual({ success: true, streamId });
        expect(((await next) as { sdp: string }).sdp).toMatch(/m=video/);
      }
      expect(await more[0].emitAck('video_answer', { streamId, sdp: 'v=0\r\nnot an answer' })).toEqual({
        success: false,
        result: expect.stringMatching(/^video_answer: the media server refused it/),
      });
      const listed = await w.app.call('/user/api/getLiveVideos', { channelId: w.field.id }, w.dana.token);
      expect(listed.body.res).toEqual([
        expect.objectContaining({ streamId, viewers: 6, maxViewers: null, via: 'server' }),
      ]);

      // Dana removed from the channel (issue 69): each of her pages is let go at once, told `no_right`, and her
      // subscriptions leave Janus (her frames stop); the administrators' go on.
      const danaPages = [desk, more[0], more[2], more[4]];
      const removed = await w.app.call(
        '/user/api/deleteUserFromChannel',
        { userId: w.dana.id, channelId: w.field.id },
        w.admin.token,
      );
      expect(removed.status).toBe(200);
      for (const viewer of danaPages)
        expect(await viewer.next('video_ended', (e) => e.streamId === streamId)).toMatchObject({ reason: 'no_right' });
      const stillListed = await w.app.call('/user/api/getLiveVideos', { channelId: w.field.id }, w.admin.token);
      expect(stillListed.body.res).toEqual([expect.objectContaining({ streamId, viewers: 2 })]);
      let lastFrames = -1;
      await expect
        .poll(
          async () => {
            const { frames } = await received(page, 'dana');
            const still = frames === lastFrames;
            lastFrames = frames;
            return still;
          },
          { timeout: 30_000, interval: 1000 },
        )
        .toBe(true);
      expect(await desk.emitAck('video_layer', { streamId, layer: 'high' })).toMatchObject({ success: false });

      // The server records it: the sharer's own upload is refused while it is live (issue 69)...
      const upload = async () => {
        const form = multipartForm(
          { streamId, durationMs: 5000 },
          { field: 'video', fileName: 'clip.webm', contentType: 'video/webm', bytes: webmVideo(50_000) },
        );
        const answer = await w.app.fastify.inject({
          method: 'POST',
          url: '/user/api/uploadVideo',
          headers: { 'content-type': form.contentType, 'x-access-token': w.mia.token },
          payload: form.payload,
        });
        return { status: answer.statusCode, body: answer.json() };
      };
      const refusedUpload = { status: 409, body: { code: 'video_recorded_by_server' } };
      expect(await upload()).toMatchObject(refusedUpload);

      // Stopped: the publisher leaves, the room goes with it; Janus's recording is kept as WebM and plays.
      await new Promise((resolve) => setTimeout(resolve, 2000));
      expect(await phone.emitAck('video_stop', { streamId })).toEqual({ success: true });
      // ...right after its stop, while Janus's recording is converted: it would have taken the recording's place.
      expect(await upload()).toMatchObject(refusedUpload);
      await expect.poll(async () => inspector.exists(room)).toBe(false);
      const videos = async () =>
        (await w.app.call('/user/api/getChannelVideos', { channelId: w.field.id }, w.admin.token)).body.res as Array<{
          id: number;
          streamId: string;
          durationMs: number;
          url: string;
          sha256: string | null;
        }>;
      await expect.poll(async () => (await videos()).length, { timeout: 60_000 }).toBe(1);
      const [kept] = await videos();
      expect(kept).toMatchObject({ streamId, userId: w.mia.id });
      expect(kept.durationMs).toBeGreaterThan(1000);
      const file = await w.app.fastify.inject({ method: 'GET', url: kept.url });
      expect(file.statusCode).toBe(200);
      expect(isWebmVideo(new Uint8Array(file.rawPayload))).toBe(true);
      // The server's recording, with its file's hash; and still no upload takes its place after.
      expect(kept).toMatchObject({
        source: 'server',
        sha256: createHash('sha256').update(file.rawPayload).digest('hex'),
      });
      expect(await upload()).toMatchObject(refusedUpload);
      expect(await videos()).toEqual([expect.objectContaining({ id: kept.id, sha256: kept.sha256, source: 'server' })]);
    } finally {
      await inspector.close();
      await page.close();
    }
  });

  it('tells a viewer, in its language, when the sharer starts but never publishes, and lets it watch again', async () => {
    w = await videoWorld('sqlite', {
      janusUrls: [janus.url],
      janusApiSecret: janus.secret,
      video: { ...parseVideoConfig({}), publisherWaitMs: 1500 },
    });
    const phone = await w.inRoom(w.mia);
    const streamId = await w.share(phone);
    const desk = await w.open(w.dana, { console: true, language: 'fr' });
    const unavailable = desk.next('video_unavailable');
    expect(await desk.emitAck('video_watch', { streamId })).toEqual({ success: true, streamId });
    expect(await unavailable).toEqual({
      streamId,
      code: 'video_unpublished',
      result: expect.stringMatching(/^La vidéo n’est pas parvenue au serveur/),
    });
    expect(desk.all('video_offer')).toEqual([]);
    // Its place is freed: the list counts no viewer, and the page may watch again (told again, still unpublished).
    const listed = await w.app.call('/user/api/getLiveVideos', {}, w.dana.token);
    expect(listed.body.res).toEqual([expect.objectContaining({ streamId, viewers: 0 })]);
    const again = desk.next('video_unavailable');
    expect(await desk.emitAck('video_watch', { streamId })).toEqual({ success: true, streamId });
    expect(await again).toMatchObject({ streamId, code: 'video_unpublished' });
    expect(await phone.emitAck('video_stop', { streamId })).toEqual({ success: true });
  });

  it('ends a stream whose connection to Janus is over, or whose Janus is lost, keeps what was recorded, and shares peer to peer until one answers', async () => {
    const lost = await testJanus();
    w = await videoWorld('sqlite', { janusUrls: [lost.url], janusApiSecret: lost.secret });
    const page = await browser.newPage();
    await page.goto(`${w.url}/media-test`).catch(() => {});
    try {
      const phone = await w.inRoom(w.mia);
      const desk = await w.open(w.dana, { console: true });
      /** A stream published from the page, its connection to Janus up. */
      const published = async () => {
        const streamId = await w.share(phone);
        const answer = (await phone.emitAck('video_publish', {
          streamId,
          sdp: await publisherOffer(page),
        })) as unknown as { success: boolean; sdp: string };
        expect(answer.success).toBe(true);
        await page.evaluate((sdp) => window.__video?.sharer.setRemoteDescription({ type: 'answer', sdp }), answer.sdp);
        await expect.poll(() => page.evaluate(() => window.__video?.sharer.connectionState)).toBe('connected');
        // Frames on their way, not only a connection: Janus records what it receives, and a stream that ends
        // before its first frames has nothing to keep (beside a loaded machine the first came after seconds).
        await expect
          .poll(
            () =>
              page.evaluate(async () => {
                let frames = 0;
                (await window.__video?.sharer.getStats())?.forEach((report) => {
                  if (report.type === 'outbound-rtp' && report.kind === 'video') frames += report.framesSent ?? 0;
                });
                return frames;
              }),
            { timeout: 60_000 },
          )
          .toBeGreaterThanOrEqual(30);
        return streamId;
      };

      // The sharer's connection to Janus closed (the socket still there): the stream ends.
      const closed = await published();
      await page.evaluate(() => window.__video?.sharer.close());
      expect(await desk.next('video_ended', (e) => e.streamId === closed)).toMatchObject({ reason: 'closed' });

      const streamId = await published();

      await lost.kill();
      const ended = { room: w.field.rtcSession, channelId: w.field.id, streamId, reason: 'closed' };
      expect(await phone.next('video_ended', (e) => e.streamId === streamId)).toEqual(ended);
      expect(await desk.next('video_ended', (e) => e.streamId === streamId)).toEqual(ended);
      const live = await w.app.call('/user/api/getLiveVideos', {}, w.dana.token);
      expect(live.body.res).toEqual([]);
      await expect
        .poll(
          async () =>
            (await w.app.call('/user/api/getChannelVideos', { channelId: w.field.id }, w.dana.token)).body.res.length,
          { timeout: 60_000 },
        )
        .toBe(2);

      // No Janus answers: the next stream goes peer to peer.
      const other = await w.inRoom(w.olaf);
      expect(await other.emitAck('video_start', { room: w.field.rtcSession })).toMatchObject({ via: 'mesh' });
    } finally {
      await page.close();
      await lost.stop();
    }
  });
});
