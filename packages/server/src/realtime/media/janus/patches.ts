/**
 * Channels patched together (the dispatch console): what is said in one is heard in the others until the
 * patch ends. For each ordered pair of its channels (from A to B), room B gets a plain-RTP participant (group
 * `patch`, always unmuted) and room A forwards the mix of its own pages (group `local`) to that participant's
 * port. A patch participant's voice is never forwarded (it is not `local`), so no channel hears itself back,
 * whatever the number of channels. Rooms may be on different Janus instances: the forwarder sends to the
 * address the other Janus gave (its AudioBridge `local_ip`).
 *
 * What a patch needs is read from Janus itself and made again where missing (`reconcile`, idempotent, under
 * the patch's lock so that two app instances never make it twice): the participant's name carries the patch,
 * the channel it brings in and its port; the forwarder's SSRC names the patch and the pair. It runs when a
 * patch is made, when a Janus comes back (its rooms were lost), and every few seconds for the patches known
 * here (an app instance that held the participants' session died: Janus dropped them).
 */
import { createHash } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { AssignmentStore } from './assignments.ts';
import { AUDIOBRIDGE, type JanusBackend, type JanusBackends } from './backends.ts';
import { type JanusHandle, JanusUnavailableError } from './connection.ts';
import { type JanusRooms, LOCAL_GROUP, PATCH_GROUP } from './rooms.ts';
import type { JanusKeys } from './secrets.ts';

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
  return (createHash('sha1').update(`${patchId}\n${from}\n${to}`).digest().readUInt32BE(0) | 1) >>> 0;
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
    await Promise.all([rooms.room(source, from), rooms.room(target, to)]);
    const name = nameOf(patchId, from);
    const present = (await participantsOf(target, to)).find((participant) => participant.display?.startsWith(name));
    let address = /^(.+):(\d+)$/.exec(present?.display?.slice(name.length) ?? '');
    if (!address) {
      const { session, audiobridge } = await target.control();
      // One made by an instance that died before it could name its address: of no use.
      if (present)
        await audiobridge
          .message({ request: 'kick', room: to, secret: keys.roomSecret(to), id: present.id })
          .catch(() => {});
      const handle = await session.attach(AUDIOBRIDGE);
      const joined = await handle.message({
        request: 'join',
        room: to,
        pin: keys.roomPin(to),
        group: PATCH_GROUP,
        display: name,
        muted: false,
        rtp: { payload_type: PATCH_PT },
      });
      const rtp = joined.data.rtp as { ip?: string; port?: number } | undefined;
      if (!rtp?.ip || !rtp.port) throw new Error('the media server gave no RTP address for a patch');
      // Its address in its name: any instance finds where to forward to.
      await handle.message({ request: 'configure', display: `${name}${rtp.ip}:${rtp.port}` });
      handles.set(`${patchId}:${from}:${to}`, handle);
      address = /^(.+):(\d+)$/.exec(`${rtp.ip}:${rtp.port}`);
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
    });
  }

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

  return {
    holds: (channelId: number) => [...known.values()].some((channelIds) => channelIds.includes(channelId)),
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
      for (const channelId of channelIds) {
        const backend = await backendFor(channelId).catch(() => undefined);
        if (backend) await rooms.destroyIfUnused(backend, channelId, () => false);
      }
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
