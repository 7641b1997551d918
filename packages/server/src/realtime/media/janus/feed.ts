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
 */
import { randomInt } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { AssignmentStore } from './assignments.ts';
import type { JanusBackend } from './backends.ts';
import { JanusPluginError, JanusUnavailableError } from './connection.ts';
import { MOUNTPOINT_IFACE, OPUS_PT, type RtpAddress } from './room-requests.ts';
import type { JanusRooms } from './rooms.ts';
import type { JanusKeys } from './secrets.ts';

/** The SSRC of the mixer's mix forwarded to the mountpoint. */
export const MIX_SSRC = 0x74670001;

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

  async function reconcile(backend: JanusBackend, channelId: number, change?: AirChange): Promise<void> {
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
    if (change?.kind === 'publisher') {
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
      const mixes = ((listed.data.rtp_forwarders as Forwarder[]) ?? []).filter(
        (forwarder) => forwarder.ssrc === MIX_SSRC,
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
          ssrc: MIX_SSRC,
        });
    }
    // Nothing needs the mixer any more (two voices ended, the last spec client left): it goes.
    if (bridged && !mixing && !bridge)
      await rooms.destroyBridgeIfUnused(backend, channelId, () => deps.patched(channelId));
  }

  return {
    /**
     * A change on the air in the channel (a grant, a release; a patch made or ended: no change), applied with
     * whatever else is on the air now, under the channel's lock.
     */
    apply(backend: JanusBackend, channelId: number, change?: AirChange): Promise<void> {
      return store.exclusive(`feed:${channelId}`, () => reconcile(backend, channelId, change));
    },
  };
}

export type JanusFeed = ReturnType<typeof janusFeed>;
