/**
 * The SIP fuzzer's offers (issue 57): the SDP mutations an authenticated INVITE carries (impossible ports and
 * addresses, no m= or c= line, huge payload lists, garbage lines...), each named by its class, and the offer of
 * each case of that part.
 */
import { GARBAGE_VALUES } from './sip-bad-values.ts';
import { offerLines, type Prng } from './sip-mutations.ts';

/** The SDP mutations: what a forged or broken offer may say (each one its class name). */
export const SDP_MUTATIONS: Array<[string, (lines: string[], rng: Prng) => string[]]> = [
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
