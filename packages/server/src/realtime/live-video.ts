/**
 * Live video in real time (issue 61): its store in Redis with REDIS_URL (a stream's sharer and viewers may be on
 * any instance), else in memory, and the decisions over it (live.ts, requests.ts, audience.ts); with a media
 * server, its VideoRoom (janus-video.ts).
 */
import type { AuditStore } from '../audit/store.ts';
import type { MembershipStore } from '../channels/membership.ts';
import type { ChannelStore } from '../channels/store.ts';
import type { Config } from '../config/config.ts';
import type { Db } from '../db/schema.ts';
import type { Faults } from '../process/faults.ts';
import type { UserStore } from '../users/store.ts';
import { videoAudience } from '../video/audience.ts';
import { type JanusVideoDeps, janusVideo } from '../video/janus-video.ts';
import { type LiveVideos, liveVideos } from '../video/live.ts';
import { type LiveVideoRedis, memoryLiveVideoStore, redisLiveVideoStore } from '../video/live-store.ts';
import { videoRequests } from '../video/requests.ts';
import type { VideoStore } from '../video/store.ts';
import type { ChannelCache } from './channel-cache.ts';
import type { Io } from './io.ts';

/** What live video uses of the services (app.ts hands them over). */
export interface LiveVideoServices {
  db: Db;
  audit: AuditStore;
  channels: ChannelStore;
  memberships: MembershipStore;
  users: UserStore;
  videos: VideoStore;
  faults: Faults;
  config: Config;
}

export function attachLiveVideo(
  io: Io,
  deps: {
    services: LiveVideoServices;
    channels: ChannelCache;
    instanceId: string;
    /** The cluster's Redis and live instances, with REDIS_URL. */
    redis?: { client: LiveVideoRedis; prefix: string; alive: () => Promise<string[]> };
    /** The media server (JANUS_URL): live video goes through it. */
    janus?: Omit<JanusVideoDeps, 'recordings'>;
  },
): LiveVideos {
  const { services, redis } = deps;
  const store = redis ? redisLiveVideoStore(redis.client, redis.prefix) : memoryLiveVideoStore();
  return liveVideos({
    io,
    store,
    recordings: services.videos,
    audience: videoAudience(services.db, services.channels),
    requests: videoRequests({
      io,
      store,
      audit: services.audit,
      users: services.users,
      faults: services.faults,
      ttlMs: services.config.video.requestTtlMs,
    }),
    channels: deps.channels,
    memberships: services.memberships,
    faults: services.faults,
    instanceId: deps.instanceId,
    alive: redis?.alive,
    janus:
      deps.janus &&
      janusVideo({
        ...deps.janus,
        recordings: services.videos,
        publisherWaitMs: services.config.video.publisherWaitMs,
      }),
  });
}
