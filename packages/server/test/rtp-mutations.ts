/** The SIP fuzzer's datagrams for a live call's relay port (issue 57): RTP-shaped ones and random bytes. */
import type { Prng } from './sip-mutations.ts';

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
