/**
 * Socket.IO on the HTTP port (spec section 7, real-time socket): handshake authentication, channel rooms,
 * presence, the WebRTC signalling relay, push-to-talk state, typing, chat and positions. With REDIS_URL the
 * Redis adapter carries rooms and broadcasts across instances; presence lives in the database.
 */
import { createAdapter } from '@socket.io/redis-adapter';
import {
  Answer,
  Candidate,
  ChatMessage,
  type ClientToServerEvents,
  JoinRoom,
  LocationChanged,
  MicStateChange,
  Offer,
  POSITION_ACTIVITY_INTERVAL_MS,
  type Role,
  type RoomPeer,
  type ServerToClientEvents,
  Typing,
} from '@talkgroup/protocol';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { createClient } from 'redis';
import { Server, type Socket } from 'socket.io';
import type { z } from 'zod';
import { describeZodError } from '../http/errors.ts';
import type { Services } from '../services.ts';
import { HEARTBEAT_MS, type InstanceRegistry, redisInstanceRegistry, singleInstanceRegistry } from './instances.ts';
import type { EventArgs, EventName, Notifier } from './notifier.ts';
import { positionStore } from './positions.ts';
import { type ChannelRow, presenceStore } from './presence.ts';
import { ADMINS_ROOM, channelRoom, mapRoom, peerRoom, userRoom } from './rooms.ts';
import { talkBurstStore } from './talk-bursts.ts';

/** What a socket carries; fetchSockets() hands it over from any instance. */
export interface SocketData {
  userId: number;
  role: Role;
  /** The account's display name: what peers see, whatever name a client announces. */
  name: string;
  mapRight: boolean;
  /** The channel room the socket joined (its rtcSession), if any. */
  room: string | null;
  channelId: number | null;
}

/** Between instances: re-check which sockets may stay in which channel room (see revalidateRooms). */
interface InterServerEvents {
  revalidateRooms: () => void;
}

export type Io = Server<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;
type TalkSocket = Socket<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;
type Ack = (result: { success: boolean; result?: string }) => void;

export interface Realtime {
  io: Io;
  /** One push to the union of these rooms: a socket in several of them gets it once. */
  emitTo<E extends EventName>(rooms: string[], event: E, ...args: EventArgs<E>): void;
  /** Pushes a user's presence to administrators and to the rooms of its channels (gathered, see below). */
  publishStatus(userId: number, options?: { alsoRooms?: string[]; cameOnline?: boolean }): Promise<void>;
  /** A push-to-talk change, from a socket or from HTTP: pushed to the room, recorded as talk bursts. */
  changeMicState(change: MicChange): Promise<void>;
}

export interface MicChange {
  userId: number;
  name: string;
  channel: ChannelRow;
  /** The socket that talks, or '' when the change came over HTTP from a user without a socket there. */
  socketId: string;
  on: boolean;
}

/** A bad payload or a refused action: the client gets an `error` event with this message. */
class SocketInputError extends Error {}

/** How long presence changes are gathered before they are pushed (see publishStatus). */
const STATUS_GATHER_MS = 150;

/** Disconnections the client or the server asked for; any other reason is a lost connection. */
const EXPECTED_DISCONNECTS = new Set(['client namespace disconnect', 'server namespace disconnect']);

/**
 * A write that raced with the deletion of its channel or user (PostgreSQL 23503, SQLite "FOREIGN KEY
 * constraint failed"): not a server fault, the thing is simply gone.
 */
function isForeignKeyViolation(error: unknown): boolean {
  const e = error as { code?: unknown; errcode?: unknown; message?: unknown };
  return e?.code === '23503' || e?.errcode === 787 || String(e?.message).includes('FOREIGN KEY constraint failed');
}

function parse<S extends z.ZodType>(schema: S, payload: unknown, event: string): z.output<S> {
  const result = schema.safeParse(payload ?? {});
  if (!result.success) throw new SocketInputError(`${event}: ${describeZodError(result.error)}`);
  return result.data;
}

function tokenOf(handshake: Socket['handshake']): string | undefined {
  const fromQuery = handshake.query.token;
  const fromAuth = (handshake.auth as { token?: unknown } | undefined)?.token;
  const token = typeof fromQuery === 'string' && fromQuery !== '' ? fromQuery : fromAuth;
  return typeof token === 'string' && token !== '' ? token : undefined;
}

async function connectRedis(url: string, log: FastifyBaseLogger) {
  const pub = createClient({ url });
  const sub = pub.duplicate();
  // node-redis reconnects by itself; without a listener an error event would crash the process.
  pub.on('error', (error) => log.warn({ err: error }, 'redis (publish) connection error'));
  sub.on('error', (error) => log.warn({ err: error }, 'redis (subscribe) connection error'));
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('could not reach Redis (REDIS_URL) within 10 s')), 10_000);
  });
  try {
    await Promise.race([Promise.all([pub.connect(), sub.connect()]), timeout]);
  } catch (error) {
    pub.destroy();
    sub.destroy();
    throw error;
  } finally {
    clearTimeout(timer);
  }
  return { pub, sub };
}

export async function attachRealtime(fastify: FastifyInstance, services: Services): Promise<Realtime> {
  const { config, sessions, users, memberships, channels, activities, messages } = services;
  const log = fastify.log;
  const presence = presenceStore(services.db);
  const bursts = talkBurstStore(services.db);
  const positions = positionStore(services.db);
  const instanceId = config.instanceId;

  // Same origin only (the console is served by this server, the dev server proxies); a token, not a cookie,
  // authenticates, so there is nothing for another origin to ride on anyway.
  const io: Io = new Server(fastify.server, { serveClient: false, maxHttpBufferSize: 1e6 });

  let redis: Awaited<ReturnType<typeof connectRedis>> | undefined;
  let registry: InstanceRegistry;
  if (config.redisUrl) {
    redis = await connectRedis(config.redisUrl, log);
    io.adapter(createAdapter(redis.pub, redis.sub));
    registry = redisInstanceRegistry(redis.pub, instanceId, 'talkgroup:instances');
  } else {
    registry = singleInstanceRegistry(instanceId);
  }
  /** What the room checks need of each local socket: its task queue, and how it leaves or follows a room. */
  interface Control {
    socket: TalkSocket;
    run(event: string, task: () => Promise<void> | void): Promise<void>;
    leaveRoom(reason: 'leave' | 'disconnect' | 'evicted'): Promise<void>;
    follow(channel: ChannelRow): Promise<void>;
  }
  const controls = new Map<string, Control>();

  /** Every socket's events run one after the other, so that a leave never overtakes the join before it. */
  const queues = new Map<string, Promise<void>>();

  const sweep = async () => {
    await registry.beat();
    const removed = await presence.sweep(await registry.alive());
    if (removed > 0) log.info(`removed ${removed} presence row(s) of server instances that are gone`);
    // If this instance could not beat for a while (Redis unreachable), the others took it for dead and
    // removed its rows: its sockets, still connected, are written again.
    const written = await presence.socketIdsOf(instanceId);
    for (const { socket, run } of controls.values()) {
      if (socket.disconnected || written.has(socket.id)) continue;
      void run('presence', async () => {
        if (socket.connected) await presence.place(socket.id, socket.data.userId, instanceId, socket.data.channelId);
      });
    }
  };
  await sweep();
  const heartbeat = redis
    ? setInterval(() => sweep().catch((error) => log.warn({ err: error }, 'presence sweep failed')), HEARTBEAT_MS)
    : undefined;
  heartbeat?.unref();

  function emitTo<E extends EventName>(rooms: string[], event: E, ...args: EventArgs<E>): void {
    if (rooms.length === 0) return;
    (io.to(rooms).emit as (event: string, ...args: unknown[]) => boolean)(event, ...args);
  }

  // Channel and membership changes reach this layer through the pushes that announce them: a socket whose
  // channel is gone, renamed, or no longer its user's must not keep hearing the room.
  const ROOM_CHANGES = new Set<EventName>(['onChannelsChanged', 'onChannelDeleted']);
  const notifier: Notifier = {
    toAdmins: (event, ...args) => {
      emitTo([ADMINS_ROOM], event, ...args);
      if (ROOM_CHANGES.has(event)) revalidateEverywhere();
    },
    toRoom: (rtcSession, event, ...args) => {
      emitTo([channelRoom(rtcSession)], event, ...args);
      if (ROOM_CHANGES.has(event)) revalidateEverywhere();
    },
    toUser: (userId, event, ...args) => {
      emitTo([userRoom(userId)], event, ...args);
      if (ROOM_CHANGES.has(event)) revalidateEverywhere();
    },
    disconnectUser: (userId) => io.in(userRoom(userId)).disconnectSockets(true),
  };
  services.notifier.target = notifier;

  let revalidation: Promise<void> | undefined;
  let revalidateAgain = false;
  /** One pass at a time; changes announced during a pass get one more pass after it. */
  function revalidateLocal(): void {
    if (revalidation) {
      revalidateAgain = true;
      return;
    }
    revalidation = revalidateRooms()
      .catch((error) => log.error({ err: error }, 'could not re-check the channel rooms'))
      .finally(() => {
        revalidation = undefined;
        if (revalidateAgain) {
          revalidateAgain = false;
          revalidateLocal();
        }
      });
  }
  function revalidateEverywhere(): void {
    revalidateLocal();
    // The in-memory adapter has no other instance to tell (and warns when asked to).
    if (redis) io.serverSideEmit('revalidateRooms');
  }
  io.on('revalidateRooms', () => revalidateLocal());

  /**
   * For every local socket in a channel room: the channel must still exist and the user must still be an
   * administrator or a member, else the socket leaves the room (the others get user_exit); a renamed
   * channel's sockets follow it to its new room key. One pass costs two queries per channel in use.
   */
  async function revalidateRooms(): Promise<void> {
    const byChannel = new Map<number, Control[]>();
    for (const control of controls.values()) {
      const channelId = control.socket.data.channelId;
      if (channelId !== null) byChannel.set(channelId, [...(byChannel.get(channelId) ?? []), control]);
    }
    for (const [channelId, inChannel] of byChannel) {
      const channel = await channels.byId(channelId);
      const members = channel ? await presence.memberIds(channel.id) : new Set<number>();
      for (const control of inChannel) {
        const { data } = control.socket;
        if (control.socket.disconnected || data.channelId !== channelId) continue;
        if (!channel || (data.role !== 'admin' && !members.has(data.userId))) {
          const message = channel
            ? `You are no longer a member of the channel "${channel.name}": you left its room.`
            : 'This channel was deleted: you left its room.';
          void control.run('revalidate', async () => {
            if (control.socket.data.channelId !== channelId) return;
            await control.leaveRoom('evicted');
            control.socket.emit('error', { message });
          });
        } else if (channel.rtcSession !== data.room) {
          void control.run('revalidate', () => control.follow(channel));
        }
      }
    }
  }

  /**
   * Status pushes are gathered for STATUS_GATHER_MS and sent once per user, from the presence as it is
   * then: a member arriving connects and joins within a moment, and a crowd arriving at once (all phones
   * reconnecting after a restart) would otherwise push every change of every member to every member.
   */
  let statusBatch = new Map<number, { alsoRooms: Set<string>; cameOnline: boolean }>();
  let statusTimer: NodeJS.Timeout | undefined;
  async function publishStatus(userId: number, options: { alsoRooms?: string[]; cameOnline?: boolean } = {}) {
    const pending = statusBatch.get(userId) ?? { alsoRooms: new Set<string>(), cameOnline: false };
    for (const room of options.alsoRooms ?? []) pending.alsoRooms.add(room);
    pending.cameOnline ||= options.cameOnline ?? false;
    statusBatch.set(userId, pending);
    statusTimer ??= setTimeout(() => void flushStatuses(), STATUS_GATHER_MS);
  }
  async function flushStatuses() {
    const batch = statusBatch;
    statusBatch = new Map();
    statusTimer = undefined;
    for (const [userId, pending] of batch) {
      try {
        await publishStatusNow(userId, { alsoRooms: [...pending.alsoRooms], cameOnline: pending.cameOnline });
      } catch (error) {
        log.error({ err: error, userId }, 'could not push a presence change');
      }
    }
  }

  async function publishStatusNow(userId: number, options: { alsoRooms?: string[]; cameOnline?: boolean } = {}) {
    const status = await presence.status(userId);
    const rooms = new Set([
      ...(await presence.roomsOfMember(userId)),
      ...(await presence.roomsOfChannels(status.channelIds)),
      ...(options.alsoRooms ?? []),
    ]);
    const targets = [ADMINS_ROOM, ...[...rooms].map(channelRoom)];
    emitTo(targets, 'onUserStatusChanged', status);
    if (options.cameOnline) emitTo(targets, 'userConnected', status);
  }

  async function endBurst(userId: number, channelId: number) {
    if ((await bursts.end(userId, channelId)) > 0) await activities.record('channel_talk', { userId, channelId });
  }

  async function changeMicState(change: MicChange) {
    const { channel, on } = change;
    // Pushed first: the others' speaker icons must follow the button, the bookkeeping can come after.
    emitTo([channelRoom(channel.rtcSession)], 'onMicStateChanged', {
      id: change.socketId,
      userId: change.userId,
      name: change.name,
      micState: on,
      room: channel.rtcSession,
    });
    if (on) await bursts.start(change.userId, channel);
    else await endBurst(change.userId, channel.id);
    await presence.setMicState(change.userId, channel.id, on);
  }

  io.use(async (socket, next) => {
    try {
      const token = tokenOf(socket.handshake);
      if (!token) return next(new Error('Missing token: connect with ?token=<your session token>.'));
      const owner = await sessions.resolve(token);
      const user = owner && (await users.row(owner.userId));
      if (!owner || !user) return next(new Error('The token is invalid, expired or revoked: sign in again.'));
      socket.data = {
        userId: user.id,
        role: user.role,
        name: user.display_name,
        mapRight: user.map_right === 1,
        room: null,
        channelId: null,
      };
      next();
    } catch (error) {
      log.error({ err: error }, 'socket handshake failed');
      next(new Error('The server could not check the token: try again.'));
    }
  });

  let closing = false;

  io.on('connection', (socket: TalkSocket) => {
    const { userId } = socket.data;
    socket.join(userRoom(userId));
    if (socket.data.role === 'admin') socket.join(ADMINS_ROOM);

    const run = (event: string, task: () => Promise<void> | void, ack?: Ack) => {
      const previous = queues.get(socket.id) ?? Promise.resolve();
      const next = previous
        .then(task)
        .then(() => ack?.({ success: true }))
        .catch((error: unknown) => {
          const expected = error instanceof SocketInputError || isForeignKeyViolation(error);
          const message =
            error instanceof SocketInputError
              ? error.message
              : expected
                ? `${event}: this channel or user no longer exists.`
                : `${event}: something went wrong on the server.`;
          if (!expected) log.error({ err: error, event }, 'socket event failed');
          if (socket.connected) socket.emit('error', { message });
          ack?.({ success: false, result: message });
        })
        .finally(() => {
          // A disconnected socket is forgotten once its last task is done.
          if (socket.disconnected && queues.get(socket.id) === next) {
            queues.delete(socket.id);
            controls.delete(socket.id);
          }
        });
      queues.set(socket.id, next);
      return next;
    };
    const on = <E extends keyof ClientToServerEvents>(event: E, task: (payload: unknown) => Promise<void> | void) => {
      (socket.on as (event: string, listener: (...args: unknown[]) => void) => void)(event, (...args: unknown[]) => {
        const ack = typeof args[args.length - 1] === 'function' ? (args.pop() as Ack) : undefined;
        void run(event, () => task(args[0]), ack);
      });
    };

    const requireRoom = (event: string, claimed?: string) => {
      const { room, channelId } = socket.data;
      if (!room || channelId === null) throw new SocketInputError(`${event}: join a room first (join_room).`);
      if (claimed && claimed !== room)
        throw new SocketInputError(`${event}: this socket is in the room "${room}", not in "${claimed}".`);
      return { room, channelId };
    };

    const roomsOf = (room: string, channelId: number) => {
      const rooms = [channelRoom(room), peerRoom(channelId, socket.id)];
      if (socket.data.role === 'admin' || socket.data.mapRight) rooms.push(mapRoom(room));
      return rooms;
    };

    /** Out of the room it is in: the others see it go, its talk burst ends, the log says it left. */
    const leaveRoom = async (reason: 'leave' | 'disconnect' | 'evicted') => {
      const { room, channelId } = socket.data;
      if (!room || channelId === null) return;
      socket.to(channelRoom(room)).emit('user_exit', { id: socket.id });
      socket.data.room = null;
      socket.data.channelId = null;
      if (reason !== 'disconnect') {
        await Promise.all(roomsOf(room, channelId).map((name) => socket.leave(name)));
        await presence.setChannel(socket.id, null);
      }
      // Leaving while talking ends the burst; the others see the mic go off.
      if ((await bursts.end(userId, channelId)) > 0) {
        emitTo([channelRoom(room)], 'onMicStateChanged', {
          id: socket.id,
          userId,
          name: socket.data.name,
          micState: false,
          room,
        });
        await activities.record('channel_talk', { userId, channelId });
      }
      await activities.record('channel_leave', { userId, channelId });
      if (reason === 'evicted') await publishStatus(userId, { alsoRooms: [room] });
    };

    /** The channel was renamed: same channel, new room key. Peers stay connected; pushes follow. */
    const follow = async (channel: ChannelRow) => {
      const { room, channelId } = socket.data;
      if (!room || channelId !== channel.id) return;
      await Promise.all([socket.leave(channelRoom(room)), socket.leave(mapRoom(room))]);
      await socket.join(roomsOf(channel.rtcSession, channel.id));
      socket.data.room = channel.rtcSession;
    };

    controls.set(socket.id, { socket, run, leaveRoom, follow });

    run('connect', async () => {
      // The token may have been revoked between the handshake and now: its owner must not stay connected.
      if (!(await sessions.resolve(tokenOf(socket.handshake)))) {
        socket.disconnect(true);
        return;
      }
      await presence.add(socket.id, userId, instanceId);
      await publishStatus(userId, { cameOnline: (await presence.socketCount(userId)) === 1 });
    });

    on('join_room', async (payload) => {
      const { room } = parse(JoinRoom, payload, 'join_room');
      const channel = await channels.byRtcSession(room);
      if (!channel) throw new SocketInputError(`join_room: there is no channel with the room "${room}".`);
      if (socket.data.role !== 'admin' && !(await memberships.isMember(channel.id, userId)))
        throw new SocketInputError(`join_room: you are not a member of the channel "${channel.name}".`);
      const rejoin = socket.data.room === room && socket.data.channelId === channel.id;
      if (socket.data.room && !rejoin) await leaveRoom('leave');

      await socket.join(roomsOf(room, channel.id));
      socket.data.room = room;
      socket.data.channelId = channel.id;
      // Joined first, listed second: of two sockets joining at once, at least one sees the other.
      const peers: RoomPeer[] = (await io.in(channelRoom(room)).fetchSockets())
        .filter((other) => other.id !== socket.id)
        .map((other) => ({ id: other.id, name: other.data.name, userId: other.data.userId }));
      socket.emit('all_users', peers);
      socket.emit('usersInThisRoom', peers);
      if (rejoin) return;
      socket.to(channelRoom(room)).emit('user joined', { id: socket.id, name: socket.data.name, userId });

      await presence.place(socket.id, userId, instanceId, channel.id);
      await activities.record('channel_join', { userId, channelId: channel.id });
      await publishStatus(userId, { alsoRooms: [room] });
    });

    // Whatever room the client names: a socket is in one room at most, and a client that missed a rename
    // still names the old key.
    on('leave_room', async () => {
      const { room } = requireRoom('leave_room');
      await leaveRoom('leave');
      await publishStatus(userId, { alsoRooms: [room] });
    });

    // Signalling: the sender id is this socket's, never the client's claim; the target must share the room.
    on('offer', (payload) => {
      const offer = parse(Offer, payload, 'offer');
      const { channelId } = requireRoom('offer');
      socket.to(peerRoom(channelId, offer.offerReceiveID)).emit('getOffer', {
        sdp: offer.sdp,
        offerSendID: socket.id,
        offerSendName: socket.data.name,
      });
    });

    on('answer', (payload) => {
      const answer = parse(Answer, payload, 'answer');
      const { channelId } = requireRoom('answer');
      socket.to(peerRoom(channelId, answer.answerReceiveID)).emit('getAnswer', {
        sdp: answer.sdp,
        answerSendID: socket.id,
      });
    });

    on('candidate', (payload) => {
      const candidate = parse(Candidate, payload, 'candidate');
      const { channelId } = requireRoom('candidate');
      socket.to(peerRoom(channelId, candidate.candidateReceiveID)).emit('getCandidate', {
        candidate: candidate.candidate,
        candidateSendID: socket.id,
      });
    });

    on('micStateChange', async (payload) => {
      const change = parse(MicStateChange, payload, 'micStateChange');
      const { channelId } = requireRoom('micStateChange', change.room);
      const channel = await channels.byId(channelId);
      if (!channel) throw new SocketInputError('micStateChange: this channel no longer exists.');
      await changeMicState({ userId, name: socket.data.name, channel, socketId: socket.id, on: change.micState });
    });

    on('typing', (payload) => {
      // Old clients send typing with no payload or a bare value: only an object can name a room.
      const typing = parse(Typing, payload !== null && typeof payload === 'object' ? payload : {}, 'typing');
      const { room } = requireRoom('typing', typing.room);
      socket.to(channelRoom(room)).emit('typingResponse', { id: socket.id, userId, name: socket.data.name, room });
    });

    const sendMessage = (event: 'message' | 'message created') => async (payload: unknown) => {
      const { channelId, message: text } = parse(ChatMessage, payload, event);
      const channel = await channels.byId(channelId);
      if (!channel) throw new SocketInputError(`${event}: there is no channel with id ${channelId}.`);
      if (socket.data.role !== 'admin' && !(await memberships.isMember(channel.id, userId)))
        throw new SocketInputError(`${event}: you are not a member of the channel "${channel.name}".`);
      const message = await messages.create({ channelId: channel.id, userId, text });
      emitTo([channelRoom(channel.rtcSession)], 'messageResponse', message);
      emitTo([channelRoom(channel.rtcSession)], 'onSendMessage', message);
      await activities.record('message_send', { userId, channelId: channel.id });
    };
    on('message', sendMessage('message'));
    on('message created', sendMessage('message created'));

    on('onLocationChanged', async (payload) => {
      const reported = parse(LocationChanged, payload, 'onLocationChanged');
      const position = await positions.add(userId, reported);
      const rooms = await presence.roomsOfMember(userId);
      emitTo([ADMINS_ROOM, ...rooms.map(mapRoom)], 'onLocationChanged', { userId, ...position });
      // Every position is kept; the activity log gets at most one entry per interval.
      const since = new Date(Date.now() - POSITION_ACTIVITY_INTERVAL_MS);
      if (!(await positions.activitySince(userId, since))) await activities.record('position_update', { userId });
    });

    socket.on('disconnect', (reason) => {
      void run('disconnect', async () => {
        if (closing) {
          // Shutting down: peers elsewhere learn it now; the rows go in one statement (see preClose below).
          if (socket.data.room) socket.to(channelRoom(socket.data.room)).emit('user_exit', { id: socket.id });
          return;
        }
        const room = socket.data.room;
        const channelId = socket.data.channelId;
        await leaveRoom('disconnect');
        await presence.remove(socket.id);
        if (!EXPECTED_DISCONNECTS.has(reason)) await activities.record('connexion_lost', { userId, channelId });
        await publishStatus(userId, { alsoRooms: room ? [room] : [] });
      });
    });
  });

  // Before Fastify closes the HTTP server: its sockets must go first, or close() waits for them.
  fastify.addHook('preClose', async () => {
    closing = true;
    if (heartbeat) clearInterval(heartbeat);
    clearTimeout(statusTimer);
    statusBatch.clear();
    services.notifier.target = undefined;
    io.local.disconnectSockets(true);
    await Promise.allSettled([...queues.values()]);
    io.engine.close();
    try {
      await presence.removeInstance(instanceId);
      await registry.leave();
    } catch (error) {
      log.warn({ err: error }, 'could not remove the presence rows of this instance');
    }
    await io.of('/').adapter.close();
    if (redis) {
      await Promise.allSettled([redis.pub.close(), redis.sub.close()]);
    }
  });

  return { io, emitTo, publishStatus, changeMicState };
}
