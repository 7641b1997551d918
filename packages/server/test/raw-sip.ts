/**
 * A raw SIP client for the tests that send what no gateway software sends (sip-abuse, sip-hostile, sip-fuzz): over
 * node:dgram, its requests built as text, its responses read with SIP.js's parser (the one the server uses) and
 * its digest answers computed here (RFC 2617, MD5 with qop=auth) from the secret createGateway gives; and a raw TCP
 * connection to the SIP port.
 */
import { createHash, randomBytes } from 'node:crypto';
import dgram from 'node:dgram';
import net from 'node:net';
import { parse as parseAuth } from 'auth-header';
import { Core } from 'sip.js';
import { expect } from 'vitest';

export const WAIT_MS = 10_000;
export const LOGIN = 'radio-quai';
const md5 = (text: string) => createHash('md5').update(text).digest('hex');
export const token = () => randomBytes(6).toString('hex');

export type Message = Core.IncomingRequestMessage | Core.IncomingResponseMessage;
export type Response = Core.IncomingResponseMessage;

/** One request of a raw client's: what it builds its text from. */
export interface Outgoing {
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
export class RawSip {
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

  /** Sends bytes as they are: a malformed message. */
  sendRaw(data: string | Buffer): void {
    this.socket.send(data, this.server, '127.0.0.1');
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

export const describeMessage = (message: Message) =>
  message instanceof Core.IncomingResponseMessage
    ? `${message.statusCode} (${message.method} ${message.cseq})`
    : `${message.method} ${message.cseq}`;

/** The Authorization header answering a 401's challenge (RFC 2617: MD5, qop=auth), for `login`'s `secret`. */
export function authorization(
  challenge: Response,
  method: string,
  uri: string,
  secret: string,
  nonce?: string,
  login = LOGIN,
): string {
  const header = challenge.getHeader('www-authenticate');
  if (!header) throw new Error(`a ${challenge.statusCode} without WWW-Authenticate`);
  const params = parseAuth(header).params as Record<string, string>;
  const used = nonce ?? params.nonce;
  const cnonce = token();
  const nc = '00000001';
  const ha1 = md5(`${login}:${params.realm}:${secret}`);
  const ha2 = md5(`${method}:${uri}`);
  const response = md5(`${ha1}:${used}:${nc}:${cnonce}:auth:${ha2}`);
  return `Authorization: Digest username="${login}", realm="${params.realm}", nonce="${used}", uri="${uri}", response="${response}", algorithm=MD5, qop=auth, nc=${nc}, cnonce="${cnonce}"`;
}

export function offer(ip: string, port: number | string): { type: string; text: string } {
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
export async function invite(
  sip: RawSip,
  number: string,
  secret: string,
  sdp: { type: string; text: string },
  nonce?: string,
): Promise<{ answer: Response; callId: string; fromTag: string; uri: string; auth: string }> {
  const uri = `sip:${number}@127.0.0.1:${sip.server}`;
  const callId = token();
  const fromTag = token();
  const first = sip.send({ method: 'INVITE', uri, callId, cseq: 1, fromTag, body: sdp });
  const challenge = await sip.answer(callId, 1, 'INVITE');
  expect(challenge.statusCode).toBe(401);
  ackFailure(sip, challenge, { uri, callId, fromTag, branch: first });
  const auth = authorization(challenge, 'INVITE', uri, secret, nonce);
  const second = sip.send({ method: 'INVITE', uri, callId, cseq: 2, fromTag, headers: [auth], body: sdp });
  const answer = await sip.answer(callId, 2, 'INVITE');
  if ((answer.statusCode ?? 0) >= 300) ackFailure(sip, answer, { uri, callId, fromTag, branch: second });
  return { answer, callId, fromTag, uri, auth };
}

/** The ACK of a non-2xx answer to an INVITE: its transaction's (same branch and CSeq, RFC 3261 §17.1.1.3). */
export function ackFailure(
  sip: RawSip,
  answer: Response,
  call: { uri: string; callId: string; fromTag: string; branch: string },
) {
  sip.send({ method: 'ACK', cseq: answer.cseq, toTag: answer.toTag, ...call });
}

/** Opens a TCP connection to the SIP port; resolves once connected, with a promise of its close. */
export function tcpConnection(
  port: number,
): Promise<{ socket: net.Socket; closed: Promise<void>; data: () => string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    let received = '';
    socket.on('data', (chunk) => {
      received += chunk.toString('utf8');
    });
    const closed = new Promise<void>((done) => socket.on('close', () => done()));
    socket.on('error', () => {});
    socket.once('connect', () => resolve({ socket, closed, data: () => received }));
    socket.once('error', reject);
  });
}
