/**
 * The SIP fuzzer's inputs (issue 57): real requests and responses as a gateway sends them (INVITE with its SDP
 * offer, REGISTER, ACK, BYE, OPTIONS, CANCEL, INFO; 200, 180, 401, 486...), from which the mutations start
 * (sip-mutators.ts: truncated, oversized, binary, NUL bytes and unicode, headers removed, doubled or given garbage
 * values, bad lengths, bad start lines and Request-URIs; sip-offer-mutations.ts: offers with impossible ports and
 * addresses; rtp-mutations.ts: datagrams for a call's relay port). Every choice comes from the seeded PRNG here,
 * so that a failing case is replayed from its seed and index (SIP_FUZZ_SEED).
 */
import { createHash } from 'node:crypto';

/** mulberry32: a small seeded PRNG, the same sequence for the same seed on every machine. */
export class Prng {
  #state: number;

  constructor(seed: number) {
    this.#state = seed >>> 0;
  }

  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** An integer in [min, max]. */
  between(min: number, max: number): number {
    return min + this.int(max - min + 1);
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)] as T;
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  bytes(n: number): Buffer {
    const out = Buffer.alloc(n);
    for (let i = 0; i < n; i++) out[i] = this.int(256);
    return out;
  }

  hex(n: number): string {
    let out = '';
    for (let i = 0; i < n; i++) out += '0123456789abcdef'[this.int(16)];
    return out;
  }
}

/** SIP_FUZZ_SEED: a number to replay, `random` for a new one each run; unset: the fixed seed. */
export function fuzzSeed(env = process.env.SIP_FUZZ_SEED): number {
  if (env === 'random') return Math.floor(Math.random() * 2 ** 32);
  if (env && /^\d+$/.test(env)) return Number(env) >>> 0;
  return 5_700_007;
}

/** Where the messages go and come from: what makes a base message realistic. */
export interface Target {
  /** The server's SIP port. */
  server: number;
  /** The sender's own port (Via, Contact, the SDP's media port). */
  local: number;
  /** A channel's number that exists (most requests dial it). */
  number: string;
  /** The gateway login the requests name. */
  login: string;
  transport: 'UDP' | 'TCP';
}

/** A message as lines: its start line, its headers in order, its body. */
export interface SipParts {
  start: string;
  headers: Array<[string, string]>;
  body: string;
}

export interface FuzzCase {
  /** The mutation classes applied, the first one naming the case ("truncated", "sdp port"...). */
  classes: string[];
  /** Which base message it was made from ("INVITE", "response 200"...). */
  base: string;
  bytes: Buffer;
}

export function serialize(parts: SipParts, eol = '\r\n'): string {
  return [parts.start, ...parts.headers.map(([name, value]) => `${name}: ${value}`), '', parts.body].join(eol);
}

/** A realistic SDP offer as baresip writes one: PCMU, PCMA and telephone events. */
export function offerLines(ip: string, port: number): string[] {
  return [
    'v=0',
    `o=- 1718 2020 IN IP4 ${ip}`,
    's=-',
    `c=IN IP4 ${ip}`,
    't=0 0',
    `m=audio ${port} RTP/AVP 0 8 101`,
    'a=rtpmap:0 PCMU/8000',
    'a=rtpmap:8 PCMA/8000',
    'a=rtpmap:101 telephone-event/8000',
    'a=fmtp:101 0-15',
    'a=ptime:20',
    'a=sendrecv',
  ];
}

export const offer = (ip: string, port: number) => `${offerLines(ip, port).join('\r\n')}\r\n`;

const METHODS = ['INVITE', 'REGISTER', 'ACK', 'BYE', 'OPTIONS', 'CANCEL', 'INFO'] as const;
const RESPONSES = [
  [100, 'Trying'],
  [180, 'Ringing'],
  [200, 'OK'],
  [401, 'Unauthorized'],
  [403, 'Forbidden'],
  [486, 'Busy Here'],
  [503, 'Service Unavailable'],
] as const;

/** One of the real messages, as a gateway (or a peer answering our requests) would send it. */
export function baseMessage(rng: Prng, target: Target): { name: string; parts: SipParts } {
  const branch = `z9hG4bK${rng.hex(16)}`;
  const callId = `${rng.hex(12)}@127.0.0.1`;
  const fromTag = rng.hex(8);
  const host = `127.0.0.1:${target.server}`;
  const self = `127.0.0.1:${target.local}`;
  const via = `SIP/2.0/${target.transport} ${self};branch=${branch};rport`;
  const transportParam = target.transport === 'TCP' ? ';transport=tcp' : '';
  if (rng.chance(0.25)) {
    const [status, reason] = rng.pick(RESPONSES);
    const method = rng.pick(['INVITE', 'BYE', 'OPTIONS', 'INFO']);
    const headers: Array<[string, string]> = [
      ['Via', `SIP/2.0/${target.transport} ${host};branch=${branch};rport=${target.server}`],
      ['From', `<sip:talkgroup@127.0.0.1>;tag=${fromTag}`],
      ['To', `<sip:${target.login}@127.0.0.1>;tag=${rng.hex(8)}`],
      ['Call-ID', callId],
      ['CSeq', `${rng.between(1, 20)} ${method}`],
      ['Server', 'baresip v1.0.0 (x86_64/linux)'],
    ];
    if (status === 401)
      headers.push(['WWW-Authenticate', `Digest realm="talkgroup", nonce="${rng.hex(24)}", qop="auth", algorithm=MD5`]);
    let body = '';
    if (status === 200 && method === 'INVITE') {
      headers.push(['Contact', `<sip:${target.login}@${self}${transportParam}>`]);
      headers.push(['Content-Type', 'application/sdp']);
      body = offer('127.0.0.1', target.local + 2);
    }
    headers.push(['Content-Length', String(Buffer.byteLength(body))]);
    return { name: `response ${status}`, parts: { start: `SIP/2.0 ${status} ${reason}`, headers, body } };
  }
  const method = rng.pick(METHODS);
  const uri =
    method === 'REGISTER'
      ? `sip:127.0.0.1:${target.server}${transportParam}`
      : `sip:${target.number}@${host}${transportParam}`;
  const inDialog =
    method === 'ACK' || method === 'BYE' || method === 'INFO' || (method === 'INVITE' && rng.chance(0.1));
  const to =
    method === 'REGISTER'
      ? `<sip:${target.login}@127.0.0.1>`
      : `<sip:${target.number}@${host}>${inDialog ? `;tag=${rng.hex(8)}` : ''}`;
  const cseq = rng.between(1, 9);
  const headers: Array<[string, string]> = [
    ['Via', via],
    ['Max-Forwards', '70'],
    ['To', to],
    ['From', `<sip:${target.login}@127.0.0.1>;tag=${fromTag}`],
    ['Call-ID', callId],
    ['CSeq', `${cseq} ${method}`],
    ['Contact', `<sip:${target.login}@${self}${transportParam}>`],
    ['User-Agent', 'baresip v1.0.0 (x86_64/linux)'],
  ];
  let body = '';
  if (method === 'INVITE') {
    headers.push(['Allow', 'INVITE,ACK,BYE,CANCEL,OPTIONS,NOTIFY,SUBSCRIBE,INFO,MESSAGE,REFER']);
    headers.push(['Supported', 'replaces,norefersub']);
    if (rng.chance(0.3)) headers.push(['Authorization', digestLike(rng, target, 'INVITE', uri)]);
    headers.push(['Content-Type', 'application/sdp']);
    body = offer('127.0.0.1', target.local + 2);
  } else if (method === 'REGISTER') {
    headers.push(['Expires', String(rng.pick([0, 60, 600, 3600]))]);
    if (rng.chance(0.5)) headers.push(['Authorization', digestLike(rng, target, 'REGISTER', uri)]);
  } else if (method === 'INFO') {
    headers.push(['Content-Type', 'application/dtmf-relay']);
    body = `Signal=${rng.pick(['*', '#', '1', 'x', ''])}\r\nDuration=160\r\n`;
  }
  headers.push(['Content-Length', String(Buffer.byteLength(body))]);
  return { name: method, parts: { start: `${method} ${uri} SIP/2.0`, headers, body } };
}

/** An Authorization header of the right shape, for a nonce the server never gave (or almost right values). */
function digestLike(rng: Prng, target: Target, method: string, uri: string): string {
  const nonce = rng.pick([`${Date.now().toString(36)}.${rng.hex(22)}`, rng.hex(32), '', '"', 'x'.repeat(500)]);
  const response = createHash('md5').update(`${method}:${uri}:${nonce}`).digest('hex');
  return `Digest username="${target.login}", realm="talkgroup", nonce="${nonce}", uri="${uri}", response="${response}", algorithm=MD5, qop=auth, nc=00000001, cnonce="${rng.hex(8)}"`;
}

/** A case as a line of a failure message: its classes and its bytes escaped (cut past `max` characters). */
export function describeCase(
  index: number,
  fuzz: { classes: string[]; base: string; bytes: Buffer },
  max = 400,
): string {
  const text = JSON.stringify(fuzz.bytes.toString('latin1'));
  const shown = text.length > max ? `${text.slice(0, max)}..." (${fuzz.bytes.length} bytes)` : text;
  return `#${index} [${fuzz.classes.join(' + ')}] of ${fuzz.base}: ${shown}`;
}
