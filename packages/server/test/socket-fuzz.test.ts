/**
 * Hostile payloads on issue 60's socket events (device_status, ambient_offer, ambient_answer, ambient_candidate,
 * and emergency_alert's reason and userId): each one is answered, a bad one refused with a sentence naming the
 * event, and that is all it does. The socket stays connected, nothing counts as a server fault, no prototype is
 * polluted, and afterwards the same sockets report, listen and relay as before. The payloads are the valid ones
 * with each field (and the whole payload) replaced by hostile values, plus seeded random JSON: the same run each
 * time.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_EVENT_BUDGET, EVENT_BUDGETS } from '../src/realtime/event-limits.ts';
import { type Account, createMember, databases, signUpAdmin, startApp, type TestApp } from './harness.ts';
import { HOSTILE, randomJson, seeded } from './hostile-values.ts';
import { connect, listen, type TestClient } from './realtime-harness.ts';

/** Values no field expects: wrong types, bounds, sizes, shapes, and keys that would pollute a prototype. */
/** The event's field names that random JSON is made of. */
const KEYS = ['listeningId', 'sdp', 'candidate', 'battery', 'level', 'reason', 'userId', 'x'];

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Each field (and each field of a field) replaced by each hostile value, or dropped, or one added. */
function fieldMutations(valid: Record<string, unknown>, depth = 0): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [{ ...valid, unexpected: 'field' }];
  for (const [key, value] of Object.entries(valid)) {
    const { [key]: _dropped, ...rest } = valid;
    out.push(rest);
    for (const hostile of HOSTILE) out.push({ ...valid, [key]: hostile });
    if (depth === 0 && isRecord(value))
      for (const inner of fieldMutations(value, depth + 1)) out.push({ ...valid, [key]: inner });
  }
  return out;
}

/** The whole payload hostile, its fields hostile, and random JSON. */
function mutationsOf(valid: Record<string, unknown>, random: () => number): unknown[] {
  const out: unknown[] = [undefined, ...HOSTILE, ...fieldMutations(valid)];
  for (let i = 0; i < 40; i += 1) out.push(randomJson(random, KEYS));
  return out;
}

describe.each(databases)('hostile socket payloads of issue 60 on %s', { timeout: 180_000 }, (dialect) => {
  let app: TestApp;
  const clients: TestClient[] = [];
  afterEach(async () => {
    for (const client of clients.splice(0)) client.close();
    await app.close();
  });

  it('answers each one, refuses the bad ones with a sentence, and ends nothing else', async () => {
    // Many fresh sockets from one address: each batch gets its own event budget.
    app = await startApp(dialect, { connectionRatePerMinute: 100_000 });
    const url = await listen(app);
    const admin = await signUpAdmin(app);
    const mia = await createMember(app, admin, { firstName: 'Mia', lastName: 'Field' });
    const red = await app.services.channels.create('Red');
    await app.services.memberships.add(red.id, [mia.id]);
    expect((await app.call('/user/api/setSafetySettings', { ambientListening: 'announced' }, admin.token)).status).toBe(
      200,
    );
    const open = async (account: Account, talkPage = false) => {
      const client = await connect(url, account.token, { talkPage });
      clients.push(client);
      return client;
    };
    const phone = await open(mia, true);
    const desk = await open(admin);
    const { listeningId } = (await app.call('/user/api/startAmbientListening', { userId: mia.id }, admin.token)).body
      .res;
    await phone.next('ambient_start');
    // The two pages bind the listening first: a fuzzing page's valid signal is then a stranger's, refused.
    expect(await phone.emitAck('ambient_offer', { listeningId, sdp: 'v=0 offer' })).toEqual({ success: true });
    await desk.next('ambient_offer');
    expect(await desk.emitAck('ambient_answer', { listeningId, sdp: 'v=0 answer' })).toEqual({ success: true });
    await phone.next('ambient_answer');

    const random = seeded(60);
    const report = {
      battery: { level: 0.5, charging: false },
      network: { online: true, effectiveType: '4g' },
      visible: true,
      position: { accuracy: 8, at: new Date().toISOString() },
      appVersion: '2.0.2',
    };
    const valid: Array<[string, Account, Record<string, unknown>]> = [
      ['device_status', mia, report],
      ['ambient_offer', mia, { listeningId, sdp: 'v=0 offer' }],
      ['ambient_answer', admin, { listeningId, sdp: 'v=0 answer' }],
      ['ambient_candidate', mia, { listeningId, candidate: { candidate: 'candidate:1', sdpMid: '0' } }],
      ['emergency_alert', mia, { channelId: red.id, reason: 'man_down', userId: mia.id }],
    ];
    let sent = 0;
    for (const [event, account, payload] of valid) {
      const payloads = mutationsOf(payload, random);
      // Under the event's budget on each socket (with the two sent without an acknowledgement): every payload
      // reaches its handler, none is refused as a flood.
      const batch = (EVENT_BUDGETS[event] ?? DEFAULT_EVENT_BUDGET).burst - 2;
      for (let start = 0; start < payloads.length; start += batch) {
        const client = await open(account, account === mia);
        for (const hostile of payloads.slice(start, start + batch)) {
          const ack = await client.emitAck(event, hostile);
          sent += 1;
          expect(typeof ack?.success, `${event} ${JSON.stringify(hostile)?.slice(0, 200)}`).toBe('boolean');
          if (!ack.success) {
            expect(ack.result, event).toMatch(new RegExp(`^${event}: `));
            expect(ack.result, event).not.toMatch(/something went wrong|too many events/);
          }
        }
        // Without an acknowledgement, and with more arguments than the event takes: the same.
        client.socket.emit(event, HOSTILE[start % HOSTILE.length]);
        client.socket.emit(event, payload, 'extra', 42);
        await client.flush();
        expect(client.socket.connected, event).toBe(true);
        client.close();
      }
    }
    expect(sent).toBeGreaterThan(500);

    // Nothing was the server's fault, and nothing leaked into a prototype.
    expect(app.services.faults.counts().socket_event).toBe(0);
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
    expect((await app.fastify.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    // The first sockets still report, and their listening still relays both ways.
    expect(await phone.emitAck('device_status', report)).toEqual({ success: true });
    expect(await phone.emitAck('ambient_candidate', { listeningId, candidate: null })).toEqual({ success: true });
    expect(await desk.next('ambient_candidate')).toEqual({ listeningId, candidate: null });
    expect(await desk.emitAck('ambient_candidate', { listeningId, candidate: null })).toEqual({ success: true });
    expect(await phone.next('ambient_candidate')).toEqual({ listeningId, candidate: null });
    const live = await app.call('/user/api/startAmbientListening', { userId: mia.id }, admin.token);
    expect(live.body.res).toMatchObject({ listeningId, renewed: true });
    expect((await app.call('/user/api/stopAmbientListening', { listeningId }, admin.token)).status).toBe(200);
    expect(await phone.next('ambient_end')).toEqual({ listeningId, reason: 'stopped' });
    expect(await desk.next('ambient_end')).toEqual({ listeningId, reason: 'stopped' });
  });
});
