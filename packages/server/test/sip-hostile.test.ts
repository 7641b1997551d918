/**
 * Nothing anyone sends on the SIP port takes the server down (issue 57). Each case is what the issue found:
 *
 * - the datagram `SIP/2.0 200 OK\r\nCSeq: x` (SIP.js's parser throws on it), and other malformed messages over
 *   UDP and TCP: dropped, or answered 400 / 416 when they are requests that can be answered;
 * - an SDP whose audio port is 99999, 65536 or 0 alone: 488, audited (`media`), no call;
 * - a digest answer sent again (with a new Call-ID, for the same or another channel's number): refused, the
 *   replay audited once;
 * - 500 TCP connections from one address: 8 kept, the rest closed; idle ones closed; a message past 64 KB
 *   answered 413;
 * - a gateway past its simultaneous calls: 486; SIP_RTP_PORTS used up: 503 with Retry-After, audited (`ports`).
 *
 * After each, the server answers /healthz and an OPTIONS; through Janus, a real baresip call is answered and
 * takes the floor with its DTMF after all of them.
 */
import dgram from 'node:dgram';
import { channelNumber } from '@talkgroup/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { baresipAvailable, startBaresip } from './baresip.ts';
import { type Account, signUpAdmin, startApp, type TestApp } from './harness.ts';
import { portBlock, testSipConfig } from './janus-harness.ts';
import { ackFailure, invite, LOGIN, offer, RawSip, type Response, tcpConnection, token, WAIT_MS } from './raw-sip.ts';
import { sipJanusWorld } from './sip-janus-world.ts';

const KILLER = 'SIP/2.0 200 OK\r\nCSeq: x\r\n\r\n';
const TCP_IDLE_MS = 600;

async function refusalReasons(app: TestApp, admin: Account): Promise<string[]> {
  const log = await app.call('/user/api/getAuditLog', { targetType: 'gateway', limit: 100 }, admin.token);
  return log.body.res.entries
    .filter((entry: { action: string }) => entry.action === 'gateway.refused')
    .map((entry: { changes: { reason: { after: string } } }) => entry.changes.reason.after)
    .sort();
}

/** The server still serves: /healthz answers, and so does an OPTIONS on the SIP port. */
async function stillServing(app: TestApp, sip: RawSip): Promise<void> {
  const health = await app.fastify.inject({ method: 'GET', url: '/healthz' });
  expect(health.statusCode).toBe(200);
  const callId = token();
  sip.send({ method: 'OPTIONS', uri: `sip:127.0.0.1:${sip.server}`, callId, cseq: 1, fromTag: token() });
  expect((await sip.answer(callId, 1, 'OPTIONS')).statusCode).toBe(200);
}

/** A raw request's text with its headers as given (some left out on purpose). */
function rawRequest(sip: RawSip, first: string, headers: string[]): { text: string; callId: string } {
  const callId = token();
  const lines = [
    first,
    ...headers.map((header) =>
      header
        .replace('{via}', `Via: SIP/2.0/UDP 127.0.0.1:${sip.port};branch=z9hG4bK${token()};rport`)
        .replace('{callId}', callId),
    ),
    'Content-Length: 0',
    '',
    '',
  ];
  return { text: lines.join('\r\n'), callId };
}

const answerTo = (sip: RawSip, callId: string) =>
  sip.waitFor(
    (message): message is Response => message.callId === callId && 'statusCode' in message,
    `an answer to ${callId}`,
  );

describe('SIP hostile input', () => {
  let app: TestApp;
  let admin: Account;
  let sip: RawSip;
  let numbers: string[];
  let secret: string;

  beforeEach(async () => {
    app = await startApp('sqlite', { sip: { ...testSipConfig(), tcpIdleMs: TCP_IDLE_MS } });
    if (!app.sip) throw new Error('SIP did not start');
    admin = await signUpAdmin(app);
    const ids: number[] = [];
    numbers = [];
    for (const channelName of ['alpha', 'beta']) {
      const channel = (await app.call('/user/api/createChannel', { channelName }, admin.token)).body.res;
      ids.push(channel.id);
      numbers.push(channelNumber({ id: channel.id, voiceMode: 'server' }) as string);
    }
    const created = await app.call(
      '/user/api/createGateway',
      { name: 'Radio Quai', login: LOGIN, channelIds: ids },
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

  it('drops what it cannot read and answers the requests it can, over UDP and TCP, and keeps serving', async () => {
    for (let i = 0; i < 3; i++) sip.sendRaw(KILLER);
    sip.sendRaw(Buffer.from([0xff, 0x00, 0x13, ...Buffer.from('INVITE sip:x SIP/2.0\r\n\r\n')]));
    const unparsable = rawRequest(sip, `OPTIONS sip:${numbers[0]}@127.0.0.1 SIP/2.0`, [
      '{via}',
      'From: <sip:a@127.0.0.1>;tag=1',
      'To: <sip:b@127.0.0.1>',
      'Call-ID: {callId}',
      'CSeq: x',
    ]);
    sip.sendRaw(unparsable.text);
    // Without a Via: 400. For another scheme than sip: 416.
    const noVia = rawRequest(sip, `OPTIONS sip:${numbers[0]}@127.0.0.1 SIP/2.0`, [
      'From: <sip:a@127.0.0.1>;tag=1',
      'To: <sip:b@127.0.0.1>',
      'Call-ID: {callId}',
      'CSeq: 1 OPTIONS',
    ]);
    sip.sendRaw(noVia.text);
    expect((await answerTo(sip, noVia.callId)).statusCode).toBe(400);
    const tel = rawRequest(sip, 'OPTIONS tel:+33123456789 SIP/2.0', [
      '{via}',
      'From: <sip:a@127.0.0.1>;tag=1',
      'To: <sip:b@127.0.0.1>',
      'Call-ID: {callId}',
      'CSeq: 1 OPTIONS',
    ]);
    sip.sendRaw(tel.text);
    expect((await answerTo(sip, tel.callId)).statusCode).toBe(416);
    // A method SIP.js's core does not take: 501, before it could throw; a CANCEL that cancels nothing: 481.
    for (const [method, status] of [
      ['PRACK', 501],
      ['PUBLISH', 501],
      ['CANCEL', 481],
    ] as const) {
      const request = rawRequest(sip, `${method} sip:${numbers[0]}@127.0.0.1 SIP/2.0`, [
        '{via}',
        'From: <sip:a@127.0.0.1>;tag=1',
        'To: <sip:b@127.0.0.1>',
        'Call-ID: {callId}',
        `CSeq: 1 ${method}`,
      ]);
      sip.sendRaw(request.text);
      expect((await answerTo(sip, request.callId)).statusCode, method).toBe(status);
    }
    // So many header lines: dropped unread.
    const many = rawRequest(sip, `OPTIONS sip:127.0.0.1 SIP/2.0`, [
      '{via}',
      ...Array.from({ length: 500 }, (_, i) => `X-Filler-${i}: ${i}`),
      'From: <sip:a@127.0.0.1>;tag=1',
      'To: <sip:b@127.0.0.1>',
      'Call-ID: {callId}',
      'CSeq: 1 OPTIONS',
    ]);
    sip.sendRaw(many.text);
    await stillServing(app, sip);
    expect(sip.received.some((message) => message.callId === many.callId)).toBe(false);
    expect(sip.received.some((message) => message.callId === unparsable.callId)).toBe(false);

    // The same datagram on TCP: the connection it came on is closed, nothing else.
    const tcp = await tcpConnection(sip.server);
    tcp.socket.write(KILLER);
    await tcp.closed;
    await stillServing(app, sip);
    expect(app.services.faults.counts().sip_message).toBe(0);
  });

  it('answers 488 to an audio port outside 1-65535, audits it and opens no call', async () => {
    for (const port of [99999, 65536, 0, -1, '5e3']) {
      const { answer, callId } = await invite(sip, numbers[0], secret, offer('127.0.0.1', port));
      expect(answer.statusCode, `port ${port}`).toBe(488);
      expect(app.sip?.callIds()).not.toContain(callId);
    }
    await expect.poll(() => refusalReasons(app, admin), { timeout: WAIT_MS }).toEqual(Array(5).fill('media'));
    await stillServing(app, sip);
  });

  it('refuses a digest answer sent again, for the same number or another, and audits the replay once', async () => {
    // The first use is a right answer (the call then finds no media server here: 480).
    const first = await invite(sip, numbers[0], secret, offer('127.0.0.1', 4000));
    expect([401, 403]).not.toContain(first.answer.statusCode);
    const replay = async (number: string) => {
      const uri = `sip:${number}@127.0.0.1:${sip.server}`;
      const callId = token();
      const fromTag = token();
      const branch = sip.send({
        method: 'INVITE',
        uri,
        callId,
        cseq: 1,
        fromTag,
        headers: [first.auth.replace(first.uri, uri)],
        body: offer('127.0.0.1', 4002),
      });
      const answer = await sip.answer(callId, 1, 'INVITE');
      ackFailure(sip, answer, { uri, callId, fromTag, branch });
      return answer.statusCode;
    };
    // The same answer for the same number, twice: a new challenge each time, the replay audited once.
    expect(await replay(numbers[0])).toBe(401);
    expect(await replay(numbers[0])).toBe(401);
    // For another channel's number (its uri changed, its response not): wrong.
    expect(await replay(numbers[1])).toBe(403);
    await expect.poll(() => refusalReasons(app, admin), { timeout: WAIT_MS }).toEqual(['credentials', 'replay']);
    await stillServing(app, sip);
  });

  it('keeps 8 TCP connections of an address, closes idle ones, and answers 413 past 64 KB', async () => {
    const port = sip.server;
    const settled = await Promise.allSettled(Array.from({ length: 500 }, () => tcpConnection(port)));
    const connections = settled.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
    // The server closes every one past the eighth at once; the eight left are closed once idle.
    await expect.poll(() => app.sip?.held().tcp, { timeout: WAIT_MS }).toBeLessThanOrEqual(8);
    await Promise.all(connections.map((connection) => connection.closed));
    await expect.poll(() => app.sip?.held().tcp, { timeout: WAIT_MS }).toBe(0);
    await stillServing(app, sip);

    // A request whose body would pass 64 KB: 413, then the connection closes.
    const big = await tcpConnection(port);
    const callId = token();
    big.socket.write(
      [
        `INVITE sip:${numbers[0]}@127.0.0.1:${port} SIP/2.0`,
        `Via: SIP/2.0/TCP 127.0.0.1:${big.socket.localPort};branch=z9hG4bK${token()}`,
        'From: <sip:a@127.0.0.1>;tag=1',
        `To: <sip:${numbers[0]}@127.0.0.1>`,
        `Call-ID: ${callId}`,
        'CSeq: 1 INVITE',
        'Content-Type: application/sdp',
        'Content-Length: 70000',
        '',
        'v=0',
      ].join('\r\n'),
    );
    await big.closed;
    expect(big.data()).toMatch(/^SIP\/2\.0 413 /);
    // A head that never ends, past 64 KB: closed too.
    const endless = await tcpConnection(port);
    endless.socket.write(`OPTIONS sip:127.0.0.1 SIP/2.0\r\nX-Long: ${'a'.repeat(70_000)}`);
    await endless.closed;
    await stillServing(app, sip);
  });
});

// Janus is what a call needs to be answered: one database, as in sip-gateway.test.ts.
describe.skipIf(!baresipAvailable())('SIP calls past their limits, through Janus', () => {
  // Two even ports in SIP_RTP_PORTS: room for two calls' media.
  const [first] = portBlock(100);
  const world = sipJanusWorld(() => ({ ...testSipConfig(), rtpPorts: { min: first, max: first + 3 } }));
  const closing: Array<() => Promise<unknown> | undefined> = [];
  afterEach(async () => {
    for (const close of closing.splice(0)) await close();
  });

  it('answers 486 past the simultaneous calls, 503 when the media ports run out, and a real gateway still calls', async () => {
    const gateway = async (login: string, simultaneousCalls?: number, floorMode = 'voice') => {
      const made = await world.app.call(
        '/user/api/createGateway',
        { name: login, login, channelIds: [world.red.id], floorMode, simultaneousCalls },
        world.admin.token,
      );
      expect(made.status).toBe(200);
      return made.body.secret as string;
    };
    const media = dgram.createSocket('udp4');
    closing.push(() => new Promise((resolve) => media.close(() => resolve(undefined))));
    await new Promise<void>((resolve) => media.bind(0, '127.0.0.1', resolve));
    const sip = await RawSip.open(world.app.sip?.port ?? 0);
    closing.push(async () => sip.close());
    sip.sendRaw(KILLER);
    const number = channelNumber(world.red) as string;
    const sdp = offer('127.0.0.1', media.address().port);
    const alice = await world.joined(world.alice, world.red);

    // radio-quai may hold one call (one channel): its second is busy.
    const quai = await gateway(LOGIN);
    const held = await invite(sip, number, quai, sdp);
    expect(held.answer.statusCode).toBe(200);
    const busy = await invite(sip, number, quai, sdp);
    expect(busy.answer.statusCode).toBe(486);
    // Raised to 5: a second call takes the second of the two media ports, and the third finds none.
    const list = await world.app.call('/user/api/listGateways', {}, world.admin.token);
    const quaiId = list.body.res.find((row: { login: string }) => row.login === LOGIN).id;
    expect(
      (await world.app.call('/user/api/updateGateway', { id: quaiId, simultaneousCalls: 5 }, world.admin.token)).status,
    ).toBe(200);
    const second = await invite(sip, number, quai, sdp);
    expect(second.answer.statusCode).toBe(200);
    const out = await invite(sip, number, quai, sdp);
    expect(out.answer.statusCode).toBe(503);
    expect(out.answer.getHeader('retry-after')).toMatch(/^\d+$/);
    await expect
      .poll(
        async () =>
          (
            await world.app.call('/user/api/getAuditLog', { targetType: 'gateway', limit: 50 }, world.admin.token)
          ).body.res.entries
            .filter((entry: { action: string }) => entry.action === 'gateway.refused')
            .map((entry: { changes: { reason: { after: string } } }) => entry.changes.reason.after)
            .sort(),
        { timeout: WAIT_MS },
      )
      .toEqual(['busy', 'ports']);

    // Both raw calls end (BYE): their ports are free again.
    let cseq = 10;
    for (const call of [held, second]) {
      const target = /<([^>]+)>/.exec(call.answer.getHeader('contact') ?? '')?.[1] ?? '';
      const dialog = { uri: target, callId: call.callId, fromTag: call.fromTag, toTag: call.answer.toTag };
      sip.send({ method: 'ACK', cseq: 2, ...dialog });
      sip.send({ method: 'BYE', cseq: ++cseq, ...dialog });
      expect((await sip.answer(call.callId, cseq, 'BYE')).statusCode).toBe(200);
    }
    await expect.poll(() => world.app.sip?.callIds().length, { timeout: WAIT_MS }).toBe(0);

    // After all of it, a real gateway dials, is answered, and takes the floor with its DTMF.
    const phone = await startBaresip({
      login: 'radio-gare',
      secret: await gateway('radio-gare', undefined, 'dtmf'),
      sipPort: world.app.sip?.port,
    });
    closing.push(() => phone.stop());
    const call = await phone.dial(number);
    await alice.next('user joined', (peer) => peer.gateway?.callId === call.id);
    await phone.sendDtmf('*');
    await alice.next('floor_taken', (claim) => claim.name === 'radio-gare');
  });
});
