/**
 * The SIP fuzzer's inputs (issue 57): real requests and responses as a gateway sends them (INVITE with its SDP
 * offer, REGISTER, ACK, BYE, OPTIONS, CANCEL, INFO; 200, 180, 401, 486...), and mutations of them: truncated,
 * oversized, binary, NUL bytes and unicode, headers removed, doubled or given garbage values, bad lengths, bad
 * start lines and Request-URIs, offers with impossible ports and addresses. Every choice comes from a seeded
 * PRNG, so that a failing case is replayed from its seed and index (SIP_FUZZ_SEED). The RTP side (datagrams for a
 * call's relay port) is here too.
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

const GARBAGE_VALUES = [
  '',
  'x',
  ' ',
  '\t',
  ';;;',
  '<',
  '>',
  '<sip:>',
  '"unterminated',
  '\\',
  '%00',
  '%',
  '-1',
  '0',
  '4294967296',
  '99999999999999999999999999',
  'NaN',
  'Infinity',
  '1e400',
  '<sip:a@[::1>',
  'sip:@',
  'sip::::',
  '<sip:x@127.0.0.1>;tag=',
  '<sip:x@127.0.0.1>;tag',
  ';tag=x',
  'Digest',
  'Digest username=',
  'Digest ,,,,',
  'Digest username="a"; realm="b"',
  'Basic YTpi',
  '日本語のヘッダ',
  '\u202e\u0000\uffff',
  '😀'.repeat(50),
  '\u0000',
  'a\u0000b',
  '\u00ff\u00fe',
] as const;

const CSEQS = [
  'x',
  '',
  ' ',
  '1',
  'INVITE',
  '-1 INVITE',
  '0 INVITE',
  '4294967296 INVITE',
  '99999999999999999999 INVITE',
  '1 FOO',
  '1 INVITE extra',
  '1.5 INVITE',
  'x INVITE',
  '1  INVITE',
  '١ INVITE',
];
const VIAS = [
  'SIP/2.0/UDP 127.0.0.1:5060',
  'SIP/2.0/UDP 127.0.0.1:5060;branch=',
  'SIP/2.0/UDP 127.0.0.1:5060;branch',
  'SIP/2.0/UDP',
  'SIP/2.0',
  'garbage',
  'SIP/2.0/SCTP 127.0.0.1;branch=z9hG4bKx',
  'SIP/2.0/UDP [::1;branch=z9hG4bKx',
  'SIP/2.0/UDP 127.0.0.1:99999;branch=z9hG4bKx',
  'SIP/2.0/UDP 127.0.0.1:-1;branch=z9hG4bKx',
  'SIP/2.0/UDP 127.0.0.1:0;branch=z9hG4bKx;rport=99999',
  'SIP/2.0/UDP 192.0.2.1:5060;branch=z9hG4bKx;received=300.1.1.1',
  'SIP/3.0/UDP 127.0.0.1;branch=z9hG4bKx',
  'SIP/2.0/UDP 127.0.0.1;branch=z9hG4bKx, SIP/2.0/UDP',
  'SIP/2.0/UDP example.invalid;branch=z9hG4bKx;maddr=example.invalid',
];
const LENGTHS = [
  '-1',
  '-100',
  '999999999',
  '99999999999999999999',
  'abc',
  '',
  ' ',
  '1e3',
  '0x10',
  '+5',
  '5.5',
  '0',
  '65536',
  '70000',
];
const START_LINES = [
  'INVITE',
  'INVITE sip:1001@127.0.0.1',
  'INVITE sip:1001@127.0.0.1 SIP/3.0',
  'INVITE sip:1001@127.0.0.1 SIP/2.0 extra',
  'FOO bar baz',
  'invite sip:1001@127.0.0.1 SIP/2.0',
  'INVITE http://example.org/ SIP/2.0',
  'INVITE tel:+33123456789 SIP/2.0',
  'INVITE <sip:1001@127.0.0.1> SIP/2.0',
  'INVITE sip: SIP/2.0',
  'INVITE sip:@ SIP/2.0',
  'INVITE sips:1001@127.0.0.1 SIP/2.0',
  'INVITE sip:1001@127.0.0.1:99999 SIP/2.0',
  'INVITE sip:1001@[::1 SIP/2.0',
  'REGISTER * SIP/2.0',
  'OPTIONS * SIP/2.0',
  'BYE sip:1001@127.0.0.1;transport=sctp;lr;maddr= SIP/2.0',
  'CANCEL sip:%00@127.0.0.1 SIP/2.0',
  'INVITE sip:日本@127.0.0.1 SIP/2.0',
  'SIP/2.0',
  'SIP/2.0 abc OK',
  'SIP/2.0 999 Nine',
  'SIP/2.0 99 Low',
  'SIP/2.0 200',
  'SIP/2.0 -200 OK',
  'SIP/2.0 2000000000000000000 OK',
  'SIP/1.0 200 OK',
  'HTTP/1.1 200 OK',
  'GET / HTTP/1.1',
  ' INVITE sip:1001@127.0.0.1 SIP/2.0',
  '',
];
const REQUEST_URIS = [
  'http://example.org/',
  'tel:1001',
  'mailto:a@b',
  'sip:',
  'sip:1001',
  'sip:1001@',
  'sip:1001@127.0.0.1:0',
  'sip:1001@127.0.0.1:65536',
  'sip:1001@127.0.0.1:-5',
  'sip:../../etc/passwd@127.0.0.1',
  `sip:${'9'.repeat(400)}@127.0.0.1`,
  'sip:1001;user=phone@127.0.0.1',
  'sip:0000@127.0.0.1',
  'sip:1001@127.0.0.1;transport=',
  'sip:%ff%fe@127.0.0.1',
  'sip:\u0000@127.0.0.1',
];
const UNICODE = ['é', 'ß', '日本語', '😀', '\u202e', '\u200b', '\ufeff', '\ud800', '\udfff', '\uffff', '𝕊𝕀ℙ'];
const COMPACT = ['v', 'i', 'f', 't', 'l', 'm', 'c', 'k', 's', 'e'];

/** The SDP mutations: what a forged or broken offer may say (each one its class name). */
const SDP_MUTATIONS: Array<[string, (lines: string[], rng: Prng) => string[]]> = [
  ['sdp port 0', (l) => l.map((x) => x.replace(/^m=audio \d+/, 'm=audio 0'))],
  ['sdp port 99999', (l) => l.map((x) => x.replace(/^m=audio \d+/, 'm=audio 99999'))],
  ['sdp port 65536', (l) => l.map((x) => x.replace(/^m=audio \d+/, 'm=audio 65536'))],
  ['sdp port -1', (l) => l.map((x) => x.replace(/^m=audio \d+/, 'm=audio -1'))],
  ['sdp port huge', (l) => l.map((x) => x.replace(/^m=audio \d+/, 'm=audio 99999999999999999999'))],
  ['sdp port not a number', (l) => l.map((x) => x.replace(/^m=audio \d+/, 'm=audio abc'))],
  ['sdp port range', (l) => l.map((x) => x.replace(/^m=audio (\d+)/, 'm=audio $1/2'))],
  ['sdp address hostname', (l) => l.map((x) => x.replace(/IN IP4 127\.0\.0\.1/, 'IN IP4 localhost'))],
  ['sdp address other', (l) => l.map((x) => x.replace(/IN IP4 127\.0\.0\.1/, 'IN IP4 192.0.2.7'))],
  [
    'sdp address bad',
    (l, r) =>
      l.map((x) =>
        x.replace(
          /IN IP4 127\.0\.0\.1/,
          `IN IP4 ${r.pick(['999.1.1.1', '', 'example.invalid', '0.0.0.0', '255.255.255.255', '::1', '127.0.0.1/127'])}`,
        ),
      ),
  ],
  ['sdp address IPv6', (l) => l.map((x) => x.replace(/IN IP4 127\.0\.0\.1/, 'IN IP6 ::1'))],
  ['sdp no m line', (l) => l.filter((x) => !x.startsWith('m='))],
  ['sdp no c line', (l) => l.filter((x) => !x.startsWith('c='))],
  ['sdp only v line', () => ['v=0']],
  ['sdp empty', () => []],
  [
    'sdp huge payload list',
    (l, r) =>
      l.map((x) =>
        x.startsWith('m=audio')
          ? `${x} ${Array.from({ length: r.between(200, 3000) }, (_, i) => i % 128).join(' ')}`
          : x,
      ),
  ],
  [
    'sdp huge rtpmap list',
    (l, r) => [...l, ...Array.from({ length: r.between(200, 2000) }, (_, i) => `a=rtpmap:${i % 128} PCMU/8000`)],
  ],
  [
    'sdp payload out of range',
    (l) => l.map((x) => x.replace(/^m=audio (\d+) RTP\/AVP .*/, 'm=audio $1 RTP/AVP 999 -1 x 101')),
  ],
  ['sdp no codec', (l) => l.map((x) => x.replace(/^m=audio (\d+) RTP\/AVP .*/, 'm=audio $1 RTP/AVP 3 101'))],
  [
    'sdp rtpmap garbage',
    (l) => [
      ...l,
      'a=rtpmap:0 ',
      'a=rtpmap:x PCMU',
      'a=rtpmap:101 telephone-event/abc',
      'a=fmtp:101 ',
      'a=rtpmap:0 PCMU/0',
    ],
  ],
  ['sdp telephone-event only', (l) => l.map((x) => x.replace(/^m=audio (\d+) RTP\/AVP .*/, 'm=audio $1 RTP/AVP 101'))],
  [
    'sdp opus',
    (l) => [
      ...l.map((x) => x.replace(/^m=audio (\d+) RTP\/AVP .*/, 'm=audio $1 RTP/AVP 111')),
      'a=rtpmap:111 opus/48000/2',
    ],
  ],
  ['sdp profile', (l, r) => l.map((x) => x.replace('RTP/AVP', r.pick(['RTP/SAVP', 'UDP/TLS/RTP/SAVPF', 'TCP', ''])))],
  ['sdp video only', (l) => l.map((x) => x.replace('m=audio', 'm=video'))],
  ['sdp two audio', (l) => [...l, 'm=audio 4002 RTP/AVP 0', 'c=IN IP4 192.0.2.1']],
  [
    'sdp direction',
    (l, r) => l.map((x) => (x === 'a=sendrecv' ? r.pick(['a=sendonly', 'a=recvonly', 'a=inactive', 'a=bogus']) : x)),
  ],
  ['sdp line garbage', (l, r) => l.map((x) => (r.chance(0.3) ? `${x[0] ?? 'x'}=${r.pick(GARBAGE_VALUES)}` : x))],
  ['sdp binary', (l, r) => [...l, r.bytes(r.between(10, 400)).toString('latin1')]],
  ['sdp ptime huge', (l) => [...l, 'a=ptime:999999', 'a=maxptime:-1']],
];

type Mutation = (parts: SipParts, rng: Prng) => SipParts;

const headerIndex = (parts: SipParts, name: string) =>
  parts.headers.findIndex(([header]) => header.toLowerCase() === name.toLowerCase());

function setHeader(parts: SipParts, name: string, value: string): SipParts {
  const headers = parts.headers.slice();
  const at = headerIndex(parts, name);
  if (at < 0) headers.unshift([name, value]);
  else headers[at] = [headers[at]?.[0] ?? name, value];
  return { ...parts, headers };
}

const withLength = (parts: SipParts): SipParts =>
  setHeader(parts, 'Content-Length', String(Buffer.byteLength(parts.body)));

/** Mutations of a message's parts; each keeps its Content-Length right unless wrong lengths are the point. */
const PART_MUTATIONS: Array<[string, Mutation]> = [
  ['intact', (p) => p],
  [
    'header removed',
    (p, r) => {
      const headers = p.headers.slice();
      for (let n = r.between(1, 3); n > 0 && headers.length > 0; n--) headers.splice(r.int(headers.length), 1);
      return { ...p, headers };
    },
  ],
  [
    'header duplicated',
    (p, r) => {
      const headers = p.headers.slice();
      const one = headers[r.int(headers.length)];
      if (one)
        for (let n = r.between(1, 4); n > 0; n--)
          headers.splice(r.int(headers.length + 1), 0, [one[0], r.chance(0.5) ? one[1] : r.pick(GARBAGE_VALUES)]);
      return { ...p, headers };
    },
  ],
  [
    'header garbage value',
    (p, r) => {
      const headers = p.headers.map(([name, value]): [string, string] =>
        r.chance(0.3) ? [name, r.pick(GARBAGE_VALUES)] : [name, value],
      );
      return { ...p, headers };
    },
  ],
  [
    'header name garbage',
    (p, r) => ({ ...p, headers: [...p.headers, [r.pick(['', ' ', 'X Y', 'Via ', ':', 'Ü', '\u0000']), 'x']] }),
  ],
  ['cseq bad', (p, r) => setHeader(p, 'CSeq', r.pick(CSEQS))],
  ['via bad', (p, r) => setHeader(p, 'Via', r.pick(VIAS))],
  [
    'via many',
    (p, r) => ({
      ...p,
      headers: [
        ...Array.from({ length: r.between(50, 800) }, (): [string, string] => [
          'Via',
          `SIP/2.0/UDP 10.0.0.${r.int(255)};branch=z9hG4bK${r.hex(8)}`,
        ]),
        ...p.headers,
      ],
    }),
  ],
  ['content-length bad', (p, r) => setHeader(p, 'Content-Length', r.pick(LENGTHS))],
  [
    'content-length mismatched',
    (p, r) =>
      setHeader(
        p,
        'Content-Length',
        String(Math.max(0, Buffer.byteLength(p.body) + r.pick([-50, -5, -1, 1, 5, 200, 5000]))),
      ),
  ],
  [
    'content-length twice',
    (p, r) => ({ ...p, headers: [...p.headers, ['Content-Length', String(r.between(0, 500))]] }),
  ],
  [
    'content-length missing',
    (p) => ({ ...p, headers: p.headers.filter(([name]) => name.toLowerCase() !== 'content-length') }),
  ],
  ['start line bad', (p, r) => ({ ...p, start: r.pick(START_LINES) })],
  [
    'request-uri bad',
    (p, r) => ({
      ...p,
      start: p.start.startsWith('SIP/') ? p.start : p.start.replace(/^(\S+) \S+/, `$1 ${r.pick(REQUEST_URIS)}`),
    }),
  ],
  [
    'method unknown',
    (p, r) => ({
      ...p,
      start: p.start.startsWith('SIP/')
        ? p.start
        : p.start.replace(
            /^\S+/,
            r.pick([
              'PRACK',
              'UPDATE',
              'SUBSCRIBE',
              'NOTIFY',
              'MESSAGE',
              'REFER',
              'PUBLISH',
              'X'.repeat(300),
              'INV\u0000ITE',
              'ÍNVITE',
            ]),
          ),
    }),
  ],
  [
    'unicode',
    (p, r) => {
      const text = serialize(p);
      const at = r.int(text.length);
      return parseBack(`${text.slice(0, at)}${r.pick(UNICODE)}${text.slice(at)}`);
    },
  ],
  [
    'compact headers',
    (p, r) => ({
      ...p,
      headers: [
        ...p.headers,
        ...Array.from({ length: r.between(1, 6) }, (): [string, string] => [r.pick(COMPACT), r.pick(GARBAGE_VALUES)]),
      ],
    }),
  ],
  ['max-forwards bad', (p, r) => setHeader(p, 'Max-Forwards', r.pick(['0', '-1', 'x', '256', '99999999999']))],
  ['expires bad', (p, r) => setHeader(p, 'Expires', r.pick(['-1', 'x', '99999999999999', '1.5', '']))],
  [
    'authorization garbage',
    (p, r) => setHeader(p, r.pick(['Authorization', 'Proxy-Authorization']), r.pick(GARBAGE_VALUES)),
  ],
  [
    'authorization odd params',
    (p, r) =>
      setHeader(
        p,
        'Authorization',
        `Digest username="${r.pick(['radio-quai', '', '\u0000', 'a'.repeat(5000), '日本', "' OR 1=1 --"])}", realm="${r.pick(['talkgroup', '', 'x'])}", nonce="${r.pick(['', 'a.b', `${Date.now().toString(36)}.x`, '1.2.3'])}", uri="${r.pick(['', 'sip:x', 'http://x'])}", response="${r.pick(['', 'zz', 'a'.repeat(32)])}", algorithm=${r.pick(['MD5', 'SHA-256', 'MD5-sess', 'x'])}, qop=${r.pick(['auth', 'auth-int', ''])}, nc=${r.pick(['00000001', 'x', '-1', 'ffffffffff'])}, cnonce=""`,
      ),
  ],
  [
    'content-type odd',
    (p, r) =>
      setHeader(
        p,
        'Content-Type',
        r.pick([
          'application/sdp;charset=\u0000',
          'multipart/mixed;boundary=x',
          'text/plain',
          '',
          'application/dtmf-relay',
        ]),
      ),
  ],
  [
    'sdp mutation',
    (p, r) => {
      if (!p.body.startsWith('v=0'))
        return withLength({ ...setHeader(p, 'Content-Type', 'application/sdp'), body: offer('127.0.0.1', 4000) });
      const [, mutate] = r.pick(SDP_MUTATIONS);
      return withLength({ ...p, body: `${mutate(p.body.split('\r\n').filter(Boolean), r).join('\r\n')}\r\n` });
    },
  ],
  ['body oversized', (p, r) => withLength({ ...p, body: p.body + 'a=x-pad:'.padEnd(r.between(1_000, 50_000), 'y') })],
  [
    'header oversized',
    (p, r) => ({
      ...p,
      headers: [
        ...p.headers,
        [r.pick(['X-Pad', 'Subject', 'Via', 'Contact', 'Call-ID', 'From']), 'z'.repeat(r.between(4_000, 50_000))],
      ],
    }),
  ],
  [
    'header lines many',
    (p, r) => ({
      ...p,
      headers: [
        ...p.headers,
        ...Array.from({ length: r.between(1_000, 4_000) }, (_, i): [string, string] => [`X-${i}`, `${i}`]),
      ],
    }),
  ],
  [
    'header folded',
    (p, r) => ({
      ...p,
      headers: p.headers.map(([name, value]): [string, string] => [
        name,
        r.chance(0.3) ? `${value}\r\n ${r.pick(GARBAGE_VALUES)}` : value,
      ]),
    }),
  ],
  ['in-dialog stranger', (p, r) => setHeader(p, 'To', `<sip:1001@127.0.0.1>;tag=${r.hex(8)}`)],
];

/** Mutations of the bytes once written. */
const BYTE_MUTATIONS: Array<[string, (bytes: Buffer, rng: Prng) => Buffer]> = [
  ['truncated', (b, r) => b.subarray(0, r.int(b.length))],
  ['nul bytes', (b, r) => insert(b, r, () => Buffer.from([0]), r.between(1, 10))],
  ['binary inserted', (b, r) => insert(b, r, () => r.bytes(r.between(1, 64)), r.between(1, 4))],
  [
    'bit flips',
    (b, r) => {
      const out = Buffer.from(b);
      for (let n = r.between(1, 20); n > 0 && out.length > 0; n--) out[r.int(out.length)] ^= 1 << r.int(8);
      return out;
    },
  ],
  ['line endings LF', (b) => Buffer.from(b.toString('latin1').replace(/\r\n/g, '\n'), 'latin1')],
  ['line endings CR', (b) => Buffer.from(b.toString('latin1').replace(/\r\n/g, '\r'), 'latin1')],
  ['no blank line', (b) => Buffer.from(b.toString('latin1').replace('\r\n\r\n', '\r\n'), 'latin1')],
  [
    'invalid utf-8',
    (b, r) =>
      insert(
        b,
        r,
        () => Buffer.from(r.pick([[0xc3], [0xff, 0xfe], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xe2, 0x82]])),
        r.between(1, 5),
      ),
  ],
];

function insert(bytes: Buffer, rng: Prng, piece: () => Buffer, times: number): Buffer {
  let out = bytes;
  for (let n = 0; n < times; n++) {
    const at = rng.int(out.length + 1);
    out = Buffer.concat([out.subarray(0, at), piece(), out.subarray(at)]);
  }
  return out;
}

function parseBack(text: string): SipParts {
  const [head = '', ...rest] = text.split('\r\n\r\n');
  const [start = '', ...lines] = head.split('\r\n');
  return {
    start,
    headers: lines.map((line): [string, string] => {
      const at = line.indexOf(':');
      return at < 0 ? [line, ''] : [line.slice(0, at), line.slice(at + 1).trimStart()];
    }),
    body: rest.join('\r\n\r\n'),
  };
}

/** Hand-picked inputs, sent as they are before the random ones (the issue's datagram first). */
export const KNOWN_CASES: Array<[string, string]> = [
  ['killer datagram', 'SIP/2.0 200 OK\r\nCSeq: x\r\n\r\n'],
  ['response without headers', 'SIP/2.0 200 OK\r\n\r\n'],
  ['response CSeq only number', 'SIP/2.0 200 OK\r\nCSeq: 1\r\n\r\n'],
  ['response Via only', 'SIP/2.0 200 OK\r\nVia: SIP/2.0/UDP 127.0.0.1;branch=z9hG4bKx\r\n\r\n'],
  ['response CSeq empty', 'SIP/2.0 180 Ringing\r\nCSeq: \r\nCall-ID: a\r\n\r\n'],
  ['request bare', 'INVITE sip:1001@127.0.0.1 SIP/2.0\r\n\r\n'],
  ['request CSeq x', 'OPTIONS sip:1001@127.0.0.1 SIP/2.0\r\nCSeq: x\r\n\r\n'],
  [
    'request CSeq x with headers',
    'INVITE sip:1001@127.0.0.1 SIP/2.0\r\nVia: SIP/2.0/UDP 127.0.0.1:5;branch=z9hG4bKa\r\nFrom: <sip:a@b>;tag=1\r\nTo: <sip:1001@127.0.0.1>\r\nCall-ID: k1\r\nCSeq: x\r\n\r\n',
  ],
  [
    'CANCEL without INVITE',
    'CANCEL sip:1001@127.0.0.1 SIP/2.0\r\nVia: SIP/2.0/UDP 127.0.0.1:5;branch=z9hG4bKzz\r\nFrom: <sip:a@b>;tag=1\r\nTo: <sip:1001@127.0.0.1>\r\nCall-ID: k2\r\nCSeq: 1 CANCEL\r\nContent-Length: 0\r\n\r\n',
  ],
  ['keep-alive padding', `${'\r\n'.repeat(30)}`],
  ['spaces', ' '.repeat(100)],
];

/** One case of the corpus: the known ones first, then a base message with one to three mutations. */
export function fuzzCase(rng: Prng, target: Target, index: number): FuzzCase {
  const known = KNOWN_CASES[index];
  if (known) return { classes: [known[0]], base: 'known', bytes: Buffer.from(known[1], 'utf8') };
  if (rng.chance(0.04)) return { classes: ['random bytes'], base: 'none', bytes: rng.bytes(rng.between(1, 2000)) };
  const { name, parts } = baseMessage(rng, target);
  const classes: string[] = [];
  let mutated = parts;
  const count = rng.pick([1, 1, 1, 2, 2, 3]);
  for (let n = 0; n < count; n++) {
    const [klass, mutate] = rng.pick(PART_MUTATIONS);
    mutated = mutate(mutated, rng);
    classes.push(klass);
  }
  let bytes: Buffer = Buffer.from(serialize(mutated), 'utf8');
  if (rng.chance(0.35)) {
    const [klass, mutate] = rng.pick(BYTE_MUTATIONS);
    bytes = mutate(bytes, rng);
    classes.push(klass);
  }
  return { classes, base: name, bytes };
}

/** An SDP offer for an authenticated INVITE: the real one or one of its mutations (class "sdp ..."). */
export function sdpCase(rng: Prng, ip: string, port: number, index: number): { klass: string; body: string } {
  const [klass, mutate] = SDP_MUTATIONS[index % SDP_MUTATIONS.length] ?? ['sdp intact', (l: string[]) => l];
  let lines = mutate(offerLines(ip, port), rng);
  // A second mutation now and then, on top of the first.
  if (rng.chance(0.2)) lines = rng.pick(SDP_MUTATIONS)[1](lines, rng);
  // The INVITE must fit in one UDP datagram (65,507 bytes): a longer offer loses lines from its end.
  let body = `${lines.join('\r\n')}\r\n`;
  while (body.length > 50_000) {
    lines = lines.slice(0, Math.floor(lines.length * 0.8));
    body = `${lines.join('\r\n')}\r\n`;
  }
  return { klass, body };
}

export const SDP_CASE_COUNT = SDP_MUTATIONS.length;

/** A datagram for a relay port: RTP-shaped (any version, payload type, size, telephone events) or random bytes. */
export function rtpCase(rng: Prng): { klass: string; bytes: Buffer } {
  const header = (pt: number, extra = 0) => {
    const b = Buffer.alloc(12 + extra);
    b[0] = 0x80 | (rng.chance(0.1) ? 0x20 : 0) | (rng.chance(0.1) ? 0x10 : 0) | (rng.chance(0.1) ? rng.int(16) : 0);
    b[1] = (rng.chance(0.1) ? 0x80 : 0) | (pt & 0x7f);
    b.writeUInt16BE(rng.int(65536), 2);
    b.writeUInt32BE(rng.int(2 ** 32), 4);
    b.writeUInt32BE(rng.int(2 ** 32), 8);
    return b;
  };
  switch (rng.int(9)) {
    case 0:
      return { klass: 'rtp pcmu frame', bytes: Buffer.concat([header(0), rng.bytes(160)]) };
    case 1:
      return {
        klass: 'rtp oversized',
        bytes: Buffer.concat([header(rng.pick([0, 8, 101])), rng.bytes(rng.between(1_300, 60_000))]),
      };
    case 2:
      return {
        klass: 'rtp telephone-event',
        bytes: Buffer.concat([header(101), Buffer.from([rng.int(256), rng.int(256), rng.int(256), rng.int(256)])]),
      };
    case 3:
      return { klass: 'rtp telephone-event short', bytes: Buffer.concat([header(101), rng.bytes(rng.int(4))]) };
    case 4:
      return {
        klass: 'rtp payload type other',
        bytes: Buffer.concat([header(rng.int(128)), rng.bytes(rng.between(0, 400))]),
      };
    case 5:
      return { klass: 'rtp header only or shorter', bytes: header(0).subarray(0, rng.between(0, 12)) };
    case 6: {
      // Extension and CSRC counts that run past the packet's end.
      const b = Buffer.concat([header(0), rng.bytes(rng.between(0, 40))]);
      b[0] = 0x90 | 0x0f;
      return { klass: 'rtp lengths past the end', bytes: b };
    }
    case 7: {
      // Padding bit with a padding count larger than the packet.
      const b = Buffer.concat([header(0), rng.bytes(rng.between(1, 200))]);
      b[0] = (b[0] ?? 0x80) | 0x20;
      b[b.length - 1] = 255;
      return { klass: 'rtp padding past the start', bytes: b };
    }
    default:
      return { klass: 'random datagram', bytes: rng.bytes(rng.between(1, 1_500)) };
  }
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
