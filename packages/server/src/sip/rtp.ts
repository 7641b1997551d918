/**
 * What the gateway's media relay reads and writes of RTP (RFC 3550) and its payloads: the fixed header, G.711's
 * samples (ITU-T G.711 μ-law and A-law, to measure a gateway's voice and to write a busy tone) and RFC 4733's
 * telephone events (a gateway's DTMF keys). Opus is libopus's (g711-opus.ts); a gateway that speaks Opus itself has
 * its voice activity read from its packets' sizes (sip/voice-activity.ts).
 */

export interface RtpPacket {
  payloadType: number;
  marker: boolean;
  sequence: number;
  timestamp: number;
  ssrc: number;
  payload: Buffer;
}

/** Reads an RTP packet; undefined when it is not one (a STUN or RTCP packet, a stray datagram). */
export function readRtp(data: Buffer): RtpPacket | undefined {
  if (data.length < 12 || data[0] >> 6 !== 2) return undefined;
  const payloadType = data[1] & 0x7f;
  // RTCP's packet types 200-204 read as payload types 72-76 with the marker bit: not media.
  if (payloadType >= 72 && payloadType <= 76) return undefined;
  let offset = 12 + (data[0] & 0x0f) * 4;
  if (data[0] & 0x10) {
    if (data.length < offset + 4) return undefined;
    offset += 4 + data.readUInt16BE(offset + 2) * 4;
  }
  let end = data.length;
  if (data[0] & 0x20) end -= data[data.length - 1];
  if (offset > end) return undefined;
  return {
    payloadType,
    marker: (data[1] & 0x80) !== 0,
    sequence: data.readUInt16BE(2),
    timestamp: data.readUInt32BE(4),
    ssrc: data.readUInt32BE(8),
    payload: data.subarray(offset, end),
  };
}

export function writeRtp(packet: RtpPacket): Buffer {
  const header = Buffer.alloc(12);
  header[0] = 0x80;
  header[1] = (packet.marker ? 0x80 : 0) | (packet.payloadType & 0x7f);
  header.writeUInt16BE(packet.sequence & 0xffff, 2);
  header.writeUInt32BE(packet.timestamp >>> 0, 4);
  header.writeUInt32BE(packet.ssrc >>> 0, 8);
  return Buffer.concat([header, packet.payload]);
}

/** G.711 μ-law byte to a linear 16-bit sample. */
function ulawToLinear(byte: number): number {
  const u = ~byte & 0xff;
  const t = (((u & 0x0f) << 3) + 0x84) << ((u & 0x70) >> 4);
  return u & 0x80 ? 0x84 - t : t - 0x84;
}

/** G.711 A-law byte to a linear 16-bit sample. */
function alawToLinear(byte: number): number {
  const a = byte ^ 0x55;
  const segment = (a & 0x70) >> 4;
  let t = (a & 0x0f) << 4;
  t = segment === 0 ? t + 8 : segment === 1 ? t + 0x108 : (t + 0x108) << (segment - 1);
  return a & 0x80 ? t : -t;
}

const ULAW = Int16Array.from({ length: 256 }, (_, byte) => ulawToLinear(byte));
const ALAW = Int16Array.from({ length: 256 }, (_, byte) => alawToLinear(byte));

/** Linear 16-bit sample to μ-law. */
function linearToUlaw(sample: number): number {
  const BIAS = 0x84;
  const sign = sample < 0 ? 0x80 : 0;
  let magnitude = Math.min(Math.abs(sample), 32635) + BIAS;
  let exponent = 7;
  for (let mask = 0x4000; (magnitude & mask) === 0 && exponent > 0; mask >>= 1) exponent--;
  const mantissa = (magnitude >> (exponent + 3)) & 0x0f;
  magnitude = ~(sign | (exponent << 4) | mantissa) & 0xff;
  return magnitude;
}

/** Linear 16-bit sample to A-law. */
function linearToAlaw(sample: number): number {
  const sign = sample >= 0 ? 0x80 : 0;
  const magnitude = Math.min(Math.abs(sample), 32767) >> 3;
  let segment = 0;
  for (let limit = 0x1f; magnitude > limit && segment < 7; limit = (limit << 1) | 1) segment++;
  const mantissa = segment < 2 ? (magnitude >> 1) & 0x0f : (magnitude >> segment) & 0x0f;
  return ((sign | (segment << 4) | mantissa) ^ 0x55) & 0xff;
}

export type G711 = 'pcmu' | 'pcma';

/** The level of a G.711 payload: its RMS, as a fraction of full scale (0..1). */
export function g711Level(codec: G711, payload: Buffer): number {
  if (payload.length === 0) return 0;
  const table = codec === 'pcmu' ? ULAW : ALAW;
  let sum = 0;
  for (const byte of payload) sum += table[byte] * table[byte];
  return Math.sqrt(sum / payload.length) / 32768;
}

/** Decodes a G.711 payload to linear 16-bit samples. */
export function decodeG711(codec: G711, payload: Buffer): Int16Array {
  const table = codec === 'pcmu' ? ULAW : ALAW;
  return Int16Array.from(payload, (byte) => table[byte]);
}

/** Encodes linear 16-bit samples as G.711. */
export function encodeG711Samples(codec: G711, samples: Int16Array): Buffer {
  const out = Buffer.alloc(samples.length);
  const encode = codec === 'pcmu' ? linearToUlaw : linearToAlaw;
  for (let i = 0; i < samples.length; i++) out[i] = encode(samples[i]);
  return out;
}

/** Encodes linear samples as G.711. */
export function encodeG711(codec: G711, samples: Float32Array): Buffer {
  const out = Buffer.alloc(samples.length);
  const encode = codec === 'pcmu' ? linearToUlaw : linearToAlaw;
  for (let i = 0; i < samples.length; i++) out[i] = encode(Math.round(samples[i] * 32767));
  return out;
}

/**
 * The busy tone a page plays when the floor is refused, for a gateway: 425 Hz (ETSI's), 250 ms on and 250 ms off,
 * three times: 20 ms frames of 8 kHz G.711, silence frames included (a radio hears a tone, then nothing).
 */
export function busyTone(codec: G711): Buffer[] {
  const frames: Buffer[] = [];
  const rate = 8000;
  const perFrame = 160;
  for (let frame = 0; frame < 75; frame++) {
    const samples = new Float32Array(perFrame);
    const on = Math.floor(frame / 12.5) % 2 === 0;
    if (on)
      for (let i = 0; i < perFrame; i++)
        samples[i] = 0.3 * Math.sin((2 * Math.PI * 425 * (frame * perFrame + i)) / rate);
    frames.push(encodeG711(codec, samples));
  }
  return frames;
}

/** A telephone event (RFC 4733): the key, and whether this packet ends it. */
export interface TelephoneEvent {
  key: string;
  end: boolean;
}

const EVENT_KEYS = '0123456789*#ABCD';

export function readTelephoneEvent(payload: Buffer): TelephoneEvent | undefined {
  if (payload.length < 4 || payload[0] >= EVENT_KEYS.length) return undefined;
  return { key: EVENT_KEYS[payload[0]], end: (payload[1] & 0x80) !== 0 };
}
