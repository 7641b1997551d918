/**
 * A channel's rooms on its Janus (issue 37: forward, don't mix). Each is made on demand, with the channel's id
 * as its id in its plugin:
 *
 * - the **VideoRoom** room, audio only: each page that may talk publishes its microphone there (one stream up,
 *   whatever the number of listeners). Nothing is relayed from it on its own: only the floor holder's packets
 *   are forwarded (feed.ts), as they arrived, without decoding or mixing;
 * - the **Streaming** mountpoint, which every page of the channel watches (the pages that talk too, on a second
 *   connection): it relays whatever is forwarded to its port, encoded once by the talker's browser, to all of
 *   them (docs/benchmarks.md: 1.8 millicores per listener). Janus rewrites sequence numbers and
 *   timestamps when the source changes (a new holder), so a listener's connection never restarts;
 * - the **AudioBridge** room, only where two voices must be heard at once or a client can only send and
 *   receive on one connection: a patch (the dispatch console: another channel's voice comes in through a plain
 *   RTP participant of group `patch`), and the spec's own clients (one WebRTC connection for the whole channel,
 *   answered on the media server's behalf). Its `relay` participant (plain RTP, group `local`) receives the
 *   floor holder's forwarded packets, so that the bridge's participants hear the app's pages.
 *
 * The requests that make them, and the names and codes they use, are room-requests.ts's.
 *
 * What is made is remembered per Janus until that Janus goes down. Making and destroying run under the
 * channel's lock (assignments.ts) so that two instances never make a mountpoint twice or destroy a room while
 * the other makes it.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { AssignmentStore } from '../../../janus/assignments.ts';
import type { JanusBackend } from '../../../janus/backends.ts';
import { type JanusHandle, JanusPluginError } from '../../../janus/connection.ts';
import {
  addressIn,
  bridgeParticipants,
  createBridge,
  createMountpoint,
  createSfu,
  exists,
  joinAsRtp,
  LOCAL_GROUP,
  NO_SUCH_MOUNTPOINT,
  NO_SUCH_ROOM,
  NO_SUCH_SFU_ROOM,
  OPUS_PT,
  PATCH_NAME,
  RELAY_NAME,
  type RtpAddress,
} from '../../../janus/room-requests.ts';
import type { JanusKeys } from '../../../janus/secrets.ts';

/** What was made on each Janus, by channel (a promise, so that two callers at once make it once). */
type Made<T> = WeakMap<JanusBackend, Map<number, Promise<T>>>;

function cache<T>(kind: WeakMap<JanusBackend, Map<number, T>>, backend: JanusBackend): Map<number, T> {
  let map = kind.get(backend);
  if (!map) {
    map = new Map();
    kind.set(backend, map);
  }
  return map;
}

export interface JanusRoomsDeps {
  store: AssignmentStore;
  log: FastifyBaseLogger;
  keys: JanusKeys;
}

export class JanusRooms {
  readonly #store: AssignmentStore;
  readonly #log: FastifyBaseLogger;
  readonly #keys: JanusKeys;
  readonly #sfus: Made<void> = new WeakMap();
  readonly #mounts: Made<number> = new WeakMap();
  readonly #bridges: Made<void> = new WeakMap();
  /** The relay participants this instance made, by backend and channel (Janus drops them with the session). */
  readonly #relays = new WeakMap<JanusBackend, Map<number, JanusHandle[]>>();

  constructor(deps: JanusRoomsDeps) {
    this.#store = deps.store;
    this.#log = deps.log;
    this.#keys = deps.keys;
  }

  /** The channel's VideoRoom room (talkers publish there) exists. */
  sfu(backend: JanusBackend, channelId: number): Promise<void> {
    return this.#once(this.#sfus, backend, channelId, () => createSfu(backend, channelId, this.#keys));
  }

  /** The channel's mountpoint (every page watches it) exists; resolves with the port it listens on. */
  mountpoint(backend: JanusBackend, channelId: number): Promise<number> {
    return this.#once(this.#mounts, backend, channelId, () => createMountpoint(backend, channelId, this.#keys));
  }

  /** The channel's AudioBridge room (the mixer) exists. */
  bridge(backend: JanusBackend, channelId: number): Promise<void> {
    return this.#once(this.#bridges, backend, channelId, () => createBridge(backend, channelId, this.#keys));
  }

  /**
   * At least `count` relay participants in the channel's mixer (made where missing: a maker's session may be
   * gone, and one left without its address is removed); their addresses, the same order each time.
   */
  async relays(backend: JanusBackend, channelId: number, count: number): Promise<RtpAddress[]> {
    await this.bridge(backend, channelId);
    const { audiobridge } = await backend.control();
    const found: RtpAddress[] = [];
    for (const participant of await bridgeParticipants(backend, channelId)) {
      if (!participant.display?.startsWith(RELAY_NAME)) continue;
      const address = addressIn(participant.display);
      if (address) found.push(address);
      else
        await audiobridge
          .message({ request: 'kick', room: channelId, secret: this.#keys.roomSecret(channelId), id: participant.id })
          .catch(() => {});
    }
    while (found.length < count) found.push(await this.#addRelay(backend, channelId));
    return found.sort((a, b) => a.port - b.port || a.ip.localeCompare(b.ip));
  }

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
  }

  /**
   * Whether the channel has an AudioBridge room on that Janus now (made by any instance): asked of Janus,
   * since a spec client on another instance may have made it.
   */
  async bridged(backend: JanusBackend, channelId: number): Promise<boolean> {
    const { audiobridge } = await backend.control();
    return Boolean((await audiobridge.message({ request: 'exists', room: channelId })).data.exists);
  }

  /** Janus said a room or the mountpoint is not there (destroyed by another instance): the next use makes it. */
  forget(backend: JanusBackend, channelId: number): void {
    for (const made of [this.#sfus, this.#mounts, this.#bridges])
      cache(made as Made<unknown>, backend).delete(channelId);
    cache(this.#relays, backend).delete(channelId);
  }

  /** How many channels this instance has rooms for (made or found) on that Janus. */
  count(backend: JanusBackend): number {
    const channels = new Set<number>();
    for (const made of [this.#sfus, this.#mounts, this.#bridges])
      for (const channelId of (made as Made<unknown>).get(backend)?.keys() ?? []) channels.add(channelId);
    return channels.size;
  }

  /** The Janus went down: whatever was made on it is gone. */
  forgetAll(backend: JanusBackend): void {
    this.#sfus.delete(backend);
    this.#mounts.delete(backend);
    this.#bridges.delete(backend);
    this.#relays.delete(backend);
  }

  /**
   * Destroys the AudioBridge room when nobody but its relay is in it and `keep` (a patch holds the channel)
   * says no; the bridge is made again when a spec client comes or a patch is made.
   */
  async destroyBridgeIfUnused(backend: JanusBackend, channelId: number, keep: () => boolean): Promise<void> {
    if (!backend.up || keep()) return;
    try {
      await this.#store.exclusive(`room:${channelId}`, async () => {
        if (!(await this.bridged(backend, channelId))) return;
        if ((await this.#bridgeOthers(backend, channelId)) > 0 || keep()) return;
        await this.#destroyBridge(backend, channelId);
      });
    } catch (error) {
      if (error instanceof JanusPluginError && error.code === NO_SUCH_ROOM) return;
      this.#log.warn({ err: error, channelId }, 'could not close a media room');
    }
  }

  /**
   * Destroys the channel's rooms and mountpoint when nobody is in any of them, on any instance (Janus counts
   * them), and `keep` (a patch holds the channel) says no. Resolves true when Janus still counted someone:
   * another instance's participant, or one whose detach Janus has not finished yet (the caller looks again).
   */
  async destroyIfUnused(backend: JanusBackend, channelId: number, keep: () => boolean): Promise<boolean> {
    if (!backend.up || keep()) return false;
    let counted = false;
    try {
      await this.#store.exclusive(`room:${channelId}`, async () => {
        const { videoroom, streaming } = await backend.control();
        const secret = this.#keys.roomSecret(channelId);
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
        const bridged = await this.bridged(backend, channelId);
        if (bridged && (await this.#bridgeOthers(backend, channelId)) > 0) {
          counted = true;
          return;
        }
        if (keep()) return;
        this.forget(backend, channelId);
        if (info) await streaming.message({ request: 'destroy', id: channelId, secret });
        if (publishers === 0) await videoroom.message({ request: 'destroy', room: channelId, secret });
        if (bridged) await this.#destroyBridge(backend, channelId);
      });
    } catch (error) {
      if (error instanceof JanusPluginError && [NO_SUCH_ROOM, NO_SUCH_SFU_ROOM].includes(error.code)) return false;
      this.#log.warn({ err: error, channelId }, 'could not close a media room');
    }
    return counted;
  }

  /** Runs `make` once per backend and channel; a failure is forgotten so that the next call tries again. */
  async #once<T>(kind: Made<T>, backend: JanusBackend, channelId: number, make: () => Promise<T>): Promise<T> {
    const map = cache(kind, backend);
    let pending = map.get(channelId);
    if (!pending) {
      pending = this.#store.exclusive(`room:${channelId}`, make);
      map.set(channelId, pending);
    }
    try {
      return await pending;
    } catch (error) {
      if (map.get(channelId) === pending) map.delete(channelId);
      throw error;
    }
  }

  /** How many are in the channel's mixer but its relays. */
  async #bridgeOthers(backend: JanusBackend, channelId: number): Promise<number> {
    const listed = await bridgeParticipants(backend, channelId);
    return listed.filter((participant) => !participant.display?.startsWith(RELAY_NAME)).length;
  }

  /** A new relay participant in the channel's mixer: plain RTP in, group `local`, named with its address. */
  async #addRelay(backend: JanusBackend, channelId: number): Promise<RtpAddress> {
    const { handle, address } = await joinAsRtp(backend, {
      room: channelId,
      pin: this.#keys.roomPin(channelId),
      group: LOCAL_GROUP,
      name: RELAY_NAME,
      payloadType: OPUS_PT,
      what: 'a relay',
    });
    let mine = cache(this.#relays, backend).get(channelId);
    if (!mine) {
      mine = [];
      cache(this.#relays, backend).set(channelId, mine);
    }
    mine.push(handle);
    return address;
  }

  async #destroyBridge(backend: JanusBackend, channelId: number): Promise<void> {
    const { audiobridge } = await backend.control();
    cache(this.#bridges, backend).delete(channelId);
    const mine = cache(this.#relays, backend).get(channelId) ?? [];
    cache(this.#relays, backend).delete(channelId);
    await audiobridge.message({ request: 'destroy', room: channelId, secret: this.#keys.roomSecret(channelId) });
    for (const handle of mine) await handle.detach();
  }
}

export function janusRooms(deps: JanusRoomsDeps): JanusRooms {
  return new JanusRooms(deps);
}
