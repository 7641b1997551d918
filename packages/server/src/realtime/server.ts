/**
 * Socket.IO on the HTTP port (spec section 7, real-time socket): the io server and its adapter, presence
 * of each connection, and the concerns that handle a socket's events (concerns/; the spec's own events in
 * legacy/; the media plane's signalling in media/). With REDIS_URL the Redis adapter carries rooms and
 * broadcasts across instances; presence lives in the database.
 */

import { may } from '@talkgroup/protocol';
import type { FastifyInstance } from 'fastify';
import { Server } from 'socket.io';
import type { Db } from '../db/schema.ts';
import { floorControl } from '../floor/grants.ts';
import { memoryFloorStore, redisFloorStore } from '../floor/holders.ts';
import { talkCore } from '../floor/push-to-talk.ts';
import type { PatchStore } from '../patches/store.ts';
import { presenceWrites } from '../presence/group-commit.ts';
import { arrivals } from './arrivals.ts';
import { channelCache } from './channel-cache.ts';
import { broadcast } from './concerns/broadcast.ts';
import { chat } from './concerns/chat.ts';
import { emergency, emergencyFloor } from './concerns/emergency.ts';
import { floorRequests } from './concerns/floor.ts';
import { lobby } from './concerns/lobby.ts';
import { positions } from './concerns/positions.ts';
import { afterPresence, leaveAll, ownerOf, presenceSettled, rooms } from './concerns/rooms.ts';
import { connectionGate } from './connection-gate.ts';
import type { Concern, LocalSocket, RealtimeContext, SocketScope } from './context.ts';
import { floorSignals, micShown } from './floor-signals.ts';
import { authenticateSockets, tokenOf } from './handshake.ts';
import { HEARTBEAT_MS, type InstanceRegistry, redisInstanceRegistry, singleInstanceRegistry } from './instances.ts';
import type { Io, RealtimeServices, TalkSocket } from './io.ts';
import { clientKindRoom, pushers } from './legacy/client-kinds.ts';
import { specSocketEvents } from './legacy/socket-events.ts';
import { memoryAssignments, redisAssignments } from './media/janus/assignments.ts';
import { janusPlane, type MediaServerHealth } from './media/janus/plane.ts';
import { type TakeServices, takes } from './media/janus/takes.ts';
import { meshPlane } from './media/mesh.ts';
import { mediaPlanes, SPEC_PEER_ID } from './media/plane.ts';
import { resolveParticipation } from './participations.ts';
import { type PrivateCallRoomServices, privateCallRooms } from './private-call-rooms.ts';
import { subscribePushes } from './pushes.ts';
import { connectRedis, heardPublisher, type RedisPair, type RedisState } from './redis.ts';
import { type RoomGuardServices, roomGuard } from './room-guard.ts';
import { ADMINS_ROOM, channelRoom, supervisorRoom, userRoom } from './room-names.ts';
import { endSessions } from './sessions.ts';
import { watchSlowClients } from './slow-clients.ts';
import { SocketInputError, socketTasks } from './socket-tasks.ts';
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
    RoomGuardServices {
  db: Db;
  patches: PatchStore;
}

export type { Io } from './io.ts';

export interface Realtime
  extends Pick<RealtimeContext, 'io' | 'emitTo' | 'publishStatus' | 'talk' | 'floor' | 'media'> {
  /** Whether Redis is used (REDIS_URL) and, if so, answers within a second and a half. */
  redisState(): Promise<RedisState>;
  /** Each media server (JANUS_URL) as /readyz and /metrics report it; null without one. */
  mediaHealth(): MediaServerHealth[] | null;
}

const CONCERNS: Concern[] = [rooms, floorRequests, broadcast, chat, positions, emergency, lobby, specSocketEvents];

/** Disconnections the client or the server asked for; any other reason is a lost connection. */
const EXPECTED_DISCONNECTS = new Set(['client namespace disconnect', 'server namespace disconnect']);

export async function attachRealtime(fastify: FastifyInstance, services: AttachRealtimeServices): Promise<Realtime> {
  const { config, sessions, presence } = services;
  const log = fastify.log;
  const instanceId = config.instanceId;

  // Same origin only (the console is served by this server, the dev server proxies); a token, not a cookie,
  // authenticates, so there is nothing for another origin to ride on anyway.
  const gate = connectionGate(config);
  const io: Io = new Server(fastify.server, {
    serveClient: false,
    maxHttpBufferSize: 1e6,
  });
  io.engine.use(gate.handshake);
  watchSlowClients(io, config.maxSocketBufferBytes, log);

  let redis: RedisPair | undefined;
  let registry: InstanceRegistry;
  /** After Redis came back, others' presence rows are kept until every live instance has beaten again. */
  let keepOthersUntil = 0;
  if (config.redisUrl) {
    redis = await connectRedis(config.redisUrl, log, () => redisBack());
    const { createAdapter } = await import('@socket.io/redis-adapter');
    // Under the deployment's prefix: deployments (and test runs) that share one Redis never hear each other.
    io.adapter(createAdapter(heardPublisher(redis.pub, log), redis.sub, { key: `${config.redisKeyPrefix}socket.io` }));
    registry = redisInstanceRegistry(redis.pub, instanceId, `${config.redisKeyPrefix}instances`);
  } else {
    registry = singleInstanceRegistry(instanceId);
  }

  /** This instance's sockets and their scopes (the room guard and the presence sweep walk them). */
  const local = new Map<string, LocalSocket>();

  const sweep = async () => {
    await registry.beat();
    const removed = Date.now() < keepOthersUntil ? 0 : await presence.sweep(await registry.alive());
    await services.talkBursts.closeOrphans();
    if (removed > 0) log.info(`removed ${removed} presence row(s) of server instances that are gone`);
    // If this instance could not beat for a while (Redis unreachable), the others took it for dead and
    // removed its rows: its sockets, still connected, are written again.
    const written = await presence.socketIdsOf(instanceId);
    for (const { socket, scope } of local.values()) {
      if (socket.disconnected || written.has(socket.id)) continue;
      void scope.run('presence', async () => {
        if (socket.connected)
          await presence.restore(
            { socketId: socket.id, userId: socket.data.userId, instanceId },
            socket.data.participations,
          );
      });
    }
  };
  /**
   * Redis restarted (or failed over), invisibly to clients: their connections stay open, and their rooms were
   * never in Redis (each instance keeps its sockets' rooms). What Redis lost is written again: this instance's
   * beat (it waits for the others to beat before it takes their rows for dead) and the floors it granted (a
   * holder keeps talking, a press meanwhile is refused as before); presence rows are in the database, and the
   * sweep writes again any another instance removed meanwhile. Broadcasts between instances were lost while it
   * was away: every client here is told to fetch what it may have missed (`resync`).
   */
  function redisBack(): void {
    keepOthersUntil = Date.now() + 2 * HEARTBEAT_MS;
    void (async () => {
      await registry.beat();
      const floors = await floor.restore();
      if (floors > 0) log.info(`wrote ${floors} floor holding(s) again after Redis came back`);
      io.local.emit('resync', { reason: 'redis' });
    })().catch((error) => log.warn({ err: error }, 'could not put things back after Redis came back'));
  }

  await sweep();
  const heartbeat = redis
    ? setInterval(() => sweep().catch((error) => log.warn({ err: error }, 'presence sweep failed')), HEARTBEAT_MS)
    : undefined;
  heartbeat?.unref();

  const { emitTo, emitToSocket, specStatuses } = pushers(io);
  const arrived = arrivals((socketId) => io.of('/').sockets.get(socketId)?.rooms);
  const status = statusPublisher(services, emitTo, log, (entries) => specStatuses(entries, arrived.cameAfter));
  const channels = channelCache(services.channels, services.events);
  /** A floor change for a socket of another instance goes to that instance (the Redis adapter carries it). */
  const relayHeard = (channelId: number, socketId: string, heard: boolean) => {
    if (redis) io.serverSideEmit('mediaHeard', channelId, socketId, heard);
  };
  const janus = serverPlane();
  const media = mediaPlanes(meshPlane(), janus, {
    relay: relayHeard,
    switched: (channelId, socketIds, kind, fallback) => {
      void channels.get(channelId).then((channel) => {
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

  /** The media server (JANUS_URL), if there is one: every channel's voice but `mesh` ones goes through it. */
  function serverPlane() {
    if (config.janusUrls.length === 0) return undefined;
    return janusPlane({
      urls: config.janusUrls,
      apiSecret: config.janusApiSecret,
      log,
      takes: takes({ services, channelOf: (channelId) => channels.get(channelId), log }),
      store: redis ? redisAssignments(redis.pub, config.redisKeyPrefix) : memoryAssignments(),
      resetSocket: (socketId, channelId, reason) => {
        void channels.get(channelId).then((channel) => {
          if (channel) io.to(socketId).emit('media_reset', { room: channel.rtcSession, reason });
        });
      },
      tellSpecClient: (socketId, channelId, message) => {
        void channels.get(channelId).then((channel) => {
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
      relay: relayHeard,
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
  // Another instance changed a channel: what this one remembers of channels (and their fences) may be stale.
  io.on('revalidateRooms', (userIds) => {
    if (userIds !== null) return;
    channels.clear();
    services.geofenceWatch.forget();
  });
  // A fence changed on another instance: the crossing check reads the fences again. Told before the change is
  // pushed to consoles (subscribed below), on the same Redis connection: an instance forgets before its
  // consoles hear of the change.
  io.on('geofencesChanged', () => services.geofenceWatch.forget());
  const stopFenceRelay = services.events.on('geofencesChanged', () => {
    if (redis) io.serverSideEmit('geofencesChanged');
  });
  const floor = floorControl({
    signals: floorSignals(emitTo),
    log,
    store: redis ? redisFloorStore(redis.pub, `${config.redisKeyPrefix}floor:`) : memoryFloorStore(),
    maxMs: config.floorMaxMs,
    onTimeout: async (claim, channelId) => {
      const channel = await channels.get(channelId);
      if (channel) await ctx.talk.changeMicState({ ...claim, channel, on: false });
    },
  });
  const ctx: RealtimeContext = {
    io,
    services,
    log,
    instanceId,
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
  };

  const unsubscribePushes = subscribePushes(services.events, {
    toAdmins: (event, ...args) => emitTo([ADMINS_ROOM], event, ...args),
    toRoom: (rtcSession, event, ...args) => emitTo([channelRoom(rtcSession)], event, ...args),
    toAdminsAnd: ({ rooms = [], supervisedChannels = [] }, event, ...args) =>
      emitTo([ADMINS_ROOM, ...rooms.map(channelRoom), ...supervisedChannels.map(supervisorRoom)], event, ...args),
    toUser: (userId, event, ...args) => emitTo([userRoom(userId)], event, ...args),
    endSessions: (ended) =>
      void endSessions(io, ended).catch((error) => log.error({ err: error }, 'could not end sessions')),
  });
  const guard = roomGuard(io, {
    services,
    log,
    local,
    media,
    shared: redis !== undefined,
    recheckMs: config.rightsRecheckMs,
  });
  const supervisors = supervision(services);
  const callRooms = privateCallRooms(io, {
    services,
    local,
    log,
    shared: redis !== undefined,
    graceMs: config.connectionLostGraceMs,
  });
  const stopEmergencyFloor = emergencyFloor(services.events, local);

  // Before the token is read: a flooding address, or an instance that holds all the sockets it may.
  io.use((socket, next) => next(gate.admit(socket, local.size)));
  authenticateSockets(io, {
    sessions,
    users: services.users,
    onError: (error) => log.error({ err: error }, 'socket handshake failed'),
  });

  let closing = false;

  /**
   * A transport that died without a goodbye is a lost connection only if its user is not back within the
   * grace period (on any instance: presence is in the database). Pages say goodbye when they unload.
   */
  const graceTimers = new Set<NodeJS.Timeout>();
  function connectionLost(userId: number, channelId: number | undefined): void {
    const at = new Date();
    const timer = setTimeout(() => {
      graceTimers.delete(timer);
      void (async () => {
        if ((await presence.socketCount(userId)) > 0) return;
        await services.activities.record('connexion_lost', { userId, channelId: channelId ?? null, at });
      })().catch((error) => log.error({ err: error, userId }, 'could not record a lost connection'));
    }, config.connectionLostGraceMs);
    timer.unref();
    graceTimers.add(timer);
  }

  io.on('connection', (socket: TalkSocket) => {
    const { userId } = socket.data;
    socket.join([userRoom(userId), clientKindRoom(socket)]);
    // Whoever takes every channel's alerts hears the whole console's pushes (administrators).
    if (may(socket.data, null, 'channel.alerts')) socket.join(ADMINS_ROOM);
    arrived.connected(socket.id);

    const tasks = socketTasks(socket, log, () => local.delete(socket.id));
    const scope: SocketScope = {
      ...ctx,
      on: tasks.on,
      answer: tasks.answer,
      answerNow: tasks.answerNow,
      run: tasks.run,
      requireRoom: (event, claimed) => resolveParticipation(socket.data, event, claimed),
    };
    local.set(socket.id, { socket, scope });
    // Its arrival is pushed with its first join (status.ts), however long the server takes to answer it.
    socket.once('join_room', () => status.joinAsked(userId));

    void tasks.run('connect', async () => {
      // The token may have been revoked between the handshake and now: its owner must not stay connected.
      if (!(await sessions.resolve(tokenOf(socket.handshake)))) {
        socket.emit('session_ended', { reason: 'revoked', message: 'Your session has ended: sign in again.' });
        socket.disconnect(true);
        return;
      }
      // Written behind the socket's queue: its join_room does not wait for the disk (concerns/rooms.ts).
      void afterPresence(socket, ctx, async (trx) => {
        await presence.add(ownerOf(socket, ctx), trx);
        const count = await presence.socketCount(userId, trx);
        return () => ctx.publishStatus(userId, { cameOnline: count === 1, arriving: true });
      });
      await supervisors.place(socket);
    });

    for (const concern of [...CONCERNS, ...media.concerns]) concern(socket, scope);

    socket.on('disconnect', (reason) => {
      void tasks.run('disconnect', async () => {
        if (closing) {
          // Shutting down: peers elsewhere learn it now; the rows go in one statement (see preClose below).
          for (const { room } of socket.data.participations)
            socket.to(channelRoom(room)).emit('user_exit', { id: socket.id, room });
          return;
        }
        const channelId = socket.data.participations.find((at) => !at.hidden)?.channelId;
        const inCalls = socket.data.participations.filter((at) => at.hidden).map((at) => at.channelId);
        const left = await leaveAll(socket, scope, 'disconnect');
        await presence.remove(socket.id);
        if (!EXPECTED_DISCONNECTS.has(reason)) connectionLost(userId, channelId);
        for (const callChannel of inCalls) callRooms.left(userId, callChannel);
        ctx.publishStatus(userId, { alsoRooms: left });
      });
    });
  });

  // Before Fastify closes the HTTP server: its sockets must go first, or close() waits for them.
  fastify.addHook('preClose', async () => {
    closing = true;
    if (heartbeat) clearInterval(heartbeat);
    floor.stop();
    for (const timer of graceTimers) clearTimeout(timer);
    unsubscribePushes();
    guard.stop();
    callRooms.stop();
    stopEmergencyFloor();
    stopFenceRelay();
    channels.stop();
    const sockets = [...local.values()];
    // Transports close without a goodbye packet: Socket.IO clients take that for a lost connection and come
    // back by themselves (to this server once it is up again, or to another instance). A server-side
    // disconnect would make them give up.
    io.engine.close();
    await Promise.allSettled(sockets.map(({ socket, scope }) => scope.run('close', () => presenceSettled(socket))));
    // After the sockets' last changes: nothing is pushed through the adapter once it closes below.
    await status.stop();
    try {
      await presence.removeInstance(instanceId);
      await registry.leave();
    } catch (error) {
      log.warn({ err: error }, 'could not remove the presence rows of this instance');
    }
    await media.stop();
    await io.of('/').adapter.close();
    if (redis) await Promise.allSettled([redis.pub.close(), redis.sub.close()]);
  });

  const redisState = async (): Promise<RedisState> => {
    if (!redis) return { used: false, ok: true };
    // A command sent while the client reconnects waits in its queue: the answer is bounded here.
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), 1500);
    });
    const answered = redis.pub.isReady
      ? redis.pub.ping().then(
          (pong) => pong === 'PONG',
          () => false,
        )
      : Promise.resolve(false);
    try {
      return { used: true, ok: await Promise.race([answered, late]) };
    } finally {
      clearTimeout(timer);
    }
  };
  const mediaHealth = () => janus?.health() ?? null;
  return { io, emitTo, publishStatus: ctx.publishStatus, talk: ctx.talk, floor, media, redisState, mediaHealth };
}
