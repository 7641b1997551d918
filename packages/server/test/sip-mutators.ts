/**
 * The SIP fuzzer's mutations (issue 57): of a base message's parts (headers removed, doubled or given garbage
 * values, bad CSeq, Via, Content-Length, start line, Request-URI, unicode, oversized, a mutated offer...) and of its
 * bytes once written (truncated, NUL bytes, binary, bit flips, line endings, invalid UTF-8); and the corpus's cases:
 * the hand-picked ones first, then a base message with one to three of those.
 */
import { COMPACT, CSEQS, GARBAGE_VALUES, LENGTHS, REQUEST_URIS, START_LINES, UNICODE, VIAS } from './sip-bad-values.ts';
import {
  baseMessage,
  type FuzzCase,
  offer,
  type Prng,
  type SipParts,
  serialize,
  type Target,
} from './sip-mutations.ts';
import { SDP_MUTATIONS } from './sip-offer-mutations.ts';

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
