/**
 * A gateway's SDP offer and our answer (issue 51), read and written with sdp-transform: the audio stream's
 * address, the codec chosen (G.711 first: radio gateways speak it, and a gateway's voice activity is measured on
 * its samples; Opus when it is all the gateway offers) and its telephone events (RFC 4733, a gateway's DTMF).
 */
import { isIP } from 'node:net';
import { parse, write } from 'sdp-transform';
import type { GatewayCodec } from './rtp-relay.ts';

export interface OfferedAudio {
  ip: string;
  port: number;
  codec: GatewayCodec;
  payloadType: number;
  /** The telephone-event payload type at the codec's clock rate, when offered. */
  eventPt?: number;
  /** The gateway only sends (`sendonly`) or only receives (`recvonly`); `sendrecv` otherwise. */
  direction: 'sendrecv' | 'sendonly' | 'recvonly' | 'inactive';
}

/** Why an offer cannot be answered: said in the 488's reason and the log. */
export class OfferRefused extends Error {}

const PREFERENCE: Array<{ codec: GatewayCodec; name: string; rate: number; staticPt?: number }> = [
  { codec: 'pcmu', name: 'pcmu', rate: 8000, staticPt: 0 },
  { codec: 'pcma', name: 'pcma', rate: 8000, staticPt: 8 },
  { codec: 'opus', name: 'opus', rate: 48000 },
];

/** A port media may be sent to: 1 to 65535 (0 is a refused stream, RFC 3264 §6). */
const validPort = (port: unknown): port is number =>
  Number.isInteger(port) && (port as number) >= 1 && (port as number) <= 65535;

/**
 * The offer's audio, or OfferRefused: a port outside 1-65535, an address that is not an IP literal (a name would
 * need a lookup, and could name anyone), payload types outside 0-127, or anything sdp-transform cannot read.
 */
export function readOffer(sdp: string): OfferedAudio {
  try {
    return readAudio(sdp);
  } catch (error) {
    if (error instanceof OfferRefused) throw error;
    throw new OfferRefused(`the offer cannot be read: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function readAudio(sdp: string): OfferedAudio {
  const session = parse(sdp);
  const audios = (session.media ?? []).filter((media) => media.type === 'audio');
  const audio = audios.find((media) => media.port !== 0);
  if (!audio) throw new OfferRefused('the offer has no audio stream');
  if (!validPort(audio.port)) throw new OfferRefused(`the audio stream's port ${String(audio.port)} is not 1-65535`);
  if (!/^RTP\/AVP$/i.test(audio.protocol))
    throw new OfferRefused(`the audio stream's profile ${audio.protocol} is not RTP/AVP`);
  const ip = audio.connection?.ip ?? session.connection?.ip;
  if (!ip) throw new OfferRefused('the offer names no address');
  if (isIP(ip) === 0) throw new OfferRefused(`the offer's address ${ip.slice(0, 60)} is not an IP address`);
  const offered = String(audio.payloads ?? '')
    .split(/\s+/)
    .filter(Boolean)
    .map(Number);
  if (offered.length === 0 || offered.length > 64 || offered.some((pt) => !Number.isInteger(pt) || pt < 0 || pt > 127))
    throw new OfferRefused("the audio stream's payload types are not 0-127");
  const rtpmap = (pt: number) => (audio.rtp ?? []).find((entry) => entry.payload === pt);
  let chosen: { codec: GatewayCodec; payloadType: number; rate: number } | undefined;
  for (const wanted of PREFERENCE) {
    const pt = offered.find((candidate) => {
      const map = rtpmap(candidate);
      if (map) return map.codec.toLowerCase() === wanted.name && map.rate === wanted.rate;
      return candidate === wanted.staticPt;
    });
    if (pt !== undefined) {
      chosen = { codec: wanted.codec, payloadType: pt, rate: wanted.rate };
      break;
    }
  }
  if (!chosen) throw new OfferRefused('the offer has none of PCMU, PCMA and Opus');
  const eventPt = offered.find((pt) => {
    const map = rtpmap(pt);
    return map?.codec.toLowerCase() === 'telephone-event' && map.rate === chosen.rate;
  });
  const direction = (audio.direction ?? session.direction ?? 'sendrecv') as OfferedAudio['direction'];
  return { ip, port: audio.port, codec: chosen.codec, payloadType: chosen.payloadType, eventPt, direction };
}

/** Our answer: the chosen codec (and telephone events) at our relay's address. */
export function writeAnswer(offer: OfferedAudio, ours: { ip: string; port: number }, sessionId: number): string {
  const ipVersion = ours.ip.includes(':') ? 6 : 4;
  const rtp = [
    {
      payload: offer.payloadType,
      codec: offer.codec === 'opus' ? 'opus' : offer.codec.toUpperCase(),
      rate: offer.codec === 'opus' ? 48000 : 8000,
      ...(offer.codec === 'opus' ? { encoding: 2 } : {}),
    },
  ];
  const fmtp = [];
  if (offer.codec === 'opus')
    fmtp.push({ payload: offer.payloadType, config: 'useinbandfec=1;stereo=0;sprop-stereo=0' });
  if (offer.eventPt !== undefined) {
    rtp.push({ payload: offer.eventPt, codec: 'telephone-event', rate: offer.codec === 'opus' ? 48000 : 8000 });
    fmtp.push({ payload: offer.eventPt, config: '0-15' });
  }
  // The gateway's direction answered as RFC 3264 says: it sends only, we receive only; and the other way round.
  const direction =
    offer.direction === 'sendonly' ? 'recvonly' : offer.direction === 'recvonly' ? 'sendonly' : offer.direction;
  return write({
    version: 0,
    origin: {
      username: '-',
      sessionId,
      sessionVersion: 1,
      netType: 'IN',
      ipVer: ipVersion,
      address: ours.ip,
    },
    name: 'Talkgroup',
    connection: { version: ipVersion, ip: ours.ip },
    timing: { start: 0, stop: 0 },
    media: [
      {
        type: 'audio',
        port: ours.port,
        protocol: 'RTP/AVP',
        payloads: rtp.map((entry) => entry.payload).join(' '),
        rtp,
        fmtp,
        ptime: 20,
        direction,
      },
    ],
  });
}
