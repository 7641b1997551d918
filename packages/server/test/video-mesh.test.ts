/**
 * Live video peer to peer (issue 61 item 3, no media server): a viewer of the stream's audience takes one of its 4
 * places (`video_watch`; the sharer's page is told to offer it), the fifth is told why, one outside the audience
 * too; the offer, the answer and the candidates pass only between the sharer's socket and that viewer's socket,
 * nobody else may inject one, and a flood is cut short; a place freed (unwatched, a page gone) goes to another.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { databases } from './harness.ts';
import type { TestClient } from './realtime-harness.ts';
import { type VideoWorld, videoWorld } from './video-world.ts';

const SDP = 'v=0 offer';
const CANDIDATE = { candidate: 'candidate:1 1 udp 2122260223 192.0.2.1 54400 typ host', sdpMid: '0', sdpMLineIndex: 0 };

describe.each(databases)('live video peer to peer on %s', { timeout: 90_000 }, (dialect) => {
  let w: VideoWorld;
  afterEach(async () => {
    await w.close();
  });
  const nothing = async (pages: TestClient[], events: string[]) => {
    for (const page of pages) await page.flush();
    for (const page of pages) for (const event of events) expect(page.all(event), event).toEqual([]);
  };

  it('gives 4 places, tells the fifth and one outside the audience why, and frees a place when a viewer goes', async () => {
    w = await videoWorld(dialect);
    const phone = await w.inRoom(w.mia);
    const streamId = await w.share(phone);
    const [d1, d2] = [await w.open(w.dana, { console: true }), await w.open(w.dana, { console: true })];
    const [a1, a2] = [await w.open(w.admin, { console: true }), await w.open(w.admin, { console: true })];
    const olafPhone = await w.inRoom(w.olaf);

    expect(await olafPhone.emitAck('video_watch', { streamId })).toEqual({
      success: false,
      status: 403,
      code: 'video_not_audience',
      result: 'Only the dispatchers of this channel and the administrators watch its live video.',
    });
    const danaName = (await w.app.services.users.row(w.dana.id))?.display_name;
    expect(await phone.emitAck('video_watch', { streamId })).toEqual({
      success: false,
      result: 'video_watch: this page shares this video itself.',
    });
    expect(await d1.emitAck('video_watch', { streamId })).toEqual({ success: true, streamId });
    expect(await phone.next('video_viewer')).toEqual({
      streamId,
      viewerSocketId: d1.id,
      userId: w.dana.id,
      name: danaName,
    });
    for (const viewer of [d2, a1, a2]) {
      expect(await viewer.emitAck('video_watch', { streamId })).toEqual({ success: true, streamId });
      expect(await phone.next('video_viewer')).toMatchObject({ viewerSocketId: viewer.id });
    }
    const listed = (await w.app.call('/user/api/getLiveVideos', {}, w.dana.token)).body.res;
    expect(listed).toEqual([expect.objectContaining({ streamId, viewers: 4, maxViewers: 4 })]);

    // Every member may watch now, but the 4 places are taken.
    await w.app.call(
      '/user/api/updateChannel',
      { channelId: w.field.id, channelName: 'Field', videoAudience: 'channel' },
      w.admin.token,
    );
    expect(await olafPhone.emitAck('video_watch', { streamId })).toEqual({
      success: false,
      status: 409,
      code: 'video_viewers_full',
      result:
        'This live video already has its 4 viewers: it goes straight from the phone, which cannot send it to more. Try again when one of them closes it.',
    });
    // Watching again keeps one's place (the sharer offers again).
    expect(await d1.emitAck('video_watch', { streamId })).toEqual({ success: true, streamId });
    expect(await phone.next('video_viewer')).toMatchObject({ viewerSocketId: d1.id });

    expect(await a2.emitAck('video_unwatch', { streamId })).toEqual({ success: true });
    expect(await phone.next('video_viewer_left')).toEqual({ streamId, viewerSocketId: a2.id });
    expect(await a2.emitAck('video_unwatch', { streamId })).toMatchObject({ success: false, code: 'video_not_found' });
    expect(await olafPhone.emitAck('video_watch', { streamId })).toEqual({ success: true, streamId });
    const gone = d2.id;
    d2.close();
    expect(await phone.next('video_viewer_left')).toEqual({ streamId, viewerSocketId: gone });
    expect(await a2.emitAck('video_watch', { streamId })).toEqual({ success: true, streamId });

    expect(await a1.emitAck('video_watch', { streamId: 'gone-stream-id' })).toMatchObject({
      code: 'video_not_found',
      status: 404,
    });
    expect((await a1.emitAck('video_watch', {})).result).toMatch(/^video_watch: streamId/);
    expect(await phone.emitAck('video_stop', { streamId })).toEqual({ success: true });
    for (const viewer of [d1, a1, a2, olafPhone])
      expect(await viewer.next('video_ended')).toMatchObject({ streamId, reason: 'stopped' });
    expect(await d1.emitAck('video_watch', { streamId })).toMatchObject({ code: 'video_not_found' });
  });

  it('relays the offer, the answer and the candidates between the sharer and one viewer only', async () => {
    w = await videoWorld(dialect);
    const phone = await w.inRoom(w.mia);
    const streamId = await w.share(phone);
    const desk = await w.open(w.dana, { console: true });
    const other = await w.open(w.admin, { console: true });
    const stranger = await w.inRoom(w.olaf);
    for (const viewer of [desk, other]) await viewer.emitAck('video_watch', { streamId });

    expect(await phone.emitAck('video_offer', { streamId, viewerSocketId: desk.id, sdp: SDP })).toEqual({
      success: true,
    });
    expect(await desk.next('video_offer')).toEqual({ streamId, sdp: SDP });
    expect(await desk.emitAck('video_answer', { streamId, sdp: 'v=0 answer' })).toEqual({ success: true });
    expect(await phone.next('video_answer')).toEqual({ streamId, viewerSocketId: desk.id, sdp: 'v=0 answer' });
    const candidate = { streamId, viewerSocketId: desk.id, candidate: CANDIDATE };
    expect(await phone.emitAck('video_candidate', candidate)).toEqual({ success: true });
    expect(await desk.next('video_candidate')).toEqual({ streamId, candidate: CANDIDATE });
    expect(await desk.emitAck('video_candidate', { streamId, candidate: null })).toEqual({ success: true });
    expect(await phone.next('video_candidate')).toEqual({ streamId, viewerSocketId: desk.id, candidate: null });

    // Nobody else injects: a stranger, a viewer offering, the sharer answering, a socket that is no viewer.
    const refusals = [
      await stranger.emitAck('video_offer', { streamId, viewerSocketId: desk.id, sdp: SDP }),
      await stranger.emitAck('video_answer', { streamId, sdp: 'v=0 answer' }),
      await stranger.emitAck('video_candidate', { streamId, viewerSocketId: desk.id, candidate: CANDIDATE }),
      await other.emitAck('video_offer', { streamId, viewerSocketId: desk.id, sdp: SDP }),
      await phone.emitAck('video_answer', { streamId, viewerSocketId: desk.id, sdp: SDP }),
      await phone.emitAck('video_offer', { streamId, viewerSocketId: stranger.id, sdp: SDP }),
      await phone.emitAck('video_offer', { streamId, sdp: SDP }),
      await phone.emitAck('video_offer', { streamId: 'no-such-stream', viewerSocketId: desk.id, sdp: SDP }),
    ];
    for (const refused of refusals)
      expect(refused).toEqual({
        success: false,
        result: expect.stringMatching(/^video_(offer|answer|candidate): no such live video of yours/),
      });
    expect((await phone.emitAck('video_offer', { streamId, viewerSocketId: desk.id, sdp: '' })).result).toMatch(/sdp/);
    await nothing([other, stranger], ['video_offer', 'video_answer', 'video_candidate']);
    for (const page of [desk, phone]) await page.flush();
    // Only what passed above: one offer and one candidate to the viewer, one answer and one candidate back.
    expect([desk.all('video_offer'), desk.all('video_candidate')].map((events) => events.length)).toEqual([1, 1]);
    expect([phone.all('video_answer'), phone.all('video_candidate')].map((events) => events.length)).toEqual([1, 1]);

    // A flood of candidates is cut short at the door, the socket stays.
    const acks = await Promise.all(
      Array.from({ length: 260 }, () => phone.emitAck('video_candidate', { ...candidate, candidate: null })),
    );
    expect(acks.filter((ack) => ack.result === 'video_candidate: too many events, slow down.').length).toBeGreaterThan(
      0,
    );
    expect(phone.socket.connected).toBe(true);

    // Over: nothing passes any more.
    expect(await phone.emitAck('video_stop', { streamId })).toEqual({ success: true });
    expect((await desk.emitAck('video_answer', { streamId, sdp: 'v=0 answer' })).success).toBe(false);
  });
});
