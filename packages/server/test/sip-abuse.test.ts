/**
 * The SIP gateway against a caller that does not play by the rules (issue 51). No gateway software sends what
 * these tests need (too many INVITEs, an offer naming someone else's address, a made-up nonce, SIP INFO DTMF,
 * which baresip 1.0.0 cannot send), so a raw SIP client is written here over node:dgram: its requests are built
 * as text, its responses read with SIP.js's parser (the one the server uses) and its digest answers computed
 * here (RFC 2617, MD5 with qop=auth) from the secret createGateway gives.
 *
 * - INVITEs are limited per address: with 10 a minute, the first 10 get their 401 challenge and the 11th a 503
 *   with Retry-After, audited once as `gateway.refused` (reason `rate`).
 * - An authenticated INVITE whose SDP names another address than the caller's is answered 488 and audited
 *   (reason `address`), and no call (no relay) is opened for it.
 * - A REGISTER with the right credentials gets 200 with Expires; with a wrong secret, 403, audited.
 * - A made-up nonce is 403.
 * - Through Janus: SIP INFO DTMF (`*` takes the floor, `#` gives it back) inside the call's dialog, and a BYE
 *   that ends it (`user_exit` in the room).
 */
import dgram from 'node:dgram';
import { channelNumber } from '@talkgroup/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Account, databases, signUpAdmin, startApp, type TestApp } from './harness.ts';
import { testSipConfig } from './janus-harness.ts';
import { ackFailure, authorization, invite, LOGIN, offer, RawSip, type Response, token, WAIT_MS } from './raw-sip.ts';
import { sipJanusWorld } from './sip-janus-world.ts';

const REQUESTS_PER_MINUTE = 10;

async function refusals(app: TestApp, admin: Account): Promise<Array<Record<string, any>>> {
  const log = await app.call('/user/api/getAuditLog', { targetType: 'gateway', limit: 50 }, admin.token);
  return log.body.res.entries.filter((entry: { action: string }) => entry.action === 'gateway.refused');
}

describe.each(databases)('SIP abuse on %s', (dialect) => {
  let app: TestApp;
  let admin: Account;
  let sip: RawSip;
  let alpha: string;
  let secret: string;

  beforeEach(async () => {
    app = await startApp(dialect, { sip: testSipConfig(REQUESTS_PER_MINUTE) });
    if (!app.sip) throw new Error('SIP did not start');
    admin = await signUpAdmin(app);
    const channel = (await app.call('/user/api/createChannel', { channelName: 'alpha' }, admin.token)).body.res;
    alpha = channelNumber({ id: channel.id, voiceMode: 'server' }) as string;
    const created = await app.call(
      '/user/api/createGateway',
      { name: 'Radio Quai', login: LOGIN, channelIds: [channel.id] },
      admin.token,
    );
    expect(created.status).toBe(200);
    secret = created.body.secret;
    sip = await RawSip.open(app.sip.port);
  });

  afterEach(async () => {
    sip?.close();
    await app?.close();
  });

  const reasons = async () => (await refusals(app, admin)).map((entry) => entry.changes.reason.after);

  it('answers the INVITEs of an address past its rate with 503 and Retry-After, audited once, the first ones challenged', async () => {
    const uri = `sip:${alpha}@127.0.0.1:${sip.server}`;
    const statuses: number[] = [];
    for (let i = 0; i < REQUESTS_PER_MINUTE + 2; i++) {
      const callId = token();
      const fromTag = token();
      const request = { method: 'INVITE', uri, callId, cseq: 1, fromTag, body: offer('127.0.0.1', 4000) };
      const branch = sip.send(request);
      // A retransmission (the same transaction: its answer was lost) is not counted again.
      if (i === 0) sip.send({ ...request, branch });
      const answer = await sip.answer(callId, 1, 'INVITE');
      statuses.push(answer.statusCode ?? 0);
      if (answer.statusCode === 401) expect(answer.getHeader('www-authenticate')).toMatch(/^Digest /);
      if (answer.statusCode === 503) expect(answer.getHeader('retry-after')).toMatch(/^\d+/);
      ackFailure(sip, answer, { uri, callId, fromTag, branch });
    }
    expect(statuses).toEqual([...Array(REQUESTS_PER_MINUTE).fill(401), 503, 503]);
    await expect.poll(reasons, { timeout: WAIT_MS }).toEqual(['rate']);
    const [entry] = await refusals(app, admin);
    expect(entry?.address).toMatch(/^127\.0\.0\.1:\d+$/);
  });

  it('answers 488 to an offer that names another address than the caller, audits it and opens no call', async () => {
    const { answer, callId } = await invite(sip, alpha, secret, offer('192.0.2.10', 4000));
    expect(answer.statusCode).toBe(488);
    await expect.poll(reasons, { timeout: WAIT_MS }).toEqual(['address']);
    const [entry] = await refusals(app, admin);
    expect(entry).toMatchObject({ targetName: 'Radio Quai', changes: { number: { after: alpha } } });
    expect(app.sip?.callIds()).not.toContain(callId);
    expect(app.sip?.relayOf(callId)).toBeUndefined();
  });

  it('answers a REGISTER with the right credentials 200 with Expires, and one with a wrong secret 403, audited', async () => {
    const uri = `sip:127.0.0.1:${sip.server}`;
    async function register(password: string): Promise<Response> {
      const callId = token();
      const fromTag = token();
      const headers = ['Expires: 600'];
      sip.send({ method: 'REGISTER', uri, callId, cseq: 1, fromTag, headers });
      const challenge = await sip.answer(callId, 1, 'REGISTER');
      expect(challenge.statusCode).toBe(401);
      const signed = [...headers, authorization(challenge, 'REGISTER', uri, password)];
      sip.send({ method: 'REGISTER', uri, callId, cseq: 2, fromTag, headers: signed });
      return sip.answer(callId, 2, 'REGISTER');
    }
    const accepted = await register(secret);
    expect(accepted.statusCode).toBe(200);
    expect(accepted.getHeader('expires')).toBe('600');
    const refused = await register('not-the-secret');
    expect(refused.statusCode).toBe(403);
    await expect.poll(reasons, { timeout: WAIT_MS }).toEqual(['credentials']);
    expect(JSON.stringify(await refusals(app, admin))).not.toContain(secret);
  });

  it('answers 403 to a digest made on a nonce of its own, however right the secret', async () => {
    const made = `${Date.now().toString(36)}.${'A'.repeat(22)}`;
    for (const nonce of ['made-up', made]) {
      const { answer } = await invite(sip, alpha, secret, offer('127.0.0.1', 4000), nonce);
      expect(answer.statusCode).toBe(403);
    }
    await expect.poll(reasons, { timeout: WAIT_MS }).toEqual(['credentials', 'credentials']);
  });
});

// Janus is what a call needs to be answered; one database, as in sip-gateway.test.ts (the media path is tested).
describe('SIP INFO DTMF through Janus', () => {
  const world = sipJanusWorld(() => testSipConfig(REQUESTS_PER_MINUTE));
  let sip: RawSip | undefined;
  let media: dgram.Socket | undefined;
  afterEach(async () => {
    sip?.close();
    media?.close();
  });

  it('takes the floor on INFO Signal=*, gives it back on Signal=#, and leaves the room on BYE', async () => {
    const made = await world.app.call(
      '/user/api/createGateway',
      { name: 'Radio Quai', login: LOGIN, channelIds: [world.red.id], floorMode: 'dtmf' },
      world.admin.token,
    );
    expect(made.status).toBe(200);
    const alice = await world.joined(world.alice, world.red);
    // The call's RTP comes here (and is dropped): an open port, so that the relay's packets meet no ICMP error.
    const rtpSocket = dgram.createSocket('udp4');
    media = rtpSocket;
    await new Promise<void>((resolve) => rtpSocket.bind(0, '127.0.0.1', resolve));
    sip = await RawSip.open(world.app.sip?.port ?? 0);
    const number = channelNumber(world.red) as string;
    const { answer, callId, fromTag } = await invite(
      sip,
      number,
      made.body.secret,
      offer('127.0.0.1', rtpSocket.address().port),
    );
    expect(answer.statusCode).toBe(200);
    const target = /<([^>]+)>/.exec(answer.getHeader('contact') ?? '')?.[1];
    if (!target) throw new Error('a 200 without Contact');
    const dialog = { uri: target, callId, fromTag, toTag: answer.toTag };
    // The ACK of a 2xx is a transaction of its own (a new branch), sent to the Contact.
    sip.send({ method: 'ACK', cseq: 2, ...dialog });
    await alice.next('user joined', (peer) => peer.gateway?.callId === callId);

    const info = async (cseq: number, key: string) => {
      const body = { type: 'application/dtmf-relay', text: `Signal=${key}\r\nDuration=160\r\n` };
      sip?.send({ method: 'INFO', cseq, body, ...dialog });
      expect((await sip?.answer(callId, cseq, 'INFO'))?.statusCode).toBe(200);
    };
    await info(3, '*');
    const taken = await alice.next('floor_taken', (claim) => claim.name === 'Radio Quai');
    expect(taken.room).toBe(world.red.rtcSession);
    expect(alice.all('floor_idle')).toEqual([]);
    await info(4, '#');
    await alice.next('floor_idle');

    sip.send({ method: 'BYE', cseq: 5, ...dialog });
    expect((await sip.answer(callId, 5, 'BYE')).statusCode).toBe(200);
    await alice.next('user_exit', (exit) => exit.id === `sip:${callId}`);
    expect(world.app.sip?.callIds()).not.toContain(callId);
  });
});
