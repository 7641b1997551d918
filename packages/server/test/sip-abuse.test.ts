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
import { createHash, randomBytes } from 'node:crypto';
import dgram from 'node:dgram';
import { channelNumber } from '@talkgroup/protocol';
import { parse as parseAuth } from 'auth-header';
import { Core } from 'sip.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Account, databases, signUpAdmin, startApp, type TestApp } from './harness.ts';
import { type TestJanus, testJanus, testSipConfig } from './janus-harness.ts';
import { realtimeWorld } from './realtime-world.ts';

const REQUESTS_PER_MINUTE = 10;
const WAIT_MS = 10_000;
const LOGIN = 'radio-quai';
const md5 = (text: string) => createHash('md5').update(text).digest('hex');
const token = () => randomBytes(6).toString('hex');

type Message = Core.IncomingRequestMessage | Core.IncomingResponseMessage;
type Response = Core.IncomingResponseMessage;

/** One request of a raw client's: what it builds its text from. */
interface Outgoing {
  method: string;
  uri: string;
  callId: string;
  cseq: number;
  fromTag: string;
  toTag?: string;
  /** The Via branch; a new one unless given (an ACK to a non-2xx answer repeats its INVITE's). */
  branch?: string;
  headers?: string[];
  body?: { type: string; text: string };
}

/** A SIP user agent of a few lines over UDP: it sends what it is told to and keeps every message that comes. */
class RawSip {
  readonly received: Message[] = [];
  private readonly waiters = new Set<() => void>();
  private readonly logger = new Core.LoggerFactory().getLogger('sip-abuse');

  readonly socket: dgram.Socket;
  /** Its own port, and the server's SIP port. */
  readonly port: number;
  readonly server: number;

  private constructor(socket: dgram.Socket, port: number, server: number) {
    this.socket = socket;
    this.port = port;
    this.server = server;
    socket.on('message', (data) => {
      const message = Core.Parser.parseMessage(data.toString('utf8'), this.logger);
      if (!message) return;
      this.received.push(message);
      for (const wake of [...this.waiters]) wake();
    });
  }

  static async open(server: number): Promise<RawSip> {
    const socket = dgram.createSocket('udp4');
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
    return new RawSip(socket, socket.address().port, server);
  }

  /** Sends the request; returns the Via branch it carried. */
  send(request: Outgoing): string {
    const branch = request.branch ?? `z9hG4bK${token()}`;
    const to = request.method === 'REGISTER' ? `sip:${LOGIN}@127.0.0.1` : request.uri.replace(/;.*$/, '');
    const body = request.body?.text ?? '';
    const lines = [
      `${request.method} ${request.uri} SIP/2.0`,
      `Via: SIP/2.0/UDP 127.0.0.1:${this.port};branch=${branch};rport`,
      'Max-Forwards: 70',
      `From: <sip:${LOGIN}@127.0.0.1>;tag=${request.fromTag}`,
      `To: <${to}>${request.toTag ? `;tag=${request.toTag}` : ''}`,
      `Call-ID: ${request.callId}`,
      `CSeq: ${request.cseq} ${request.method}`,
      `Contact: <sip:${LOGIN}@127.0.0.1:${this.port}>`,
      ...(request.headers ?? []),
      ...(request.body ? [`Content-Type: ${request.body.type}`] : []),
      `Content-Length: ${Buffer.byteLength(body)}`,
      '',
      body,
    ];
    this.socket.send(lines.join('\r\n'), this.server, '127.0.0.1');
    return branch;
  }

  /** The final answer to the request of this Call-ID, CSeq and method. */
  answer(callId: string, cseq: number, method: string): Promise<Response> {
    return this.waitFor(
      (message): message is Response =>
        message instanceof Core.IncomingResponseMessage &&
        message.callId === callId &&
        message.cseq === cseq &&
        message.method === method &&
        (message.statusCode ?? 0) >= 200,
      `a final answer to ${method} ${cseq} of ${callId}`,
    );
  }

  waitFor<T extends Message>(match: (message: Message) => message is T, what: string): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(
          new Error(`no ${what} within ${WAIT_MS} ms; received: ${this.received.map(describeMessage).join(', ')}`),
        );
      }, WAIT_MS);
      const check = () => {
        const found = this.received.find(match);
        if (!found) return;
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve(found as T);
      };
      this.waiters.add(check);
      check();
    });
  }

  close(): void {
    this.socket.close();
  }
}

const describeMessage = (message: Message) =>
  message instanceof Core.IncomingResponseMessage
    ? `${message.statusCode} (${message.method} ${message.cseq})`
    : `${message.method} ${message.cseq}`;

/** The Authorization header answering a 401's challenge (RFC 2617: MD5, qop=auth). */
function authorization(challenge: Response, method: string, uri: string, secret: string, nonce?: string): string {
  const header = challenge.getHeader('www-authenticate');
  if (!header) throw new Error(`a ${challenge.statusCode} without WWW-Authenticate`);
  const params = parseAuth(header).params as Record<string, string>;
  const used = nonce ?? params.nonce;
  const cnonce = token();
  const nc = '00000001';
  const ha1 = md5(`${LOGIN}:${params.realm}:${secret}`);
  const ha2 = md5(`${method}:${uri}`);
  const response = md5(`${ha1}:${used}:${nc}:${cnonce}:auth:${ha2}`);
  return `Authorization: Digest username="${LOGIN}", realm="${params.realm}", nonce="${used}", uri="${uri}", response="${response}", algorithm=MD5, qop=auth, nc=${nc}, cnonce="${cnonce}"`;
}

function offer(ip: string, port: number): { type: string; text: string } {
  const text = [
    'v=0',
    `o=- 1 1 IN IP4 ${ip}`,
    's=-',
    `c=IN IP4 ${ip}`,
    't=0 0',
    `m=audio ${port} RTP/AVP 0 101`,
    'a=rtpmap:0 PCMU/8000',
    'a=rtpmap:101 telephone-event/8000',
    'a=fmtp:101 0-15',
    'a=sendrecv',
    '',
  ].join('\r\n');
  return { type: 'application/sdp', text };
}

/**
 * A call's first steps: the INVITE without credentials, its 401 (ACKed), and the same INVITE with the digest
 * answer (or a made-up `nonce`); resolves with the final answer to that second INVITE (ACKed when it is not 2xx).
 */
async function invite(
  sip: RawSip,
  number: string,
  secret: string,
  sdp: { type: string; text: string },
  nonce?: string,
): Promise<{ answer: Response; callId: string; fromTag: string; uri: string }> {
  const uri = `sip:${number}@127.0.0.1:${sip.server}`;
  const callId = token();
  const fromTag = token();
  const first = sip.send({ method: 'INVITE', uri, callId, cseq: 1, fromTag, body: sdp });
  const challenge = await sip.answer(callId, 1, 'INVITE');
  expect(challenge.statusCode).toBe(401);
  ackFailure(sip, challenge, { uri, callId, fromTag, branch: first });
  const second = sip.send({
    method: 'INVITE',
    uri,
    callId,
    cseq: 2,
    fromTag,
    headers: [authorization(challenge, 'INVITE', uri, secret, nonce)],
    body: sdp,
  });
  const answer = await sip.answer(callId, 2, 'INVITE');
  if ((answer.statusCode ?? 0) >= 300) ackFailure(sip, answer, { uri, callId, fromTag, branch: second });
  return { answer, callId, fromTag, uri };
}

/** The ACK of a non-2xx answer to an INVITE: its transaction's (same branch and CSeq, RFC 3261 §17.1.1.3). */
function ackFailure(
  sip: RawSip,
  answer: Response,
  call: { uri: string; callId: string; fromTag: string; branch: string },
) {
  sip.send({ method: 'ACK', cseq: answer.cseq, toTag: answer.toTag, ...call });
}

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
  let janus: TestJanus;
  beforeEach(async () => {
    janus = await testJanus();
  });
  const world = realtimeWorld('sqlite', () => ({
    janusUrls: [janus.url],
    janusApiSecret: janus.secret,
    sip: testSipConfig(REQUESTS_PER_MINUTE),
  }));
  let sip: RawSip | undefined;
  let media: dgram.Socket | undefined;
  afterEach(async () => {
    sip?.close();
    media?.close();
    await janus?.stop();
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
