/**
 * Hostile payloads on live video's socket events (issue 61): each one is answered, a bad one refused with a
 * sentence naming the event (or a refusal's code), and that is all it does. The socket stays connected, nothing
 * counts as a server fault, no prototype is polluted, and afterwards the stream still relays between its sharer and
 * its viewer. The payloads are the valid ones with each field (and the whole payload) replaced by hostile values,
 * plus seeded random JSON: the same run each time.
 */
import { SERVER_MESSAGE_CODES } from '@talkgroup/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_EVENT_BUDGET, EVENT_BUDGETS } from '../src/realtime/event-limits.ts';
import type { Account } from './harness.ts';
import { databases } from './harness.ts';
import { HOSTILE, randomJson, seeded } from './hostile-values.ts';
import { type VideoWorld, videoWorld } from './video-world.ts';

/** The event's field names that random JSON is made of. */
const KEYS = ['room', 'streamId', 'requestId', 'viewerSocketId', 'sdp', 'candidate', 'accepted', 'layer', 'x'];

/** The whole payload hostile, each field hostile or dropped, a field added, and random JSON. */
function mutationsOf(valid: Record<string, unknown>, random: () => number): unknown[] {
  const out: unknown[] = [undefined, ...HOSTILE, { ...valid, unexpected: 'field' }];
  for (const key of Object.keys(valid)) {
    const { [key]: _dropped, ...rest } = valid;
    out.push(rest);
    for (const hostile of HOSTILE) out.push({ ...valid, [key]: hostile });
  }
  for (let i = 0; i < 30; i += 1) out.push(randomJson(random, KEYS));
  return out;
}

describe.each(databases)('hostile payloads of live video on %s', { timeout: 180_000 }, (dialect) => {
  let w: VideoWorld;
  afterEach(async () => {
    await w.close();
  });

  it('answers each one, refuses the bad ones with a sentence, and ends nothing else', async () => {
    w = await videoWorld(dialect, { connectionRatePerMinute: 100_000 });
    const phone = await w.inRoom(w.mia);
    const streamId = await w.share(phone);
    const desk = await w.open(w.dana, { console: true });
    expect(await desk.emitAck('video_watch', { streamId })).toEqual({ success: true, streamId });
    const { requestId } = (
      await w.app.call('/user/api/requestVideo', { userId: w.mia.id, channelId: w.field.id }, w.dana.token)
    ).body.res;
    const room = w.field.rtcSession;
    const candidate = { candidate: 'candidate:1', sdpMid: '0' };
    const valid: Array<[string, Account, Record<string, unknown>]> = [
      ['video_start', w.olaf, { room, requestId }],
      ['video_stop', w.olaf, { room, streamId }],
      ['video_watch', w.admin, { streamId }],
      ['video_unwatch', w.admin, { streamId }],
      ['video_request_answer', w.olaf, { requestId, accepted: true }],
      ['video_offer', w.olaf, { streamId, viewerSocketId: desk.id, sdp: 'v=0 offer' }],
      ['video_answer', w.olaf, { streamId, sdp: 'v=0 answer' }],
      ['video_candidate', w.olaf, { streamId, viewerSocketId: desk.id, candidate }],
      // The media server's (refused on the mesh, and to anyone but the sharer or a viewer anyway).
      ['video_publish', w.olaf, { streamId, sdp: 'v=0 offer' }],
      ['video_layer', w.olaf, { streamId, layer: 'high' }],
    ];
    const random = seeded(61);
    let sent = 0;
    for (const [event, account, payload] of valid) {
      const payloads = mutationsOf(payload, random);
      // Under the event's budget on each socket: every payload reaches its handler, none is refused as a flood.
      const batch = (EVENT_BUDGETS[event] ?? DEFAULT_EVENT_BUDGET).burst - 2;
      for (let start = 0; start < payloads.length; start += batch) {
        const client = await w.open(account);
        for (const hostile of payloads.slice(start, start + batch)) {
          const ack = (await client.emitAck(event, hostile)) as { success: boolean; result?: string; code?: string };
          sent += 1;
          expect(typeof ack?.success, `${event} ${JSON.stringify(hostile)?.slice(0, 200)}`).toBe('boolean');
          if (ack.success) continue;
          if (ack.code) expect(SERVER_MESSAGE_CODES, event).toContain(ack.code);
          else expect(ack.result, event).toMatch(new RegExp(`^${event}: `));
          expect(ack.result, event).not.toMatch(/something went wrong|too many events/);
        }
        // Without an acknowledgement, and with more arguments than the event takes: the same.
        client.socket.emit(event, HOSTILE[start % HOSTILE.length]);
        client.socket.emit(event, payload, 'extra', 42);
        await client.flush();
        expect(client.socket.connected, event).toBe(true);
        client.close();
      }
    }
    expect(sent).toBeGreaterThan(400);

    expect(w.app.services.faults.counts().socket_event).toBe(0);
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
    // The stream still relays between its sharer and its viewer, and ends when its sharer stops it.
    expect(await phone.emitAck('video_offer', { streamId, viewerSocketId: desk.id, sdp: 'v=0 again' })).toEqual({
      success: true,
    });
    expect(await desk.next('video_offer', (offer) => offer.sdp === 'v=0 again')).toEqual({
      streamId,
      sdp: 'v=0 again',
    });
    expect(await phone.emitAck('video_stop', { streamId })).toEqual({ success: true });
    expect(await desk.next('video_ended')).toMatchObject({ streamId, reason: 'stopped' });
  });
});
