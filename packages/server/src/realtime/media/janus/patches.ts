/**
 * Channels patched together (the dispatch console): what is said in one is heard in the others until the
 * patch ends. A patch is the moment where two voices may be heard at once (this channel's holder and
 * another's), so a patched channel mixes (feed.ts): its holder goes into its AudioBridge room (through the
 * room's relay) and the room's mix feeds its mountpoint. For each ordered pair of its channels (from A to B),
 * room B gets a plain-RTP participant (group `patch`, always unmuted) and room A forwards the mix of its own
 * voices (group `local`: the relay and spec clients) to that participant's port. A patch participant's voice is
 * never forwarded (it is not `local`), so no channel hears itself back, whatever the number of channels. Rooms
 * may be on different Janus instances: the forwarder sends to the address the other Janus gave (its
 * AudioBridge `local_ip`).
 *
 * What a patch needs is read from Janus itself and made again where missing (`reconcile`, idempotent, under
 * the patch's lock so that two app instances never make it twice): the participant's name carries the patch,
 * the channel it brings in and its port; the forwarder's SSRC names the patch and the pair. It runs when a
 * patch is made, when a Janus comes back (its rooms were lost), and every few seconds for the patches known
 * here (an app instance that held the participants' session died: Janus dropped them).
 */
import { createHash } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { AssignmentStore } from '../../../janus/assignments.ts';
import type { JanusBackend, JanusBackends } from '../../../janus/backends.ts';
import { type JanusHandle, JanusUnavailableError } from '../../../janus/connection.ts';
import { joinAsRtp, LOCAL_GROUP, PATCH_GROUP } from '../../../janus/room-requests.ts';
import type { JanusKeys } from '../../../janus/secrets.ts';
import { isMixSsrc } from './feed.ts';
import type { JanusRooms } from './rooms.ts';

export type PatchList = () => Promise<Array<{ patchId: string; channelIds: number[] }>>;

const PATCH_PT = 100;
const REAPPLY_EVERY_MS = 10_000;

interface RoomParticipant {
  id: number;
  display?: string;
}

interface Forwarder {
  stream_id: number;
  ssrc?: number;
  ip?: string;
  port?: number;
}

/** The SSRC of the forwarder that carries channel `from`'s voice into `to` for this patch. */
function forwarderSsrc(patchId: string, from: number, to: number): number {
  const ssrc = (createHash('sha1').update(`${patchId}\n${from}\n${to}`).digest().readUInt32BE(0) | 1) >>> 0;
  // Never one of the mix forwards' (feed.ts), which the feed stops as its own.
  return isMixSsrc(ssrc) ? (ssrc ^ 0x10000) >>> 0 : ssrc;
}

const nameOf = (patchId: string, from: number) => `patch:${patchId}:${from}:`;

export function janusPatches(deps: {
  backends: JanusBackends;
  rooms: JanusRooms;
  store: AssignmentStore;
  log: FastifyBaseLogger;
  keys: JanusKeys;
  backendFor: (channelId: number) => Promise<JanusBackend>;
  activePatches?: PatchList;
  /**
   * The channel's voices are forwarded again as it needs now (feed.ts): patched, its mixer's mix feeds its
   * mountpoint; no longer, what is on the air goes straight there again.
   */
  refeed: (backend: JanusBackend, channelId: number) => Promise<void>;
}) {
  const { rooms, store, log, keys, backendFor } = deps;
  /** The patches this instance knows (made here, told by another instance, or listed by activePatches). */
  const known = new Map<string, number[]>();
  /** The handles of the patch participants this instance made (Janus drops them with their session). */
  const handles = new Map<string, JanusHandle>();

  async function participantsOf(backend: JanusBackend, room: number): Promise<RoomParticipant[]> {
    const { audiobridge } = await backend.control();
    const listed = await audiobridge.message({ request: 'listparticipants', room });
    return (listed.data.participants as RoomParticipant[] | undefined) ?? [];
  }

  async function forwardersOf(backend: JanusBackend, room: number): Promise<Forwarder[]> {
    const { audiobridge } = await backend.control();
    const listed = await audiobridge.message({ request: 'listforwarders', room, secret: keys.roomSecret(room) });
    return (listed.data.rtp_forwarders as Forwarder[] | undefined) ?? [];
  }

  /** From A to B: B's participant bringing A in, and A's forwarder feeding it. */
  async function connect(patchId: string, from: number, to: number): Promise<void> {
    const [source, target] = await Promise.all([backendFor(from), backendFor(to)]);
    await Promise.all([rooms.bridge(source, from), rooms.bridge(target, to)]);
    const name = nameOf(patchId, from);
    const present = (await participantsOf(target, to)).find((participant) => participant.display?.startsWith(name));
    let address = /^(.+):(\d+)$/.exec(present?.display?.slice(name.length) ?? '');
    if (!address) {
      const { audiobridge } = await target.control();
      // One made by an instance that died before it could name its address: of no use.
      if (present)
        await audiobridge
          .message({ request: 'kick', room: to, secret: keys.roomSecret(to), id: present.id })
          .catch(() => {});
      const joined = await joinAsRtp(target, {
        room: to,
        pin: keys.roomPin(to),
        group: PATCH_GROUP,
        name,
        payloadType: PATCH_PT,
        what: 'a patch',
      });
      handles.set(`${patchId}:${from}:${to}`, joined.handle);
      address = /^(.+):(\d+)$/.exec(`${joined.address.ip}:${joined.address.port}`);
    }
    const [, ip, port] = address ?? [];
    const ssrc = forwarderSsrc(patchId, from, to);
    const forwarders = (await forwardersOf(source, from)).filter((forwarder) => forwarder.ssrc === ssrc);
    if (forwarders.length === 1 && forwarders[0].port === Number(port)) return;
    const { audiobridge } = await source.control();
    for (const stale of forwarders)
      await audiobridge.message({
        request: 'stop_rtp_forward',
        ...keys.admin,
        room: from,
        secret: keys.roomSecret(from),
        stream_id: stale.stream_id,
      });
    await audiobridge.message({
      request: 'rtp_forward',
      room: from,
      ...keys.admin,
      secret: keys.roomSecret(from),
      group: LOCAL_GROUP,
      host: ip,
      port: Number(port),
      ptype: PATCH_PT,
      ssrc,
    });
  }

  /** From A to B no more: the forwarder and the participant go. */
  async function disconnect(patchId: string, from: number, to: number): Promise<void> {
    const [source, target] = await Promise.all([backendFor(from), backendFor(to)]);
    const ssrc = forwarderSsrc(patchId, from, to);
    const { audiobridge: sourceControl } = await source.control();
    for (const forwarder of await forwardersOf(source, from).catch(() => []))
      if (forwarder.ssrc === ssrc)
        await sourceControl.message({
          request: 'stop_rtp_forward',
          ...keys.admin,
          room: from,
          secret: keys.roomSecret(from),
          stream_id: forwarder.stream_id,
        });
    const { audiobridge: targetControl } = await target.control();
    const name = nameOf(patchId, from);
    for (const participant of await participantsOf(target, to).catch(() => []))
      if (participant.display?.startsWith(name))
        await targetControl
          .message({ request: 'kick', room: to, secret: keys.roomSecret(to), id: participant.id })
          .catch(() => {});
    const handle = handles.get(`${patchId}:${from}:${to}`);
    handles.delete(`${patchId}:${from}:${to}`);
    await handle?.detach();
  }

  const pairs = (channelIds: number[]) =>
    channelIds.flatMap((from) => channelIds.filter((to) => to !== from).map((to) => [from, to] as const));

  async function reconcile(patchId: string): Promise<void> {
    await store.exclusive(`patch:${patchId}`, async () => {
      const channelIds = known.get(patchId);
      if (!channelIds) return;
      for (const [from, to] of pairs(channelIds)) await connect(patchId, from, to);
      for (const channelId of channelIds) await deps.refeed(await backendFor(channelId), channelId);
    });
  }

  const holds = (channelId: number) => [...known.values()].some((channelIds) => channelIds.includes(channelId));

  let reapplying = false;
  /** Every patch known here (and those activePatches lists) made again where Janus lost a part of it. */
  function reapply(): void {
    if (reapplying) return;
    reapplying = true;
    void (async () => {
      try {
        for (const { patchId, channelIds } of (await deps.activePatches?.()) ?? [])
          if (!known.has(patchId)) known.set(patchId, channelIds);
        for (const patchId of known.keys()) await reconcile(patchId);
      } catch (error) {
        if (!(error instanceof JanusUnavailableError)) log.warn({ err: error }, 'could not apply a patch again');
      } finally {
        reapplying = false;
      }
    })();
  }
  const timer = setInterval(() => {
    if (known.size > 0 || deps.activePatches) reapply();
  }, REAPPLY_EVERY_MS);
  timer.unref();

  /** After a patch ended: its channels that no other patch holds stop mixing (unless another voice needs it), and their mixers may go. */
  async function unmixFreed(channelIds: number[]): Promise<void> {
    for (const channelId of channelIds) {
      if (holds(channelId)) continue;
      const backend = await backendFor(channelId).catch(() => undefined);
      if (!backend) continue;
      await deps.refeed(backend, channelId).catch((error) => {
        if (!(error instanceof JanusUnavailableError)) throw error;
      });
      await rooms.destroyBridgeIfUnused(backend, channelId, () => holds(channelId));
      await rooms.destroyIfUnused(backend, channelId, () => holds(channelId));
    }
  }

  return {
    holds,
    async patch(patchId: string, channelIds: number[]): Promise<void> {
      known.set(patchId, [...new Set(channelIds)]);
      try {
        await reconcile(patchId);
      } catch (error) {
        // Kept: it is made once a media server answers again.
        if (!(error instanceof JanusUnavailableError)) throw error;
        log.warn({ patchId }, 'a patch waits for the media server');
      }
    },
    async unpatch(patchId: string): Promise<void> {
      const channelIds = known.get(patchId);
      known.delete(patchId);
      if (!channelIds) return;
      await store.exclusive(`patch:${patchId}`, async () => {
        for (const [from, to] of pairs(channelIds))
          await disconnect(patchId, from, to).catch((error) => {
            if (!(error instanceof JanusUnavailableError)) throw error;
          });
      });
      await unmixFreed(channelIds);
    },
    /** Another instance made or ended a patch: known here too (null: ended). */
    learn(patchId: string, channelIds: number[] | null): void {
      if (channelIds) known.set(patchId, channelIds);
      else known.delete(patchId);
    },
    reapply,
    stop(): void {
      clearInterval(timer);
    },
  };
}

export type JanusPatches = ReturnType<typeof janusPatches>;
