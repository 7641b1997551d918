/**
 * Who is on the air in a channel, and how their voice reaches the others (issue 37: forward, don't mix).
 *
 * A channel has one talker at a time (the floor), so its voice needs no mixer: while a page holds the floor,
 * the VideoRoom forwards its packets as they arrived (`rtp_forward`, a fresh SSRC each time) to the channel's
 * mountpoint, which relays them to every listener. Nothing decodes, waits for a mixer's tick or encodes again;
 * a page that sends without the floor is not forwarded, so nobody hears it.
 *
 * The mixer (the channel's AudioBridge room) is used only at the moments that need it, chosen afresh at every
 * change (`reconcile`):
 * - two voices at once: a patch (another channel's voice may come in at any time), a channel without floor
 *   control where a second page talks, a spec client talking (its voice is only in the mixer). Each page on
 *   the air then goes into the mixer through a relay participant of its own, and the mixer's mix feeds the
 *   mountpoint; when one voice is left, it is forwarded straight again;
 * - a spec client listening: the page on the air goes straight to the mountpoint and into the mixer too (a
 *   relay), so that the spec client hears it.
 *
 * Janus is the truth: what each reconcile reads there (the forwarders, the relays, who talks in the mixer) and
 * the change it applies, under the channel's lock, so that app instances holding different talkers agree and
 * nothing a dead instance left stays.
 *
 * A talker leaving the air is forwarded a moment longer (AIR_TAIL_MS), so that every listener's decoder hears
 * its encoder fall silent: see there why.
 */
import { randomInt } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { AssignmentStore } from '../../../janus/assignments.ts';
import type { JanusBackend } from '../../../janus/backends.ts';
import { JanusPluginError, JanusUnavailableError } from '../../../janus/connection.ts';
import { MOUNTPOINT_IFACE, OPUS_PT, type RtpAddress } from '../../../janus/room-requests.ts';
import type { JanusKeys } from '../../../janus/secrets.ts';
import type { JanusRooms } from './rooms.ts';

/**
 * The SSRCs of the mixer's mix forwarded to the mountpoint: 0x7467 in the high half (how a mix forward is told
 * from the mixer's others), and a fresh low half at each forward (issue 58). Janus numbers a new forward's
 * packets (sequence numbers and timestamps) from zero again; the mountpoint keeps its listeners' streams
 * continuous across a change of source (a new SSRC), but with the same SSRC it took the new numbers for the old
 * source's, sent every listener numbers it had already sent, and SRTP dropped them as replays: the gateway's
 * next over was silent for as long as the one before had lasted.
 */
export const MIX_SSRC_HIGH = 0x7467;
export const isMixSsrc = (ssrc: number | undefined) => ssrc !== undefined && ssrc >>> 16 === MIX_SSRC_HIGH;
const freshMixSsrc = () => ((MIX_SSRC_HIGH << 16) | randomInt(1, 0x10000)) >>> 0;

/** A change the reconcile applies: a publisher or a mixer participant going on the air or off it. */
export type AirChange =
  | { kind: 'publisher'; publisherId: number; mid: string; on: boolean }
  | { kind: 'bridge'; on: boolean };

interface Forwarder {
  stream_id: number;
  host?: string;
  ip?: string;
  port?: number;
  ssrc?: number;
}

/**
 * How long a talker's voice is still forwarded after it leaves the air (issue 51: every voice at one level).
 *
 * A listener decodes the channel's every talker with one Opus decoder (the mountpoint's one stream, its
 * sequence numbers made continuous by Janus), while each talker's browser encodes with an encoder of its own
 * that goes on between its transmissions: its microphone off, it encodes silence, then DTX. Opus codes each
 * frame partly against the frames before it, so a decoder must have followed the same frames as the encoder.
 * A forward stopped at the release cut the talker's fall to silence short: the decoders stayed where its voice
 * was, and the next transmission's first frames, coded against silence, came out of them up to 10 dB too loud,
 * clipped at full scale, for about a tenth of a second. Measured at a member's phone with the test tone: about
 * one transmission in eight after the channel's first (the first meets a fresh decoder), whoever talked; a
 * level read over those frames put the desk's "Talk on" 7.2 dB and its all call 8.7 dB above a member whose
 * voice came first. On the mesh each talker has a decoder of its own that hears everything, and nothing of the
 * kind happens. Any other change in the channel (the next talker) ends the tail at once.
 *
 * The tail ends before the talker's encoder goes into DTX (issue 58: press to sound). The first frame of digital
 * silence already brings a decoder to silence (Opus codes it as silence, and both ends reset their energies), so a
 * tenth of a second of it is plenty. But 200 ms after its microphone goes off, the encoder sends DTX packets,
 * and a listener's jitter buffer that received them plays comfort noise; when the next transmission comes, it
 * keeps the delay it had before the comfort noise, a whole jitter buffer's worth (bench:media: 1.26x and 1.63x
 * the bare pair at 10 listeners with a 300 ms tail). A stream cut before DTX is a loss to it instead: the next
 * transmission's first packet is played as it comes. 120 ms of tail leaves 80 ms before DTX for the release to
 * reach the server and the forward to stop.
 */
export const AIR_TAIL_MS = 120;

/** A fresh SSRC for a forward: the mountpoint sees a new source and keeps its listeners' streams whole. */
const freshSsrc = () => randomInt(0x10000, 0x70000000);

/** A publisher's display in the VideoRoom carries the mid of its audio: any instance can forward it. */
export const publisherDisplay = (mid: string, name: string) => `mid:${mid};${name}`;
const midOf = (display: string | undefined) => /^mid:([^;]+);/.exec(display ?? '')?.[1];

export function janusFeed(deps: {
  rooms: JanusRooms;
  keys: JanusKeys;
  store: AssignmentStore;
  log: FastifyBaseLogger;
  /** A patch holds the channel now: another channel's voice may come in at any time. */
  patched: (channelId: number) => boolean;
}) {
  const { rooms, keys, store } = deps;
  const secretOf = (channelId: number) => keys.roomSecret(channelId);

  /** Stops a forwarder; one already gone (with its publisher or room) is no matter. */
  async function ignoringGone(request: Promise<unknown>): Promise<void> {
    await request.catch((error) => {
      if (!(error instanceof JanusPluginError || error instanceof JanusUnavailableError)) throw error;
    });
  }

  async function reconcile(backend: JanusBackend, channelId: number, changes: AirChange[]): Promise<void> {
    const { videoroom, audiobridge } = await backend.control();
    const secret = secretOf(channelId);
    const [published, participants, bridged] = await Promise.all([
      videoroom
        .message({ request: 'listforwarders', room: channelId, secret })
        .then((listed) => (listed.data.publishers as Array<{ publisher_id: number; forwarders: Forwarder[] }>) ?? [])
        .catch((error) => {
          if (error instanceof JanusPluginError) return [];
          throw error;
        }),
      videoroom
        .message({ request: 'listparticipants', room: channelId })
        .then((listed) => (listed.data.participants as Array<{ id: number; display?: string }>) ?? [])
        .catch((error) => {
          if (error instanceof JanusPluginError) return [];
          throw error;
        }),
      rooms.bridged(backend, channelId),
    ]);
    // On the air: the publishers forwarded now, with this change applied.
    const onAir = new Map<number, string>();
    for (const { publisher_id } of published) {
      const mid = midOf(participants.find((participant) => participant.id === publisher_id)?.display);
      if (mid) onAir.set(publisher_id, mid);
    }
    for (const change of changes)
      if (change.kind === 'publisher') {
        if (change.on) onAir.set(change.publisherId, change.mid);
        else onAir.delete(change.publisherId);
      }
    const patched = deps.patched(channelId);
    const state = bridged ? await rooms.bridgeState(backend, channelId) : { present: 0, talkers: 0 };
    const mixing = patched || state.talkers > 0 || onAir.size > 1;
    // Someone hears the channel in its mixer (a spec client), or a patch carries it: the mixer gets its voices.
    const bridge = patched || state.present > 0;
    // The mixer is made when it must carry voices (a relay per page on the air).
    const relays: RtpAddress[] =
      (mixing || bridge) && onAir.size > 0 ? await rooms.relays(backend, channelId, onAir.size) : [];
    const port = onAir.size > 0 || mixing ? await rooms.mountpoint(backend, channelId) : 0;

    const address = (forwarder: Forwarder) => `${forwarder.host ?? forwarder.ip}:${forwarder.port}`;
    const same = (a: RtpAddress) => `${a.ip}:${a.port}`;
    // A relay in use by a publisher still on the air stays its own (its voice goes on without a break).
    const relayOf = new Map<number, RtpAddress>();
    for (const { publisher_id, forwarders } of published) {
      if (!onAir.has(publisher_id)) continue;
      const kept = relays.find(
        (candidate) =>
          forwarders.some((forwarder) => address(forwarder) === same(candidate)) &&
          ![...relayOf.values()].includes(candidate),
      );
      if (kept) relayOf.set(publisher_id, kept);
    }
    const free = relays.filter((candidate) => ![...relayOf.values()].includes(candidate));
    // What each publisher should be forwarded to: the mountpoint (one voice) and a relay (the mixer hears it).
    const wanted = new Map<number, RtpAddress[]>();
    for (const publisherId of onAir.keys()) {
      const to: RtpAddress[] = [];
      if (!mixing) to.push({ ip: MOUNTPOINT_IFACE, port });
      if (mixing || bridge) {
        const own = relayOf.get(publisherId) ?? free.shift();
        if (own) to.push(own);
      }
      wanted.set(publisherId, to);
    }
    // Stop what should not be (a publisher off the air, a forward to the wrong place), keep what is right.
    for (const { publisher_id, forwarders } of published)
      for (const forwarder of forwarders) {
        const to = wanted.get(publisher_id);
        const keep = to?.findIndex((target) => same(target) === address(forwarder)) ?? -1;
        if (to && keep >= 0) to.splice(keep, 1);
        else
          await ignoringGone(
            videoroom.message({
              request: 'stop_rtp_forward',
              room: channelId,
              publisher_id,
              stream_id: forwarder.stream_id,
              ...keys.admin,
              secret,
            }),
          );
      }
    for (const [publisherId, targets] of wanted)
      for (const target of targets)
        await videoroom.message({
          request: 'rtp_forward',
          room: channelId,
          publisher_id: publisherId,
          ...keys.admin,
          secret,
          host: target.ip,
          streams: [{ mid: onAir.get(publisherId), port: target.port, pt: OPUS_PT, ssrc: freshSsrc() }],
        });

    // The mixer's mix feeds the mountpoint while the channel mixes, and only then.
    if (bridged || mixing) {
      const listed = await audiobridge.message({ request: 'listforwarders', room: channelId, secret });
      const mixes = ((listed.data.rtp_forwarders as Forwarder[]) ?? []).filter((forwarder) =>
        isMixSsrc(forwarder.ssrc),
      );
      const right = mixing ? mixes.find((forwarder) => forwarder.port === port) : undefined;
      for (const stale of mixes)
        if (stale !== right)
          await ignoringGone(
            audiobridge.message({
              request: 'stop_rtp_forward',
              room: channelId,
              stream_id: stale.stream_id,
              ...keys.admin,
              secret,
            }),
          );
      if (mixing && !right)
        await audiobridge.message({
          request: 'rtp_forward',
          room: channelId,
          ...keys.admin,
          secret,
          host: MOUNTPOINT_IFACE,
          port,
          ptype: OPUS_PT,
          ssrc: freshMixSsrc(),
        });
    }
    // Nothing needs the mixer any more (two voices ended, the last spec client left): it goes.
    if (bridged && !mixing && !bridge)
      await rooms.destroyBridgeIfUnused(backend, channelId, () => deps.patched(channelId));
  }

  const run = (backend: JanusBackend, channelId: number, changes: AirChange[]) =>
    store.exclusive(`feed:${channelId}`, () => reconcile(backend, channelId, changes));

  /** By channel: the talkers that left the air and are still forwarded (AIR_TAIL_MS), until the timer ends. */
  const tails = new Map<number, { backend: JanusBackend; changes: AirChange[]; timer: NodeJS.Timeout }>();

  /** The channel's talkers still in their tail: taken now, to be applied with the next change. */
  function tailsOf(backend: JanusBackend, channelId: number): AirChange[] {
    const tail = tails.get(channelId);
    if (!tail) return [];
    clearTimeout(tail.timer);
    tails.delete(channelId);
    if (tail.backend === backend) return tail.changes;
    // The channel moved to another Janus meanwhile: the old one's forwards end there.
    void run(tail.backend, channelId, tail.changes).catch(() => {});
    return [];
  }

  return {
    /**
     * A change on the air in the channel (a grant, a release; a patch made or ended: no change), applied with
     * whatever else is on the air now, under the channel's lock. A talker leaving the air resolves at once and
     * is taken off AIR_TAIL_MS later, or with the next change in the channel if one comes first: the next
     * talker is never held back, and is not mixed with the one before. A mixer participant leaving the air (a
     * gateway's over ending) is muted at once, and the mixer's mix, its silence now, is forwarded as long. (The
     * tail is this instance's to know: a talker granted on another instance within it finds two on the air, and
     * the mixer carries both until the tail ends, AIR_TAIL_MS.)
     */
    apply(backend: JanusBackend, channelId: number, change?: AirChange): Promise<void> {
      const earlier = tailsOf(backend, channelId);
      if (change && !change.on) {
        const changes = [...earlier, change];
        const timer = setTimeout(() => {
          tails.delete(channelId);
          run(backend, channelId, changes).catch((error) =>
            deps.log.warn({ err: error, channelId }, 'could not take a talker off the air'),
          );
        }, AIR_TAIL_MS);
        timer.unref();
        tails.set(channelId, { backend, changes, timer });
        return Promise.resolve();
      }
      return run(backend, channelId, change ? [...earlier, change] : earlier);
    },
  };
}

export type JanusFeed = ReturnType<typeof janusFeed>;
