/**
 * A channel's rooms on its Janus: the AudioBridge room (room id: the channel's id) where talk-mode pages send
 * and hear the mix without their own voice, and, once a listener asks, a Streaming mountpoint (same id) fed
 * with the room's mix by an RTP forwarder, which listeners watch: Janus encodes the mix once for all of them
 * instead of once per listener (README, "Large channels": 3.3x less CPU per listener measured).
 *
 * The room is made with two groups: `local` for the channel's own pages and `patch` for the plain-RTP
 * participants that bring another channel's voice in (patches.ts); only `local` is ever forwarded to
 * another channel, so patched channels never echo each other.
 *
 * Each room and mountpoint has a secret of its own and is made with the plugins' admin key (secrets.ts). The
 * mountpoint listens on 127.0.0.1 only (`iface`), and the forwarder sends to 127.0.0.1: both are in the same
 * Janus, and RTP sent to its port from the network is never heard by its listeners.
 *
 * What is made is remembered per Janus until that Janus goes down. Making and destroying run under the
 * channel's lock (assignments.ts) so that two instances never make a mountpoint twice or destroy a room
 * while the other makes it.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { AssignmentStore } from './assignments.ts';
import type { JanusBackend } from './backends.ts';
import { JanusPluginError } from './connection.ts';
import type { JanusKeys } from './secrets.ts';

export const LOCAL_GROUP = 'local';
export const PATCH_GROUP = 'patch';
/** AudioBridge's error codes (janus_audiobridge.c). */
export const NO_SUCH_ROOM = 485;
const ROOM_EXISTS = 486;
/** Streaming's: no such mountpoint (455). */
const NO_SUCH_MOUNTPOINT = 455;
/**
 * Packets a participant's decoder buffers before mixing (Janus's default is 6: 120 ms): push-to-talk wants the
 * first syllable out quickly; 2 packets still absorb a little jitter (bench:media measures press to sound).
 */
export const PREBUFFER_PACKETS = 2;
/** The SSRC of the forwarder that feeds a channel's mountpoint (tells it apart from patches' forwarders). */
const MIX_SSRC = 0x74670001;
/** The payload type of Opus between the AudioBridge and the mountpoint. */
const MIX_PT = 100;
/** Where the mountpoint listens and the mix is forwarded: inside the Janus machine only. */
export const MOUNTPOINT_IFACE = '127.0.0.1';

export function janusRooms(deps: { store: AssignmentStore; log: FastifyBaseLogger; keys: JanusKeys }) {
  const { store, log, keys } = deps;
  const made = new WeakMap<JanusBackend, Map<number, Promise<void>>>();
  const mounted = new WeakMap<JanusBackend, Map<number, Promise<void>>>();
  const cache = (of: WeakMap<JanusBackend, Map<number, Promise<void>>>, backend: JanusBackend) => {
    let map = of.get(backend);
    if (!map) {
      map = new Map();
      of.set(backend, map);
    }
    return map;
  };

  /** Runs `make` once per backend and channel; a failure is forgotten so that the next call tries again. */
  async function once(
    of: WeakMap<JanusBackend, Map<number, Promise<void>>>,
    backend: JanusBackend,
    channelId: number,
    make: () => Promise<void>,
  ): Promise<void> {
    const map = cache(of, backend);
    let pending = map.get(channelId);
    if (!pending) {
      pending = make();
      map.set(channelId, pending);
    }
    try {
      await pending;
    } catch (error) {
      if (map.get(channelId) === pending) map.delete(channelId);
      throw error;
    }
  }

  async function createRoom(backend: JanusBackend, channelId: number): Promise<void> {
    const { audiobridge } = await backend.control();
    try {
      await audiobridge.message({
        request: 'create',
        room: channelId,
        ...keys.admin,
        secret: keys.roomSecret(channelId),
        pin: keys.roomPin(channelId),
        is_private: true,
        sampling_rate: 48_000,
        audiolevel_ext: false,
        default_prebuffering: PREBUFFER_PACKETS,
        groups: [LOCAL_GROUP, PATCH_GROUP],
        allow_rtp_participants: true,
      });
    } catch (error) {
      if (!(error instanceof JanusPluginError && error.code === ROOM_EXISTS)) throw error;
    }
  }

  /** The mountpoint and the forwarder of the mix into it (made again together if either is missing). */
  async function createMountpoint(backend: JanusBackend, channelId: number): Promise<void> {
    const { audiobridge, streaming } = await backend.control();
    const secret = keys.roomSecret(channelId);
    const listed = await audiobridge.message({ request: 'listforwarders', room: channelId, secret });
    const forwarders = (listed.data.rtp_forwarders as Array<{ ssrc?: number }> | undefined) ?? [];
    if (forwarders.some((forwarder) => forwarder.ssrc === MIX_SSRC)) return;
    await streaming.message({ request: 'destroy', id: channelId, secret }).catch((error) => {
      if (!(error instanceof JanusPluginError && error.code === NO_SUCH_MOUNTPOINT)) throw error;
    });
    const created = await streaming.message({
      request: 'create',
      type: 'rtp',
      id: channelId,
      ...keys.admin,
      secret,
      pin: keys.roomPin(channelId),
      is_private: true,
      media: [
        {
          type: 'audio',
          mid: 'a',
          port: 0,
          iface: MOUNTPOINT_IFACE,
          pt: MIX_PT,
          codec: 'opus',
          rtpmap: 'opus/48000/2',
        },
      ],
    });
    const port = (created.data.stream as { ports?: Array<{ port: number }> } | undefined)?.ports?.[0]?.port;
    if (!port) throw new Error('the media server made a mountpoint without a port');
    await audiobridge.message({
      request: 'rtp_forward',
      room: channelId,
      ...keys.admin,
      secret,
      host: MOUNTPOINT_IFACE,
      port,
      ptype: MIX_PT,
      ssrc: MIX_SSRC,
    });
  }

  return {
    /** The channel's AudioBridge room on this Janus exists. */
    room(backend: JanusBackend, channelId: number): Promise<void> {
      return once(made, backend, channelId, () =>
        store.exclusive(`room:${channelId}`, () => createRoom(backend, channelId)),
      );
    },

    /** The room and its listeners' mountpoint exist. */
    async mountpoint(backend: JanusBackend, channelId: number): Promise<void> {
      await this.room(backend, channelId);
      await once(mounted, backend, channelId, () =>
        store.exclusive(`room:${channelId}`, () => createMountpoint(backend, channelId)),
      );
    },

    /** Janus said the room is not there (destroyed by another instance): the next use makes it again. */
    forget(backend: JanusBackend, channelId: number): void {
      cache(made, backend).delete(channelId);
      cache(mounted, backend).delete(channelId);
    },

    /** The Janus went down: whatever was made on it is gone. */
    forgetAll(backend: JanusBackend): void {
      made.delete(backend);
      mounted.delete(backend);
    },

    /**
     * Destroys the room and its mountpoint when nobody is in either, on any instance (Janus counts them), and
     * `keep` (a patch holds the channel) says no.
     */
    async destroyIfUnused(backend: JanusBackend, channelId: number, keep: () => boolean): Promise<void> {
      if (!backend.up || keep()) return;
      try {
        await store.exclusive(`room:${channelId}`, async () => {
          const { audiobridge, streaming } = await backend.control();
          const secret = keys.roomSecret(channelId);
          const listed = await audiobridge.message({ request: 'listparticipants', room: channelId });
          if (((listed.data.participants as unknown[] | undefined) ?? []).length > 0) return;
          const info = await streaming.message({ request: 'info', id: channelId, secret }).catch((error) => {
            if (error instanceof JanusPluginError && error.code === NO_SUCH_MOUNTPOINT) return undefined;
            throw error;
          });
          const viewers = Number((info?.data.info as { viewers?: number } | undefined)?.viewers ?? 0);
          if (viewers > 0 || keep()) return;
          this.forget(backend, channelId);
          if (info) await streaming.message({ request: 'destroy', id: channelId, secret });
          await audiobridge.message({ request: 'destroy', room: channelId, secret });
        });
      } catch (error) {
        if (error instanceof JanusPluginError && error.code === NO_SUCH_ROOM) return;
        log.warn({ err: error, channelId }, 'could not close a media room');
      }
    },
  };
}

export type JanusRooms = ReturnType<typeof janusRooms>;
