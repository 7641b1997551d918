/**
 * The media planes of this instance, wired to Socket.IO: the mesh always, Janus when JANUS_URL is set. Their
 * pages are told when a channel's voice changes way (`media_plane`), is reset (`media_reset`) or, for a spec
 * client, when the media server's peer offers or leaves; floor changes, moves and patches reach the other
 * instances through the adapter (`mediaHeard`, `mediaMoved`, `mediaPatch`).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { ChannelSummary } from '../../channels/store.ts';
import type { Config } from '../../config/config.ts';
import { memoryAssignments, redisAssignments } from '../../janus/assignments.ts';
import type { PatchStore } from '../../patches/store.ts';
import type { Faults } from '../../process/faults.ts';
import type { ChannelCache } from '../channel-cache.ts';
import type { Io } from '../io.ts';
import type { RedisPair } from '../redis.ts';
import { type JanusPlane, janusPlane } from './janus/plane.ts';
import { type TakeServices, takes } from './janus/takes.ts';
import { meshPlane } from './mesh.ts';
import { type MediaPlanes, mediaPlanes, SPEC_PEER_ID } from './plane.ts';

export interface MediaDeps {
  config: Pick<Config, 'janusUrls' | 'janusApiSecret' | 'redisKeyPrefix'>;
  services: TakeServices & { patches: PatchStore; faults?: Faults };
  log: FastifyBaseLogger;
  /** With Redis, the instances share floor changes, moves and patches. */
  redis: RedisPair | undefined;
  channels: ChannelCache;
}

/** The media server (JANUS_URL), if there is one: every channel's voice but `mesh` ones goes through it. */
function serverPlane(
  io: Io,
  deps: MediaDeps,
  relay: (channelId: number, socketId: string, heard: boolean) => void,
): JanusPlane | undefined {
  const { config, services, log, redis, channels } = deps;
  if (config.janusUrls.length === 0) return undefined;
  return janusPlane({
    urls: config.janusUrls,
    apiSecret: config.janusApiSecret,
    log,
    fault: (error) => services.faults?.fault('janus', error),
    takes: takes({ services, channelOf: (channelId) => channels.get(channelId), log }),
    store: redis ? redisAssignments(redis.pub, config.redisKeyPrefix) : memoryAssignments(),
    resetSocket: (socketId, channelId, reason) => {
      withChannel(channels, log, channelId, (channel) => {
        if (channel) io.to(socketId).emit('media_reset', { room: channel.rtcSession, reason });
      });
    },
    tellSpecClient: (socketId, channelId, message) => {
      withChannel(channels, log, channelId, (channel) => {
        if (!channel) return;
        const room = channel.rtcSession;
        if (message.kind === 'gone') io.to(socketId).emit('user_exit', { id: SPEC_PEER_ID, room });
        else
          io.to(socketId).emit('getOffer', {
            sdp: message.sdp,
            offerSendID: SPEC_PEER_ID,
            offerSendName: channel.name,
            room,
          });
      });
    },
    relay,
    moved: (channelId) => {
      if (redis) io.serverSideEmit('mediaMoved', channelId);
    },
    sharePatch: (patchId, channelIds) => {
      if (redis) io.serverSideEmit('mediaPatch', patchId, channelIds);
    },
    // Patches are kept in the database (issue 27): a Janus that restarts, or a channel that moves, joins them again.
    activePatches: async () =>
      (await services.patches.active()).map(({ patchId, channelIds }) => ({ patchId: String(patchId), channelIds })),
  });
}

/** Starts the planes and listens to the other instances; resolves once a Janus answers, or soon (janus/plane.ts). */
export async function startMedia(
  io: Io,
  deps: MediaDeps,
): Promise<{ media: MediaPlanes; janus: JanusPlane | undefined }> {
  const { log, redis, channels } = deps;
  /** A floor change for a socket of another instance goes to that instance (the Redis adapter carries it). */
  const relayHeard = (channelId: number, socketId: string, heard: boolean) => {
    if (redis) io.serverSideEmit('mediaHeard', channelId, socketId, heard);
  };
  const janus = serverPlane(io, deps, relayHeard);
  const media = mediaPlanes(meshPlane(), janus, {
    relay: relayHeard,
    switched: (channelId, socketIds, kind, fallback) => {
      withChannel(channels, log, channelId, (channel) => {
        if (!channel) return;
        const plane = { room: channel.rtcSession, kind, ...(fallback ? { fallback } : {}) };
        for (const socketId of socketIds) {
          io.to(socketId).emit('media_plane', plane);
          // A spec client knew the media server as a peer: it is gone (the pages connect to it directly now).
          if (kind === 'mesh') io.to(socketId).emit('user_exit', { id: SPEC_PEER_ID, room: channel.rtcSession });
        }
      });
    },
    failed: (error, channelId) => log.error({ err: error, channelId }, 'a channel could not change its media plane'),
  });
  io.on('mediaHeard', (channelId, socketId, heard) => {
    media
      .applyRelayed(channelId, socketId, heard)
      .catch((error) => log.error({ err: error, channelId }, 'a relayed floor change missed the media server'));
  });
  io.on('mediaMoved', (channelId) => {
    janus
      ?.movedElsewhere(channelId)
      .catch((error) => log.warn({ err: error, channelId }, 'a moved channel was not followed'));
  });
  io.on('mediaPatch', (patchId, channelIds) => janus?.learnPatch(patchId, channelIds));
  await janus?.ready();
  return { media, janus };
}

/**
 * Runs `use` with the channel once it is read (a cache miss reads the database). A read or a `use` that fails (the
 * database gone at shutdown, a lost connection) is logged: the event's message is dropped, never a rejection unheard.
 */
export function withChannel(
  channels: ChannelCache,
  log: FastifyBaseLogger,
  channelId: number,
  use: (channel: ChannelSummary | undefined) => void,
): void {
  channels
    .get(channelId)
    .then(use)
    .catch((error) => log.warn({ err: error, channelId }, "a media event could not tell its channel's room"));
}
