/**
 * bench:isolation's measured gateway, in a worker thread of its own (so that the bench's own work, a report's
 * answer or an import's 15,000 rows, never delays the clock that times the packets): a SIP gateway of a few lines
 * over node:dgram that dials a channel with digest (RFC 2617, MD5, qop=auth), offers PCMU and, once answered,
 * sends a 1 kHz tone in 20 ms PCMU packets from its one RTP socket (symmetric RTP) and notes when each packet of
 * the relay's arrives. The gateway is set up `quietBetween: false` (a desk phone, not a radio), so the relay sends
 * it the channel's mix all the time, 50 packets a second, silence included: every gap longer than 20 ms is a
 * packet the server's relay (or Janus) held back.
 *
 * Messages: in, `{ stats: [fromMs, toMs], id }` (epoch ms) and `{ hangUp: true }`; out, `{ ready }` once
 * the call is up (or `{ failed }`), `{ id, stats }` with the arrivals of the window (count, largest gap, gaps
 * over 40 ms) and `{ ended }`.
 */
import { createHash, randomBytes } from 'node:crypto';
import dgram from 'node:dgram';
import { parentPort, workerData } from 'node:worker_threads';
import { encodeG711, readRtp, writeRtp } from '../../packages/server/src/sip/rtp.ts';

export interface GatewayWorkerData {
  sipPort: number;
  login: string;
  secret: string;
  number: string;
}

export interface WindowStats {
  packets: number;
  maxGapMs: number;
  /** Gaps longer than 40 ms (two packets' time). */
  longGaps: number;
}

const { sipPort, login, secret, number } = workerData as GatewayWorkerData;
const now = () => performance.timeOrigin + performance.now();
const hex = (bytes: number) => randomBytes(bytes).toString('hex');
const md5 = (text: string) => createHash('md5').update(text).digest('hex');
const COMPACT: Record<string, string> = {
  i: 'call-id',
  v: 'via',
  f: 'from',
  t: 'to',
  m: 'contact',
  l: 'content-length',
};

interface Sip {
  start: string;
  status?: number;
  headers: Map<string, string[]>;
  body: string;
}

function parse(text: string): Sip | undefined {
  const split = text.indexOf('\r\n\r\n');
  const head = split < 0 ? text : text.slice(0, split);
  const [start, ...lines] = head.split('\r\n');
  if (!start) return undefined;
  const headers = new Map<string, string[]>();
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const raw = line.slice(0, colon).trim().toLowerCase();
    const name = COMPACT[raw] ?? raw;
    headers.set(name, [...(headers.get(name) ?? []), line.slice(colon + 1).trim()]);
  }
  const status = /^SIP\/2\.0 (\d{3})/.exec(start)?.[1];
  return { start, status: status ? Number(status) : undefined, headers, body: split < 0 ? '' : text.slice(split + 4) };
}

const header = (message: Sip, name: string) => message.headers.get(name)?.[0] ?? '';
const cseqOf = (message: Sip) => Number(header(message, 'cseq').split(/\s+/)[0]);

const sip = dgram.createSocket('udp4');
const rtp = dgram.createSocket('udp4');
await new Promise<void>((resolve) => sip.bind(0, '127.0.0.1', resolve));
await new Promise<void>((resolve) => rtp.bind(0, '127.0.0.1', resolve));
const ownSip = sip.address().port;
const ownRtp = rtp.address().port;
const uri = `sip:${number}@127.0.0.1:${sipPort}`;
const callId = hex(8);
const fromTag = hex(4);
let toTag = '';
/** Where requests inside the call go (RFC 3261 §12.2.1.1): the Contact of the server's 200, once answered. */
let target = uri;
const waiting = new Map<number, (message: Sip) => void>();
let ended = false;

function send(method: string, cseq: number, options: { branch?: string; headers?: string[]; sdp?: string } = {}) {
  const branch = options.branch ?? `z9hG4bK${hex(6)}`;
  const body = options.sdp ?? '';
  const lines = [
    `${method} ${target} SIP/2.0`,
    `Via: SIP/2.0/UDP 127.0.0.1:${ownSip};branch=${branch};rport`,
    'Max-Forwards: 70',
    `From: <sip:${login}@127.0.0.1>;tag=${fromTag}`,
    `To: <sip:${number}@127.0.0.1:${sipPort}>${toTag ? `;tag=${toTag}` : ''}`,
    `Call-ID: ${callId}`,
    `CSeq: ${cseq} ${method}`,
    `Contact: <sip:${login}@127.0.0.1:${ownSip}>`,
    ...(options.headers ?? []),
    ...(body ? ['Content-Type: application/sdp'] : []),
    `Content-Length: ${Buffer.byteLength(body)}`,
    '',
    body,
  ];
  sip.send(lines.join('\r\n'), sipPort, '127.0.0.1');
  return branch;
}

/** A request of the server's (a BYE, an OPTIONS): answered 200 with its own headers. */
function answer(request: Sip) {
  const lines = [
    'SIP/2.0 200 OK',
    ...(request.headers.get('via') ?? []).map((via) => `Via: ${via}`),
    `From: ${header(request, 'from')}`,
    `To: ${header(request, 'to')}`,
    `Call-ID: ${header(request, 'call-id')}`,
    `CSeq: ${header(request, 'cseq')}`,
    'Content-Length: 0',
    '',
    '',
  ];
  sip.send(lines.join('\r\n'), sipPort, '127.0.0.1');
  if (request.start.startsWith('BYE ')) {
    ended = true;
    const reason = header(request, 'reason');
    parentPort?.postMessage({ ended: `the server hung up (BYE${reason ? `: ${reason}` : ''})` });
  }
}

sip.on('message', (data) => {
  const message = parse(data.toString('utf8'));
  if (!message) return;
  if (message.status === undefined) return answer(message);
  if (message.status < 200 || header(message, 'call-id') !== callId) return;
  const wake = waiting.get(cseqOf(message));
  waiting.delete(cseqOf(message));
  wake?.(message);
});

const finalAnswer = (cseq: number) =>
  new Promise<Sip>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no final answer to INVITE ${cseq} within 15 s`)), 15_000);
    waiting.set(cseq, (message) => {
      clearTimeout(timer);
      resolve(message);
    });
  });

function digest(challenge: Sip): string {
  const params = Object.fromEntries(
    [...header(challenge, 'www-authenticate').matchAll(/(\w+)="?([^",]*)"?/g)].map((match) => [match[1], match[2]]),
  );
  const cnonce = hex(6);
  const ha1 = md5(`${login}:${params.realm}:${secret}`);
  const ha2 = md5(`INVITE:${uri}`);
  const auth = /\bauth\b/.test(params.qop ?? '');
  const response = auth
    ? md5(`${ha1}:${params.nonce}:00000001:${cnonce}:auth:${ha2}`)
    : md5(`${ha1}:${params.nonce}:${ha2}`);
  return (
    `Authorization: Digest username="${login}", realm="${params.realm}", nonce="${params.nonce}", uri="${uri}", ` +
    `response="${response}", algorithm=MD5${auth ? `, qop=auth, nc=00000001, cnonce="${cnonce}"` : ''}`
  );
}

const offer = [
  'v=0',
  `o=- ${Date.now()} 1 IN IP4 127.0.0.1`,
  's=-',
  'c=IN IP4 127.0.0.1',
  't=0 0',
  `m=audio ${ownRtp} RTP/AVP 0 101`,
  'a=rtpmap:0 PCMU/8000',
  'a=rtpmap:101 telephone-event/8000',
  'a=fmtp:101 0-15',
  'a=sendrecv',
  '',
].join('\r\n');

// The arrivals of the relay's packets, epoch ms.
const arrivals: number[] = [];
rtp.on('message', (data) => {
  const at = now();
  if (readRtp(data)) arrivals.push(at);
});

async function dial(): Promise<{ ip: string; port: number }> {
  const firstBranch = send('INVITE', 1, { sdp: offer });
  let final = await finalAnswer(1);
  if (final.status === 401) {
    toTag = /;tag=([^;\s>]+)/.exec(header(final, 'to'))?.[1] ?? '';
    send('ACK', 1, { branch: firstBranch });
    toTag = '';
    const second = finalAnswer(2);
    send('INVITE', 2, { headers: [digest(final)], sdp: offer });
    final = await second;
  }
  if (final.status !== 200) throw new Error(`the call was answered ${final.start}`);
  toTag = /;tag=([^;\s>]+)/.exec(header(final, 'to'))?.[1] ?? '';
  target = /<([^>]+)>/.exec(header(final, 'contact'))?.[1] ?? uri;
  send('ACK', cseqOf(final));
  const port = Number(/^m=audio (\d+)/m.exec(final.body)?.[1]);
  const ip = /^c=IN IP4 (\S+)/m.exec(final.body)?.[1] ?? '127.0.0.1';
  if (!port) throw new Error(`no audio port in the answer: ${final.body}`);
  return { ip, port };
}

/** A 1 kHz tone at a tenth of full scale, 20 ms of PCMU (8 kHz: a period is 8 samples, 160 is a whole number). */
const TONE = encodeG711(
  'pcmu',
  Float32Array.from({ length: 160 }, (_, i) => 0.1 * Math.sin((2 * Math.PI * i) / 8)),
);

function sendTone(media: { ip: string; port: number }) {
  const ssrc = randomBytes(4).readUInt32BE(0);
  let sequence = randomBytes(2).readUInt16BE(0);
  let timestamp = randomBytes(4).readUInt32BE(0);
  const started = performance.now();
  let sent = 0;
  // Paced from the start (not from the last tick): the stream keeps 50 packets a second over a late timer.
  const tick = () => {
    if (ended) return;
    const due = Math.floor((performance.now() - started) / 20) + 1;
    for (; sent < due; sent++) {
      sequence = (sequence + 1) & 0xffff;
      timestamp = (timestamp + 160) >>> 0;
      const packet = writeRtp({ payloadType: 0, marker: sent === 0, sequence, timestamp, ssrc, payload: TONE });
      rtp.send(packet, media.port, media.ip);
    }
    setTimeout(tick, 20 - ((performance.now() - started) % 20));
  };
  tick();
}

function stats([from, to]: [number, number]): WindowStats {
  let previous: number | undefined;
  let maxGapMs = 0;
  let longGaps = 0;
  let packets = 0;
  for (const at of arrivals) {
    if (at < from) {
      previous = at;
      continue;
    }
    if (at > to) break;
    packets++;
    if (previous !== undefined) {
      maxGapMs = Math.max(maxGapMs, at - previous);
      if (at - previous > 40) longGaps++;
    }
    previous = at;
  }
  // Nothing since the last packet up to the window's end is a gap too.
  if (previous !== undefined) maxGapMs = Math.max(maxGapMs, to - previous);
  return { packets, maxGapMs, longGaps };
}

parentPort?.on('message', (message: { stats?: [number, number]; id?: number; hangUp?: boolean }) => {
  if (message.stats) parentPort?.postMessage({ id: message.id, stats: stats(message.stats) });
  if (message.hangUp) {
    if (!ended) send('BYE', 10);
    ended = true;
    setTimeout(() => {
      sip.close();
      rtp.close();
      parentPort?.close();
    }, 200);
  }
});

try {
  const media = await dial();
  sendTone(media);
  parentPort?.postMessage({ ready: true });
} catch (error) {
  parentPort?.postMessage({ failed: String((error as Error).message) });
}
