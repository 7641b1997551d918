/**
 * Rate limits of socket events (per socket and per event kind) and of chat and upload calls: a flood is
 * answered with clear errors while the server, the other event kinds and the other sockets keep working. Issue
 * 60's events (device_status and ambient listening's signalling) included.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChannelSummary } from '../src/channels/store.ts';
import { DEFAULT_EVENT_BUDGET, EVENT_BUDGETS } from '../src/realtime/event-limits.ts';
import { pngImage, upload } from './chat-fixtures.ts';
import { type Account, createMember, databases, signUpAdmin, startApp, type TestApp } from './harness.ts';
import { connect, listen, type TestClient } from './realtime-harness.ts';

describe.each(databases)('floods on %s', (dialect) => {
  let app: TestApp;
  let url: string;
  let admin: Account;
  let alice: Account;
  let bob: Account;
  let red: ChannelSummary;
  const clients: TestClient[] = [];

  const joined = async (account: Account) => {
    const client = await connect(url, account.token);
    clients.push(client);
    client.socket.emit('join_room', { room: red.rtcSession, name: '' });
    await client.next('all_users');
    return client;
  };

  beforeEach(async () => {
    app = await startApp(dialect, { chatMessagesPerMinute: 40 });
    url = await listen(app);
    admin = await signUpAdmin(app);
    alice = await createMember(app, admin, { firstName: 'Alice' });
    bob = await createMember(app, admin, { firstName: 'Bob' });
    red = await app.services.channels.create('Red');
    await app.services.memberships.add(red.id, [alice.id, bob.id]);
  });
  afterEach(async () => {
    for (const client of clients.splice(0)) client.close();
    await app.close();
  });

  it('refuses a flood of one event kind with errors, and the socket, others and HTTP keep working', async () => {
    const a = await joined(alice);
    const b = await joined(bob);
    const flood = 400;
    const acks = await Promise.all(Array.from({ length: flood }, () => a.emitAck('typing', { room: red.rtcSession })));
    const refused = acks.filter((ack) => !ack.success);
    expect(acks.filter((ack) => ack.success).length).toBeGreaterThanOrEqual(EVENT_BUDGETS.typing.burst);
    expect(refused.length).toBeGreaterThan(flood / 2);
    expect(refused[0]).toEqual({ success: false, result: 'typing: too many events, slow down.' });
    expect(await a.next('error')).toEqual({ message: 'typing: too many events, slow down.' });
    // One error event for the burst, not one per refused event.
    expect(a.all('error').length).toBeLessThan(5);

    // Another kind of the same socket, another socket and HTTP answer at once.
    expect(await a.emitAck('message', { channelId: red.id, message: 'still here' })).toEqual({ success: true });
    expect(await b.next('messageResponse', (m) => m.textMsg === 'still here')).toBeTruthy();
    expect(await b.emitAck('typing', { room: red.rtcSession })).toEqual({ success: true });
    expect((await app.fastify.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
  });

  it("refuses floods of issue 60's events kind by kind, and the listening, the socket's other events and others keep working", async () => {
    expect((await app.call('/user/api/setSafetySettings', { ambientListening: 'announced' }, admin.token)).status).toBe(
      200,
    );
    const phone = await connect(url, alice.token, { talkPage: true });
    const desk = await connect(url, admin.token);
    const b = await joined(bob);
    clients.push(phone, desk);
    const { listeningId } = (await app.call('/user/api/startAmbientListening', { userId: alice.id }, admin.token)).body
      .res;
    await phone.next('ambient_start');
    expect(await phone.emitAck('ambient_offer', { listeningId, sdp: 'v=0 offer' })).toEqual({ success: true });
    await desk.next('ambient_offer');
    expect(await desk.emitAck('ambient_answer', { listeningId, sdp: 'v=0 answer' })).toEqual({ success: true });
    await phone.next('ambient_answer');

    const report = {
      battery: { level: 0.5, charging: false },
      network: { online: true, effectiveType: '4g' },
      visible: true,
      appVersion: '2.0.2',
    };
    const candidate = {
      listeningId,
      candidate: { candidate: 'candidate:1 1 udp 1 192.0.2.1 9 typ host', sdpMid: '0' },
    };
    const floods: Array<[TestClient, string, unknown, number]> = [
      [phone, 'device_status', report, 100],
      [phone, 'ambient_offer', { listeningId, sdp: 'v=0 offer again' }, 150],
      [phone, 'ambient_candidate', candidate, 500],
      [desk, 'ambient_answer', { listeningId, sdp: 'v=0 answer again' }, 150],
    ];
    for (const [client, event, payload, flood] of floods) {
      const acks = await Promise.all(Array.from({ length: flood }, () => client.emitAck(event, payload)));
      const budget = EVENT_BUDGETS[event] ?? DEFAULT_EVENT_BUDGET;
      // At least its burst, less the offer and the answer that bound the listening above.
      expect(acks.filter((ack) => ack.success).length, event).toBeGreaterThanOrEqual(budget.burst - 1);
      const refused = acks.filter((ack) => !ack.success);
      expect(refused.length, event).toBeGreaterThan(flood / 2);
      expect(new Set(refused.map((ack) => ack.result)), event).toEqual(
        new Set([`${event}: too many events, slow down.`]),
      );
    }

    // The socket's other events, the listening's other direction, another socket and HTTP answer at once.
    expect(await phone.emitAck('message', { channelId: red.id, message: 'still here' })).toEqual({ success: true });
    expect(await b.next('messageResponse', (m) => m.textMsg === 'still here')).toBeTruthy();
    expect(await desk.emitAck('ambient_candidate', { listeningId, candidate: null })).toEqual({ success: true });
    expect(await phone.next('ambient_candidate', (c) => c.candidate === null)).toEqual({
      listeningId,
      candidate: null,
    });
    expect(await b.emitAck('typing', { room: red.rtcSession })).toEqual({ success: true });
    expect((await app.fastify.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    expect((await app.call('/user/api/stopAmbientListening', { listeningId }, admin.token)).status).toBe(200);
    expect(app.services.faults.counts().socket_event).toBe(0);
  });

  it('limits chat messages per user across HTTP and socket with a clear 429', async () => {
    const a = await joined(alice);
    const statuses: number[] = [];
    for (let i = 0; i < 40; i += 1) {
      const sent = await app.call(
        '/user/api/sendMessageToChannel',
        { channelId: red.id, message: `m${i}` },
        alice.token,
      );
      statuses.push(sent.status);
    }
    expect(statuses.every((s) => s === 200)).toBe(true);
    const over = await app.call(
      '/user/api/sendMessageToChannel',
      { channelId: red.id, message: 'one more' },
      alice.token,
    );
    expect(over.status).toBe(429);
    expect(over.body).toMatchObject({
      success: false,
      result: expect.stringMatching(/Too many messages: wait \d+ seconds/),
    });
    expect(await a.emitAck('message', { channelId: red.id, message: 'by socket' })).toEqual({
      success: false,
      result: expect.stringMatching(/^message: Too many messages: wait \d+ seconds/),
    });
    // Bob has his own count.
    const fromBob = await app.call('/user/api/sendMessageToChannel', { channelId: red.id, message: 'hi' }, bob.token);
    expect(fromBob.status).toBe(200);
  });

  it('limits uploads per user with a clear 429, before the file is read', async () => {
    const image = { fileName: 'p.png', contentType: 'image/png', bytes: pngImage(2, 2) };
    for (let i = 0; i < 10; i += 1) {
      expect((await upload(app, alice.token, { channelId: red.id }, image)).status).toBe(200);
    }
    const over = await upload(app, alice.token, { channelId: red.id }, image);
    expect(over.status).toBe(429);
    expect(over.body.result).toMatch(/Too many uploads: wait \d+ seconds/);
  });
});
