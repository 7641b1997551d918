/**
 * A gateway's media between the gateway and Janus (issue 51), as one of the relay's threads runs it
 * (relay-thread.ts; rtp-relay.ts is its face on the main thread). The gateway never talks to Janus directly: its
 * RTP comes to a port of SIP_RTP_PORTS here, and this relay
 *
 * - accepts packets only from the address the call signalled from (or one of the gateway's allowed addresses)
 *   and sends only to the address its SDP named, once checked the same way: a forged SDP cannot turn the server
 *   into a source of RTP towards a third party;
 * - reads the gateway's DTMF (RFC 4733 telephone events, never forwarded) and its voice activity (its floor's
 *   press and release, voice-activity.ts), and forwards its voice to Janus, where it is heard only while the
 *   gateway holds the floor (Janus mutes it otherwise);
 * - turns a G.711 gateway's voice into Opus for Janus and the channel's back into G.711 (g711-opus.ts: Janus's own
 *   G.711 resampling loses 15.6 dB and adds images);
 * - forwards the channel's mix to the gateway with a sequence and timestamps of its own (so that a busy tone can
 *   be put in and gaps stay gaps), and, for a radio (`quietBetween`), nothing at all while the channel is
 *   silent: a radio keys its transmitter on RTP.
 *
 * Everything here is plain data in and events out, so that the per-packet work never runs on the main thread.
 */

import { randomInt } from 'node:crypto';
import dgram from 'node:dgram';
import { lookup } from 'node:dns/promises';
import { addressAllowed } from '../gateways/addresses.ts';
import type { RtpAddress } from '../janus/room-requests.ts';
import { G711OpusBridge, OPUS_FRAME_TICKS } from './g711-opus.ts';
import { busyTone, g711Level, readRtp, readTelephoneEvent, writeRtp } from './rtp.ts';
import { OPUS_VOICE_BYTES, VOICE_LEVEL, type VoiceActivity, voiceActivity } from './voice-activity.ts';

export type GatewayCodec = 'pcmu' | 'pcma' | 'opus';

/** A packet from Janus quieter than this (RMS, a fraction of full scale) is the mix's silence: no one talks. */
const SILENCE_LEVEL = 0.002;
/** An Opus packet this small is silence. */
const OPUS_SILENCE_BYTES = 10;
/** After the channel's last sound, packets still go to a quiet-between gateway this long (a pause in a sentence). */
const QUIET_HANGOVER_MS = 600;
/** A gap longer than this in what is sent to the gateway starts a new talk spurt (the marker bit, a timestamp jump). */
const SPURT_GAP_MS = 100;
/**
 * What a gateway's packet may be (issue 57), past which it is dropped before the floor, the voice activity or the
 * codec see it: a payload no larger than a frame can be (G.711's 60 ms, 480 bytes; Opus's 1,275 bytes, RFC 6716),
 * and at most this many packets a second (20 ms frames are 50, with telephone events and jitter well under it).
 */
export const MAX_PAYLOAD = { pcmu: 480, pcma: 480, opus: 1275 } as const;
export const MAX_PACKETS_PER_SECOND = 150;

/** SIP_RTP_PORTS has no free port left: the call is answered 503 with Retry-After (and audited). */
export class PortsExhausted extends Error {}

/** A call's media as the main thread describes it to a relay thread: plain data, posted once. */
export interface MediaOptions {
  /** Where the gateway side binds. */
  bindHost: string;
  ports: { min: number; max: number };
  codec: GatewayCodec;
  /** The gateway's audio payload type and its telephone-event's (undefined: none offered). */
  audioPt: number;
  eventPt?: number;
  /** The payload type of our Opus stream to Janus (a G.711 gateway's). */
  opusPt: number;
  /** Where the SDP offer asked for the media. */
  remote: RtpAddress;
  /** Whose packets and destinations are the gateway's: the call's signalling address, and the gateway's list. */
  addresses: { ip: string; allowed: string[] };
  quietBetween: boolean;
  /** Floor by voice: its attack and hang time (undefined: the gateway takes the floor with DTMF). */
  voice?: { attackMs: number; hangMs: number };
}

/** Packets from the gateway, to Janus, from Janus, to the gateway; refused (another address) and dropped. */
export interface Counts {
  fromGateway: number;
  toJanus: number;
  fromJanus: number;
  toGateway: number;
  refused: number;
  dropped: number;
}

/** What a call's media tells the main thread: a few events a transmission, never one a packet. */
export interface MediaEvents {
  voice(change: 'press' | 'release'): void;
  key(key: string): void;
  /** The channel's sound began going to the gateway (epoch ms, sub-millisecond). */
  sound(at: number): void;
  /** An error in the handling of one packet or tick: that packet is lost, and it is said here. */
  fault(error: unknown): void;
}

const clockRate = (codec: GatewayCodec) => (codec === 'opus' ? 48_000 : 8_000);

async function bindInRange(socket: dgram.Socket, host: string, ports: { min: number; max: number }): Promise<number> {
  const span = ports.max - ports.min + 1;
  const first = randomInt(0, span);
  // Even ports (RTP's custom, RTCP on the odd one above), starting anywhere in the range.
  for (let tried = 0; tried < span; tried += 2) {
    const port = ports.min + (((first + tried) % span) & ~1);
    if (port > ports.max) continue;
    const bound = await new Promise<boolean>((resolve) => {
      const failed = () => resolve(false);
      socket.once('error', failed);
      socket.bind({ port, address: host, exclusive: true }, () => {
        socket.off('error', failed);
        resolve(true);
      });
    });
    if (bound) return port;
  }
  throw new PortsExhausted(`no free UDP port left in SIP_RTP_PORTS ${ports.min}-${ports.max}`);
}

/** The address of this machine that reaches `host` (where Janus sends the mix back). */
async function localAddressTowards(host: string): Promise<string> {
  const { address, family } = await lookup(host);
  const probe = dgram.createSocket(family === 6 ? 'udp6' : 'udp4');
  try {
    await new Promise<void>((resolve, reject) => {
      probe.once('error', reject);
      probe.connect(9, address, () => resolve());
    });
    return probe.address().address;
  } finally {
    probe.close();
  }
}

export class CallMedia {
  readonly #options: MediaOptions;
  readonly #events: MediaEvents;
  readonly #gatewaySide: dgram.Socket;
  #janusSide: dgram.Socket | undefined;
  #janus: RtpAddress | undefined;
  /** Where the gateway's media goes: its SDP's address, then (symmetric RTP) the port its packets come from. */
  #remote: RtpAddress;
  #closed = false;
  // What goes to the gateway: our own stream.
  readonly #ssrc = randomInt(1, 2 ** 31);
  #sequence = randomInt(0, 0xffff);
  #timestamp = randomInt(0, 2 ** 31);
  #lastSentAt = 0;
  #lastJanusTimestamp: number | undefined;
  #lastSoundAt = Number.NEGATIVE_INFINITY;
  #busy: Buffer[] = [];
  #busyTimer: NodeJS.Timeout | undefined;
  #lastEventTimestamp: number | undefined;
  readonly counts: Counts = { fromGateway: 0, toJanus: 0, fromJanus: 0, toGateway: 0, refused: 0, dropped: 0 };
  /** The packets from the gateway within the current second (MAX_PACKETS_PER_SECOND). */
  #second = 0;
  #inSecond = 0;
  #sounding = false;
  /** The floor by voice, read once the call is connected to Janus (answered): before, its voice goes nowhere. */
  readonly #vad: VoiceActivity | undefined;
  /** A G.711 gateway's voice is turned into Opus for Janus, and the channel's back into G.711 (g711-opus.ts). */
  readonly #transcoder: G711OpusBridge | undefined;
  // What goes to Janus from a G.711 gateway: our own Opus stream.
  readonly #janusSsrc = randomInt(1, 2 ** 31);
  #janusSequence = randomInt(0, 0xffff);
  #janusTimestamp = randomInt(0, 2 ** 31);
  #janusSentAt = 0;

  constructor(options: MediaOptions, events: MediaEvents) {
    this.#options = options;
    this.#events = events;
    this.#remote = options.remote;
    this.#vad = options.voice ? voiceActivity(options.voice) : undefined;
    this.#transcoder = options.codec === 'opus' ? undefined : new G711OpusBridge(options.codec);
    this.#gatewaySide = dgram.createSocket(options.bindHost.includes(':') ? 'udp6' : 'udp4');
    this.#gatewaySide.on('message', (data, from) => this.#safely(() => this.#fromGateway(data, from)));
    this.#gatewaySide.on('error', () => {});
  }

  /** Binds the gateway's side in SIP_RTP_PORTS: the port the SDP answer names. */
  open(): Promise<number> {
    return bindInRange(this.#gatewaySide, this.#options.bindHost, this.#options.ports);
  }

  /** Binds Janus's side, on the address that reaches that Janus (RtpLeg.open). */
  async openTowards(janusHost: string): Promise<RtpAddress> {
    this.#janusSide?.close();
    const ip = await localAddressTowards(janusHost);
    const socket = dgram.createSocket(ip.includes(':') ? 'udp6' : 'udp4');
    socket.on('message', (data, from) => this.#safely(() => this.#fromJanus(data, from)));
    socket.on('error', () => {});
    await new Promise<void>((resolve) => socket.bind({ port: 0, address: ip }, () => resolve()));
    if (this.#closed) socket.close();
    else this.#janusSide = socket;
    return { ip, port: socket.address().port };
  }

  /** Where Janus listens for the gateway's voice. */
  connectJanus(address: RtpAddress): void {
    this.#janus = address;
  }

  /** Plays the busy tone to the gateway (G.711 only: Opus would need an encoder here), instead of the mix. */
  busy(): void {
    if (this.#options.codec === 'opus' || this.#busyTimer || this.#closed) return;
    this.#busy = busyTone(this.#options.codec);
    this.#busyTimer = setInterval(
      () =>
        this.#safely(() => {
          const frame = this.#busy.shift();
          if (!frame) {
            clearInterval(this.#busyTimer);
            this.#busyTimer = undefined;
            return;
          }
          this.#sendToGateway(frame, 160);
        }),
      20,
    );
  }

  /** The floor was taken back or refused: its voice must pause for the hang time before it asks again. */
  resetVoice(): void {
    this.#vad?.reset();
  }

  /** Time passing (the thread's tick): a quiet radio sends nothing, and its hang time still ends. */
  tick(now: number): void {
    if (!this.#janus) return;
    this.#safely(() => {
      if (this.#vad?.tick(now) === 'release') this.#events.voice('release');
    });
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#busyTimer);
    for (const socket of [this.#gatewaySide, this.#janusSide])
      try {
        socket?.close();
      } catch {
        // Never bound (no port was free), or closed already.
      }
    this.#transcoder?.close();
  }

  /** One packet's or tick's work: an error in it loses that packet, never the relay nor the thread. */
  #safely(work: () => void): void {
    try {
      work();
    } catch (error) {
      this.#events.fault(error);
    }
  }

  /** Sends a datagram; an error (a closed socket, a network that refuses) loses that packet only. */
  #send(socket: dgram.Socket, packet: Buffer, to: RtpAddress): void {
    if (this.#closed) return;
    socket.send(packet, to.port, to.ip, () => {});
  }

  /** Within the gateway's packet rate: at most MAX_PACKETS_PER_SECOND in each second. */
  #withinRate(now: number): boolean {
    const second = Math.floor(now / 1000);
    if (second !== this.#second) {
      this.#second = second;
      this.#inSecond = 0;
    }
    return ++this.#inSecond <= MAX_PACKETS_PER_SECOND;
  }

  /** The same rule as the call's admission (admission.ts, mediaAllowed). */
  #accepts(ip: string): boolean {
    const { addresses } = this.#options;
    return ip === addresses.ip || (addresses.allowed.length > 0 && addressAllowed(addresses.allowed, ip));
  }

  #fromGateway(data: Buffer, from: dgram.RemoteInfo): void {
    const options = this.#options;
    if (!this.#accepts(from.address)) {
      this.counts.refused++;
      return;
    }
    const packet = readRtp(data);
    if (!packet) return;
    // What no frame can be, a payload type the call did not negotiate, or past the plausible rate: dropped before
    // the floor, the voice activity or the codec see it.
    const negotiated = packet.payloadType === options.audioPt || packet.payloadType === options.eventPt;
    if (!negotiated || packet.payload.length > MAX_PAYLOAD[options.codec] || !this.#withinRate(performance.now())) {
      this.counts.dropped++;
      return;
    }
    this.counts.fromGateway++;
    // Symmetric RTP: a gateway behind NAT is reached where its packets come from (its own address, checked above).
    if (from.address === this.#remote.ip && from.port !== this.#remote.port)
      this.#remote = { ip: from.address, port: from.port };
    const now = performance.now();
    if (packet.payloadType === options.eventPt) {
      const event = readTelephoneEvent(packet.payload);
      // One key per event: its packets (and their three end packets) share a timestamp.
      if (event && packet.timestamp !== this.#lastEventTimestamp) {
        this.#lastEventTimestamp = packet.timestamp;
        this.#events.key(event.key);
      }
      return;
    }
    if (packet.payloadType !== options.audioPt) return;
    const janus = this.#janus;
    if (!janus || !this.#janusSide) return;
    if (this.#vad) {
      const voiced =
        options.codec === 'opus'
          ? packet.payload.length > OPUS_VOICE_BYTES
          : g711Level(options.codec, packet.payload) > VOICE_LEVEL;
      const change = this.#vad.frame(voiced, now);
      if (change) this.#events.voice(change);
    }
    if (!this.#transcoder) {
      this.#send(this.#janusSide, data, janus);
      this.counts.toJanus++;
      return;
    }
    for (const opus of this.#transcoder.toOpus(packet.payload)) this.#sendToJanus(opus, now);
  }

  /** A 20 ms Opus frame of a G.711 gateway's voice, in our stream to Janus (a gap starts a new talk spurt). */
  #sendToJanus(payload: Buffer, now: number): void {
    const janus = this.#janus;
    if (!janus || !this.#janusSide) return;
    const gap = now - this.#janusSentAt > SPURT_GAP_MS;
    this.#janusTimestamp =
      (this.#janusTimestamp + (gap ? Math.round((now - this.#janusSentAt) * 48) : OPUS_FRAME_TICKS)) >>> 0;
    this.#janusSequence = (this.#janusSequence + 1) & 0xffff;
    this.#janusSentAt = now;
    const packet = writeRtp({
      payloadType: this.#options.opusPt,
      marker: gap,
      sequence: this.#janusSequence,
      timestamp: this.#janusTimestamp,
      ssrc: this.#janusSsrc,
      payload,
    });
    this.#send(this.#janusSide, packet, janus);
    this.counts.toJanus++;
  }

  #fromJanus(data: Buffer, from: dgram.RemoteInfo): void {
    if (!this.#janus || from.address !== this.#janus.ip) return;
    const packet = readRtp(data);
    if (!packet || packet.payload.length > MAX_PAYLOAD.opus) return;
    this.counts.fromJanus++;
    if (this.#busyTimer) return;
    const now = performance.now();
    const { codec } = this.#options;
    const payload = this.#transcoder ? this.#transcoder.toG711(packet.payload) : packet.payload;
    if (payload.length === 0) return;
    const sound = codec === 'opus' ? payload.length > OPUS_SILENCE_BYTES : g711Level(codec, payload) > SILENCE_LEVEL;
    if (sound) {
      if (!this.#sounding || now - this.#lastSoundAt > SPURT_GAP_MS) this.#events.sound(performance.timeOrigin + now);
      this.#lastSoundAt = now;
    }
    this.#sounding = sound;
    if (this.#options.quietBetween && now - this.#lastSoundAt > QUIET_HANGOVER_MS) {
      this.#lastJanusTimestamp = undefined;
      return;
    }
    // Following the last packet, the timestamp advances by the samples sent (G.711) or as Janus's did (Opus).
    const step =
      this.#lastJanusTimestamp === undefined
        ? undefined
        : this.#transcoder
          ? payload.length
          : (packet.timestamp - this.#lastJanusTimestamp) >>> 0;
    this.#lastJanusTimestamp = packet.timestamp;
    this.#sendToGateway(payload, step);
  }

  /** Sends a payload to the gateway in our stream; `step`: its timestamp's advance, when it follows the last. */
  #sendToGateway(payload: Buffer, step: number | undefined): void {
    if (this.#closed) return;
    const now = performance.now();
    const gap = now - this.#lastSentAt > SPURT_GAP_MS;
    const rate = clockRate(this.#options.codec);
    this.#timestamp =
      (this.#timestamp +
        (gap || step === undefined || step > rate ? Math.round(((now - this.#lastSentAt) * rate) / 1000) : step)) >>>
      0;
    this.#sequence = (this.#sequence + 1) & 0xffff;
    this.#lastSentAt = now;
    const packet = writeRtp({
      payloadType: this.#options.audioPt,
      marker: gap,
      sequence: this.#sequence,
      timestamp: this.#timestamp,
      ssrc: this.#ssrc,
      payload,
    });
    this.#send(this.#gatewaySide, packet, this.#remote);
    this.counts.toGateway++;
  }
}
