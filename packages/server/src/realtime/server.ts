/**
 * Socket.IO on the HTTP port (spec section 7, real-time socket): the io server and its adapter, presence
 * of each connection, and the concerns that handle a socket's events (concerns/; the spec's own events in
 * legacy/; the media plane's signalling in media/). With REDIS_URL the Redis adapter carries rooms and
 * broadcasts across instances; presence lives in the database.
 *
 * attachRealtime puts the parts together, in this order: the handshake's gate (connection-gate.ts), the
 * instances together (cluster.ts), the media planes (media/start-media.ts), the floor and the context every
 * concern shares (context.ts), what is pushed to sockets (pushes.ts, status.ts), the watchers of rights, private
 * calls and emergencies, the handshake's token (handshake.ts), each socket's life (connections.ts); and, before
 * Fastify closes, closeRealtime takes them down in the reverse order.
 */

import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { Server } from 'socket.io';
import { type AmbientListenings, memoryAmbientListenings } from '../ambient/listenings.ts';
import { redisAmbientListenings } from '../ambient/redis-listenings.ts';
import type { Db } from '../db/schema.ts';
import { type Floor, floorControl } from '../floor/grants.ts';
import { type FloorStore, memoryFloorStore, redisFloorStore } from '../floor/holders.ts';
import { talkCore } from '../floor/push-to-talk.ts';
import { type FloorQueueStore, memoryQueueStore, redisQueueStore } from '../floor/queue-store.ts';
import type { MediaServerHealth } from '../janus/backends.ts';
import type { PatchStore } from '../patches/store.ts';
import { presenceWrites } from '../presence/group-commit.ts';
import { ADMINS_ROOM, channelRoom, supervisorRoom, userRoom } from '../sockets/room-names.ts';
import { endSessions } from '../sockets/sessions.ts';
import { followAliasChanges } from './alias-relay.ts';
import { arrivals } from './arrivals.ts';
import { type ChannelCache, channelCache } from './channel-cache.ts';
import { type Cluster, joinCluster } from './cluster.ts';
import { ambient } from './concerns/ambient.ts';
import { broadcast } from './concerns/broadcast.ts';
import { chat } from './concerns/chat.ts';
import { deviceStatus } from './concerns/device-status.ts';
import { dispatchConsole, followDispatchReminders } from './concerns/dispatch-console.ts';
import { emergency, emergencyFloor } from './concerns/emergency.ts';
import { floorRequests } from './concerns/floor.ts';
import { lobby } from './concerns/lobby.ts';
import { positions } from './concerns/positions.ts';
import { presenceSettled, rooms } from './concerns/rooms.ts';
import { video } from './concerns/video.ts';
import { connectionGate } from './connection-gate.ts';
import { Connections } from './connections.ts';
import type { Concern, LocalSocket, RealtimeContext } from './context.ts';
import { floorSignals, micShown } from './floor-signals.ts';
import { authenticateSockets } from './handshake.ts';
import type { EmitTo, Io, RealtimeServices, TalkSocket } from './io.ts';
import { EACH_PUSH_ROOM, ONE_PUSH_ROOM, pushers } from './legacy/client-kinds.ts';
import { specSocketEvents } from './legacy/socket-events.ts';
import { attachLiveVideo, type LiveVideoServices } from './live-video.ts';
import type { TakeServices } from './media/janus/takes.ts';
import type { MediaPlanes } from './media/plane.ts';
import { startMedia } from './media/start-media.ts';
import { type PrivateCallRoomServices, privateCallRooms } from './private-call-rooms.ts';
import { subscribePushes } from './pushes.ts';
import type { RedisState } from './redis.ts';
import { type RoomGuardServices, roomGuard } from './room-guard.ts';
import { watchSlowClients } from './slow-clients.ts';
import { SocketInputError } from './socket-tasks.ts';
import { type StatusServices, statusPublisher } from './status.ts';
import type { SupervisionServices } from './supervision.ts';
import { supervision } from './supervision.ts';

/** What this part uses of the services (app.ts hands them over). */
export interface AttachRealtimeServices
  extends RealtimeServices,
    StatusServices,
    TakeServices,
    PrivateCallRoomServices,
    SupervisionServices,
    RoomGuardServices,
    LiveVideoServices {
  db: Db;
  patches: PatchStore;
}

export type { Io } from './io.ts';

export interface Realtime
  extends Pick<RealtimeContext, 'io' | 'emitTo' | 'publishStatus' | 'talk' | 'floor' | 'media' | 'ambient' | 'videos'> {
  /** Whether Redis is used (REDIS_URL) and, if so, answers within a second and a half. */
  redisState(): Promise<RedisState>;
  /** Each media server (JANUS_URL) as /readyz and /metrics report it; null without one. */
  mediaHealth(): MediaServerHealth[] | null;
}

const CONCERNS: Concern[] = [
  rooms,
  floorRequests,
  broadcast,
  chat,
  positions,
  emergency,
  lobby,
  dispatchConsole,
  deviceStatus,
  ambient,
  video,
  specSocketEvents,
];

/**
 * Another instance changed a channel or a fence: what this one remembers of channels (and their fences) may be
 * stale. Returns the function that stops telling the others of this instance's fence changes.
 */
function followChannelChanges(
  io: Io,
  services: AttachRealtimeServices,
  channels: ChannelCache,
  shared: boolean,
): () => void {
  io.on('revalidateRooms', (userIds) => {
    if (userIds !== null) return;
    channels.clear();
    services.geofenceWatch.forget();
    services.areaChannels.forget();
  });
  // A fence changed on another instance: the crossing check reads the fences again. Told before the change is
  // pushed to consoles (subscribed below), on the same Redis connection: an instance forgets before its
  // consoles hear of the change.
  io.on('geofencesChanged', () => {
    services.geofenceWatch.forget();
    services.areaChannels.forget();
  });
  return services.events.on('geofencesChanged', () => {
    if (shared) io.serverSideEmit('geofencesChanged');
  });
}

/** The domain events pushed to the sockets that should hear them, by room; returns the unsubscribe. */
function pushDomainEvents(io: Io, services: AttachRealtimeServices, emitTo: EmitTo, ctx: RealtimeContext) {
  return subscribePushes(services.events, {
    toAdmins: (event, ...args) => emitTo([ADMINS_ROOM], event, ...args),
    toRoom: (rtcSession, event, ...args) => emitTo([channelRoom(rtcSession)], event, ...args),
    toAdminsAnd: ({ rooms = [], supervisedChannels = [], users = [] }, event, ...args) =>
      emitTo(
        [ADMINS_ROOM, ...rooms.map(channelRoom), ...supervisedChannels.map(supervisorRoom), ...users.map(userRoom)],
        event,
        ...args,
      ),
    toUser: (userId, event, ...args) => emitTo([userRoom(userId)], event, ...args),
    // Every socket joins one of the two client kinds' rooms at connection (legacy/client-kinds.ts).
    toEveryone: (event, ...args) => emitTo([ONE_PUSH_ROOM, EACH_PUSH_ROOM], event, ...args),
    endSessions: (ended) =>
      void endSessions(io, ended).catch((error) => ctx.log.error({ err: error }, 'could not end sessions')),
  });
}

/** The holders and queues (issue 59) of the floors: in Redis with REDIS_URL (shared), else in memory. */
function floorStores(cluster: Cluster, prefix: string): { store: FloorStore; queueStore: FloorQueueStore } {
  if (cluster.redis) {
    const redis = cluster.redis.pub;
    return { store: redisFloorStore(redis, prefix), queueStore: redisQueueStore(redis, prefix) };
  }
  const store = memoryFloorStore();
  return { store, queueStore: memoryQueueStore(store.slots) };
}

/** Live ambient listenings (issue 60): in Redis with REDIS_URL (a party's page may be on any instance), else memory. */
function ambientOf(cluster: Cluster, config: AttachRealtimeServices['config'], log: FastifyBaseLogger) {
  const maxSeconds = config.ambientMaxSeconds;
  if (!cluster.redis) return memoryAmbientListenings({ maxSeconds });
  return redisAmbientListenings(cluster.redis.pub, `${config.redisKeyPrefix}ambient:`, {
    maxSeconds,
    onError: (error, what) => log.warn({ err: error }, `${what} failed`),
  });
}

/** The floor of every channel: in Redis with REDIS_URL (shared by the instances), else in memory. */
function floorOf(
  services: AttachRealtimeServices,
  cluster: Cluster,
  emitTo: EmitTo,
  channels: ChannelCache,
  talkOff: RealtimeContext['talk']['changeMicState'],
  log: FastifyBaseLogger,
): Floor {
  const { config } = services;
  const { store, queueStore } = floorStores(cluster, `${config.redisKeyPrefix}floor:`);
  return floorControl({
    signals: floorSignals(emitTo, services.aliasLabels?.of),
    log,
    store,
    queue: { store: queueStore, timings: config.floorQueue },
    maxMs: config.floorMaxMs,
    onTimeout: async (claim, channelId) => {
      const channel = await channels.get(channelId);
      if (channel) await talkOff({ ...claim, channel, on: false });
    },
  });
}

/** What closeRealtime takes down, in order. */
interface RealtimeParts {
  io: Io;
  cluster: Cluster;
  connections: Connections;
  floor: Floor;
  media: MediaPlanes;
  channels: ChannelCache;
  local: Map<string, LocalSocket>;
  status: { stop(): Promise<void> };
  /** What listens to domain events and timers: stopped first, in this order. */
  stops: Array<() => void>;
}

/** Before Fastify closes the HTTP server: its sockets must go first, or close() waits for them. */
async function closeRealtime(parts: RealtimeParts): Promise<void> {
  const { io, cluster, connections, local } = parts;
  connections.close();
  cluster.stopHeartbeat();
  parts.floor.stop();
  for (const stop of parts.stops) stop();
  parts.channels.stop();
  const sockets = [...local.values()];
  // Transports close without a goodbye packet: Socket.IO clients take that for a lost connection and come
  // back by themselves (to this server once it is up again, or to another instance). A server-side
  // disconnect would make them give up.
  io.engine.close();
  await Promise.allSettled(sockets.map(({ socket, scope }) => scope.run('close', () => presenceSettled(socket))));
  // After the sockets' last changes: nothing is pushed through the adapter once it closes below.
  await parts.status.stop();
  await cluster.leave();
  await parts.media.stop();
  await io.of('/').adapter.close();
  await cluster.disconnect();
}

export async function attachRealtime(fastify: FastifyInstance, services: AttachRealtimeServices): Promise<Realtime> {
  const { config, sessions } = services;
  const log = fastify.log;

  // Same origin only (the console is served by this server, the dev server proxies); a token, not a cookie,
  // authenticates, so there is nothing for another origin to ride on anyway.
  const gate = connectionGate(config);
  const io: Io = new Server(fastify.server, {
    serveClient: false,
    maxHttpBufferSize: 1e6,
  });
  io.engine.use(gate.handshake);
  watchSlowClients(io, config.maxSocketBufferBytes, log);

  /** This instance's sockets and their scopes (the room guard and the presence sweep walk them). */
  const local = new Map<string, LocalSocket>();
  const cluster = await joinCluster(io, { config, services, log, local });
  const shared = cluster.redis !== undefined;

  const { emitTo, emitToSocket, specStatuses } = pushers(io);
  const arrived = arrivals((socketId) => io.of('/').sockets.get(socketId)?.rooms);
  const status = statusPublisher(services, emitTo, log, (entries) => specStatuses(entries, arrived.cameAfter));
  const channels = channelCache(services.channels, services.events);
  const { media, janus } = await startMedia(io, { config, services, log, redis: cluster.redis, channels });
  const stopFenceRelay = followChannelChanges(io, services, channels, shared);
  const stopAliasRelay = followAliasChanges(io, services, shared, (error) =>
    log.warn({ err: error }, 'could not read the aliases again'),
  );
  const floor = floorOf(services, cluster, emitTo, channels, (change) => ctx.talk.changeMicState(change), log);
  cluster.restoreFloors = () => floor.restore();
  const ambient: AmbientListenings = ambientOf(cluster, config, log);
  // Issue 61: live video's streams and requests, shared through the cluster's Redis when there is one.
  const videos = attachLiveVideo(io, {
    services,
    channels,
    instanceId: config.instanceId,
    redis: cluster.redis && {
      client: cluster.redis.pub,
      prefix: `${config.redisKeyPrefix}video:`,
      alive: () => cluster.registry.alive(),
    },
    janus: janus && {
      backends: janus.backends,
      keys: janus.keys,
      onBackendDown: janus.onBackendDown,
      recordingsDir: config.janusRecordingsDir,
      log,
    },
  });
  const ctx: RealtimeContext = {
    io,
    services,
    log,
    instanceId: config.instanceId,
    emitTo,
    emitToSocket,
    publishStatus: status.publish,
    arrivalSettled: status.settled,
    arrivals: arrived,
    talk: talkCore({
      services,
      floor,
      media,
      channelCache: channels,
      showMic: micShown(emitTo),
      refusal: (sentence) => new SocketInputError(sentence),
      log,
    }),
    floor,
    media,
    channelCache: channels,
    presenceWrites: presenceWrites(services.db, log),
    ambient,
    videos,
  };

  const unsubscribePushes = pushDomainEvents(io, services, emitTo, ctx);
  const stopDispatchReminders = followDispatchReminders(ctx);
  const guard = roomGuard(io, { services, log, local, media, shared, recheckMs: config.rightsRecheckMs });
  const callRooms = privateCallRooms(io, { services, local, log, shared, graceMs: config.connectionLostGraceMs });
  const stopEmergencyFloor = emergencyFloor(services.events, local);

  // Before the token is read: a flooding address, or an instance that holds all the sockets it may.
  io.use((socket, next) => next(gate.admit(socket, local.size)));
  authenticateSockets(io, {
    sessions,
    users: services.users,
    onError: (error) => log.error({ err: error }, 'socket handshake failed'),
  });
  const connections = new Connections({
    ctx,
    local,
    concerns: [...CONCERNS, ...media.concerns],
    sessions,
    status,
    supervisors: supervision(services),
    callRooms,
    connectionLostGraceMs: config.connectionLostGraceMs,
    log,
  });
  io.on('connection', (socket: TalkSocket) => connections.accept(socket));

  fastify.addHook('preClose', () =>
    closeRealtime({
      io,
      cluster,
      connections,
      floor,
      media,
      channels,
      local,
      status,
      stops: [
        unsubscribePushes,
        guard.stop,
        callRooms.stop,
        stopEmergencyFloor,
        stopFenceRelay,
        stopAliasRelay,
        stopDispatchReminders,
        () => ambient.close(),
        () => videos.close(),
      ],
    }),
  );
  return {
    io,
    emitTo,
    publishStatus: ctx.publishStatus,
    talk: ctx.talk,
    floor,
    media,
    ambient,
    videos,
    redisState: () => cluster.redisState(),
    mediaHealth: () => janus?.health() ?? null,
  };
}
