/**
 * A channel's rooms on its Janus (issue 37: forward, don't mix). Each is made on demand, with the channel's id
 * as its id in its plugin:
 *
 * - the **VideoRoom** room, audio only: each page that may talk publishes its microphone there (one stream up,
 *   whatever the number of listeners). Nothing is relayed from it on its own: only the floor holder's packets
 *   are forwarded (feed.ts), as they arrived, without decoding or mixing;
 * - the **Streaming** mountpoint, which every page of the channel watches (the pages that talk too, on a second
 *   connection): it relays whatever is forwarded to its port, encoded once by the talker's browser, to all of
 *   them (README, "Large channels": 1.8 millicores per listener). Janus rewrites sequence numbers and
 *   timestamps when the source changes (a new holder), so a listener's connection never restarts;
 * - the **AudioBridge** room, only where two voices must be heard at once or a client can only send and
 *   receive on one connection: a patch (the dispatch console: another channel's voice comes in through a plain
 *   RTP participant of group `patch`), and the spec's own clients (one WebRTC connection for the whole channel,
 *   answered on the media server's behalf). Its `relay` participant (plain RTP, group `local`) receives the
 *   floor holder's forwarded packets, so that the bridge's participants hear the app's pages.
 *
 * Each room and the mountpoint has a secret of its own and is made with the plugins' admin key (secrets.ts). The
 * mountpoint listens on 127.0.0.1 only (`iface`) and the forwarders send there: both are in the same Janus, and
 * RTP sent to its port from the network is never heard by its listeners.
 *
 * What is made is remembered per Janus until that Janus goes down. Making and destroying run under the
 * channel's lock (assignments.ts) so that two instances never make a mountpoint twice or destroy a room while
 * the other makes it.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { AssignmentStore } from './assignments.ts';
import { AUDIOBRIDGE, type JanusBackend } from './backends.ts';
import { type JanusHandle, JanusPluginError } from './connection.ts';
import type { JanusKeys } from './secrets.ts';

export const LOCAL_GROUP = 'local';
export const PATCH_GROUP = 'patch';
/** AudioBridge's error codes (janus_audiobridge.c). */
export const NO_SUCH_ROOM = 485;
const ROOM_EXISTS = 486;
/** VideoRoom's (janus_videoroom.c). */
export const NO_SUCH_SFU_ROOM = 426;
const SFU_ROOM_EXISTS = 427;
/** Streaming's: no such mountpoint (455). */
export const NO_SUCH_MOUNTPOINT = 455;
/**
 * Packets a bridge participant's decoder buffers before mixing (Janus's default is 6: 120 ms): push-to-talk
 * wants the first syllable out quickly; 2 packets still absorb a little jitter.
 */
export const PREBUFFER_PACKETS = 2;
/**
 * The loss the bridge's Opus encoder plans for (AudioBridge `default_expectedloss`, at most 20): with it, each
 * packet of the mix carries a low-rate copy of the one before (in-band FEC), so a listener's decoder covers a
 * single lost packet; 0 would turn FEC off even where it is negotiated.
 */
export const EXPECTED_LOSS_PERCENT = 10;
/** The payload type of Opus on the plain-RTP legs inside Janus (forwarders, mountpoint, relay, patches). */
export const OPUS_PT = 100;
/** Where the mountpoint listens and the forwarders send: inside the Janus machine only. */
export const MOUNTPOINT_IFACE = '127.0.0.1';
/** The most pages of a channel that may publish at once (VideoRoom's `publishers`; only one is forwarded). */
const MAX_PUBLISHERS = 10_000;
/** The display name of a bridge's relay participant starts with this, followed by its address. */
export const RELAY_NAME = 'relay:';
/** A patch participant's (patches.ts) starts with this. */
export const PATCH_NAME = 'patch:';

export interface RtpAddress {
  ip: string;
  port: number;
}

/**
 * A participant of an AudioBridge room fed by plain RTP (a relay of forwarded voices, a patch's way in): it joins
 * unmuted in its group, then puts the address Janus listens on after its name, so that any instance finds where
 * to forward to. The handle stays with the caller: the participant lives as long as it.
 */
export async function joinAsRtp(
  backend: JanusBackend,
  how: { room: number; pin: string; group: string; name: string; payloadType: number; what: string },
): Promise<{ handle: JanusHandle; address: RtpAddress }> {
  const { session } = await backend.control();
  const handle = await session.attach(AUDIOBRIDGE);
  const joined = await handle.message({
    request: 'join',
    room: how.room,
    pin: how.pin,
    group: how.group,
    display: how.name,
    muted: false,
    rtp: { payload_type: how.payloadType, fec: true },
  });
  const rtp = joined.data.rtp as { ip?: string; port?: number } | undefined;
  if (!rtp?.ip || !rtp.port) throw new Error(`the media server gave no RTP address for ${how.what}`);
  await handle.message({ request: 'configure', display: `${how.name}${rtp.ip}:${rtp.port}` });
  return { handle, address: { ip: rtp.ip, port: rtp.port } };
}

interface BridgeParticipant {
  id: number;
  display?: string;
  muted?: boolean;
}

export function janusRooms(deps: { store: AssignmentStore; log: FastifyBaseLogger; keys: JanusKeys }) {
  const { store, log, keys } = deps;
  type Made<T> = WeakMap<JanusBackend, Map<number, Promise<T>>>;
  const sfus: Made<void> = new WeakMap();
  const mounts: Made<number> = new WeakMap();
  const bridges: Made<void> = new WeakMap();
  /** The relay participants this instance made, by backend and channel (Janus drops them with the session). */
  const relays = new WeakMap<JanusBackend, Map<number, JanusHandle[]>>();
  const cache = <T>(kind: WeakMap<JanusBackend, Map<number, T>>, backend: JanusBackend) => {
    let map = kind.get(backend);
    if (!map) {
      map = new Map();
      kind.set(backend, map);
    }
    return map;
  };

  /** Runs `make` once per backend and channel; a failure is forgotten so that the next call tries again. */
  async function once<T>(kind: Made<T>, backend: JanusBackend, channelId: number, make: () => Promise<T>): Promise<T> {
    const map = cache(kind, backend);
    let pending = map.get(channelId);
    if (!pending) {
      pending = store.exclusive(`room:${channelId}`, make);
      map.set(channelId, pending);
    }
    try {
      return await pending;
    } catch (error) {
      if (map.get(channelId) === pending) map.delete(channelId);
      throw error;
    }
  }

  const exists = (code: number) => (error: unknown) => {
    if (!(error instanceof JanusPluginError && error.code === code)) throw error;
  };

  async function createSfu(backend: JanusBackend, channelId: number): Promise<void> {
    const { videoroom } = await backend.control();
    await videoroom
      .message({
        request: 'create',
        room: channelId,
        ...keys.admin,
        secret: keys.roomSecret(channelId),
        pin: keys.roomPin(channelId),
        is_private: true,
        publishers: MAX_PUBLISHERS,
        audiocodec: 'opus',
        videocodec: 'vp8',
        opus_fec: true,
        opus_dtx: true,
        audiolevel_ext: false,
        videoorient_ext: false,
        playoutdelay_ext: false,
        // Only Talkgroup turns a publisher's recording on (with the room's secret).
        lock_record: true,
        notify_joining: false,
      })
      .catch(exists(SFU_ROOM_EXISTS));
  }

  /** The mountpoint (made if missing); its port. */
  async function createMountpoint(backend: JanusBackend, channelId: number): Promise<number> {
    const { streaming } = await backend.control();
    const secret = keys.roomSecret(channelId);
    const found = await streaming.message({ request: 'info', id: channelId, secret }).catch((error) => {
      exists(NO_SUCH_MOUNTPOINT)(error);
      return undefined;
    });
    const known = (found?.data.info as { media?: Array<{ port?: number }> } | undefined)?.media?.[0]?.port;
    if (known) return known;
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
          pt: OPUS_PT,
          codec: 'opus',
          rtpmap: 'opus/48000/2',
          // The listeners' browsers are told the stream carries in-band FEC (every talker's encoder adds it).
          fmtp: 'useinbandfec=1',
        },
      ],
    });
    const port = (created.data.stream as { ports?: Array<{ port: number }> } | undefined)?.ports?.[0]?.port;
    if (!port) throw new Error('the media server made a mountpoint without a port');
    return port;
  }

  async function createBridge(backend: JanusBackend, channelId: number): Promise<void> {
    const { audiobridge } = await backend.control();
    await audiobridge
      .message({
        request: 'create',
        room: channelId,
        ...keys.admin,
        secret: keys.roomSecret(channelId),
        pin: keys.roomPin(channelId),
        is_private: true,
        sampling_rate: 48_000,
        audiolevel_ext: false,
        default_prebuffering: PREBUFFER_PACKETS,
        // The mix's encoder (the mountpoint's forwarder and each participant's leg) adds in-band FEC.
        default_expectedloss: EXPECTED_LOSS_PERCENT,
        groups: [LOCAL_GROUP, PATCH_GROUP],
        allow_rtp_participants: true,
      })
      .catch(exists(ROOM_EXISTS));
  }

  async function bridgeParticipants(backend: JanusBackend, channelId: number): Promise<BridgeParticipant[]> {
    const { audiobridge } = await backend.control();
    const listed = await audiobridge.message({ request: 'listparticipants', room: channelId });
    return (listed.data.participants as BridgeParticipant[] | undefined) ?? [];
  }

  const addressIn = (display: string | undefined): RtpAddress | undefined => {
    const match = /^relay:(.+):(\d+)$/.exec(display ?? '');
    return match ? { ip: match[1], port: Number(match[2]) } : undefined;
  };

  /** A new relay participant in the channel's mixer: plain RTP in, group `local`, named with its address. */
  async function addRelay(backend: JanusBackend, channelId: number): Promise<RtpAddress> {
    const { handle, address } = await joinAsRtp(backend, {
      room: channelId,
      pin: keys.roomPin(channelId),
      group: LOCAL_GROUP,
      name: RELAY_NAME,
      payloadType: OPUS_PT,
      what: 'a relay',
    });
    let mine = cache(relays, backend).get(channelId);
    if (!mine) {
      mine = [];
      cache(relays, backend).set(channelId, mine);
    }
    mine.push(handle);
    return address;
  }

  const rooms = {
    /** The channel's VideoRoom room (talkers publish there) exists. */
    sfu: (backend: JanusBackend, channelId: number): Promise<void> =>
      once(sfus, backend, channelId, () => createSfu(backend, channelId)),

    /** The channel's mountpoint (every page watches it) exists; resolves with the port it listens on. */
    mountpoint: (backend: JanusBackend, channelId: number): Promise<number> =>
      once(mounts, backend, channelId, () => createMountpoint(backend, channelId)),

    /** The channel's AudioBridge room (the mixer) exists. */
    bridge: (backend: JanusBackend, channelId: number): Promise<void> =>
      once(bridges, backend, channelId, () => createBridge(backend, channelId)),

    /**
     * At least `count` relay participants in the channel's mixer (made where missing: a maker's session may be
     * gone, and one left without its address is removed); their addresses, the same order each time.
     */
    async relays(backend: JanusBackend, channelId: number, count: number): Promise<RtpAddress[]> {
      await rooms.bridge(backend, channelId);
      const { audiobridge } = await backend.control();
      const found: RtpAddress[] = [];
      for (const participant of await bridgeParticipants(backend, channelId)) {
        if (!participant.display?.startsWith(RELAY_NAME)) continue;
        const address = addressIn(participant.display);
        if (address) found.push(address);
        else
          await audiobridge
            .message({ request: 'kick', room: channelId, secret: keys.roomSecret(channelId), id: participant.id })
            .catch(() => {});
      }
      while (found.length < count) found.push(await addRelay(backend, channelId));
      return found.sort((a, b) => a.port - b.port || a.ip.localeCompare(b.ip));
    },

    /**
     * Who is in the channel's mixer now but its relays and patches (spec clients, older pages), and how many of
     * them talk (unmuted).
     */
    async bridgeState(backend: JanusBackend, channelId: number): Promise<{ present: number; talkers: number }> {
      const listed = await bridgeParticipants(backend, channelId).catch((error) => {
        if (error instanceof JanusPluginError && error.code === NO_SUCH_ROOM) return [];
        throw error;
      });
      const present = listed.filter(
        (participant) => !participant.display?.startsWith(RELAY_NAME) && !participant.display?.startsWith(PATCH_NAME),
      );
      return { present: present.length, talkers: present.filter((participant) => !participant.muted).length };
    },

    /**
     * Whether the channel has an AudioBridge room on that Janus now (made by any instance): asked of Janus,
     * since a spec client on another instance may have made it.
     */
    async bridged(backend: JanusBackend, channelId: number): Promise<boolean> {
      const { audiobridge } = await backend.control();
      return Boolean((await audiobridge.message({ request: 'exists', room: channelId })).data.exists);
    },

    /** Janus said a room or the mountpoint is not there (destroyed by another instance): the next use makes it. */
    forget(backend: JanusBackend, channelId: number): void {
      for (const made of [sfus, mounts, bridges]) cache(made as Made<unknown>, backend).delete(channelId);
      cache(relays, backend).delete(channelId);
    },

    /** How many channels this instance has rooms for (made or found) on that Janus. */
    count(backend: JanusBackend): number {
      const channels = new Set<number>();
      for (const made of [sfus, mounts, bridges])
        for (const channelId of (made as Made<unknown>).get(backend)?.keys() ?? []) channels.add(channelId);
      return channels.size;
    },

    /** The Janus went down: whatever was made on it is gone. */
    forgetAll(backend: JanusBackend): void {
      sfus.delete(backend);
      mounts.delete(backend);
      bridges.delete(backend);
      relays.delete(backend);
    },

    /**
     * Destroys the AudioBridge room when nobody but its relay is in it and `keep` (a patch holds the channel)
     * says no; the bridge is made again when a spec client comes or a patch is made.
     */
    async destroyBridgeIfUnused(backend: JanusBackend, channelId: number, keep: () => boolean): Promise<void> {
      if (!backend.up || keep()) return;
      try {
        await store.exclusive(`room:${channelId}`, async () => {
          if (!(await rooms.bridged(backend, channelId))) return;
          const others = (await bridgeParticipants(backend, channelId)).filter(
            (participant) => !participant.display?.startsWith(RELAY_NAME),
          );
          if (others.length > 0 || keep()) return;
          await destroyBridge(backend, channelId);
        });
      } catch (error) {
        if (error instanceof JanusPluginError && error.code === NO_SUCH_ROOM) return;
        log.warn({ err: error, channelId }, 'could not close a media room');
      }
    },

    /**
     * Destroys the channel's rooms and mountpoint when nobody is in any of them, on any instance (Janus counts
     * them), and `keep` (a patch holds the channel) says no. Resolves true when Janus still counted someone:
     * another instance's participant, or one whose detach Janus has not finished yet (the caller looks again).
     */
    async destroyIfUnused(backend: JanusBackend, channelId: number, keep: () => boolean): Promise<boolean> {
      if (!backend.up || keep()) return false;
      let counted = false;
      try {
        await store.exclusive(`room:${channelId}`, async () => {
          const { videoroom, streaming } = await backend.control();
          const secret = keys.roomSecret(channelId);
          const publishers = await videoroom
            .message({ request: 'listparticipants', room: channelId })
            .then((listed) => ((listed.data.participants as unknown[] | undefined) ?? []).length)
            .catch((error) => {
              exists(NO_SUCH_SFU_ROOM)(error);
              return -1;
            });
          if (publishers > 0) {
            counted = true;
            return;
          }
          const info = await streaming.message({ request: 'info', id: channelId, secret }).catch((error) => {
            exists(NO_SUCH_MOUNTPOINT)(error);
            return undefined;
          });
          const viewers = Number((info?.data.info as { viewers?: number } | undefined)?.viewers ?? 0);
          if (viewers > 0) {
            counted = true;
            return;
          }
          const bridged = await rooms.bridged(backend, channelId);
          if (bridged) {
            const others = (await bridgeParticipants(backend, channelId)).filter(
              (participant) => !participant.display?.startsWith(RELAY_NAME),
            );
            if (others.length > 0) {
              counted = true;
              return;
            }
          }
          if (keep()) return;
          rooms.forget(backend, channelId);
          if (info) await streaming.message({ request: 'destroy', id: channelId, secret });
          if (publishers === 0) await videoroom.message({ request: 'destroy', room: channelId, secret });
          if (bridged) await destroyBridge(backend, channelId);
        });
      } catch (error) {
        if (error instanceof JanusPluginError && [NO_SUCH_ROOM, NO_SUCH_SFU_ROOM].includes(error.code)) return false;
        log.warn({ err: error, channelId }, 'could not close a media room');
      }
      return counted;
    },
  };

  async function destroyBridge(backend: JanusBackend, channelId: number): Promise<void> {
    const { audiobridge } = await backend.control();
    cache(bridges, backend).delete(channelId);
    const mine = cache(relays, backend).get(channelId) ?? [];
    cache(relays, backend).delete(channelId);
    await audiobridge.message({ request: 'destroy', room: channelId, secret: keys.roomSecret(channelId) });
    for (const handle of mine) await handle.detach();
  }

  return rooms;
}

export type JanusRooms = ReturnType<typeof janusRooms>;
