/** What the parts of the real-time layer share: the io server's types, the context, and a socket's own. */
import type { ClientToServerEvents, Role, ServerToClientEvents } from '@talkgroup/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { Server, Socket } from 'socket.io';
import type { ChannelSummary } from '../channels/store.ts';
import type { Services } from '../services.ts';
import type { ChannelCache } from './channel-cache.ts';
import type { Floor } from './floor.ts';
import type { PresenceWrites } from '../presence/group-commit.ts';

/** What a socket carries; fetchSockets() hands it over from any instance. */
export interface SocketData {
  userId: number;
  /** The session (sign-in) whose token opened the socket: ending it closes the socket. */
  sessionId: number;
  role: Role;
  /** The account's display name: what peers see, whatever name a client announces. */
  name: string;
  mapRight: boolean;
  /** The client asked for one push per change (push-once.ts). */
  pushesOnce: boolean;
  /** The channel room the socket joined (its rtcSession), if any. */
  room: string | null;
  channelId: number | null;
}

/** Between instances: re-check which sockets may stay in which channel room (see room-guard.ts). */
export interface InterServerEvents {
  revalidateRooms: () => void;
}

export type Io = Server<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;
export type TalkSocket = Socket<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;
export type EventName = keyof ServerToClientEvents;
export type EventArgs<E extends EventName> = Parameters<ServerToClientEvents[E]>;

export interface StatusOptions {
  /** Channel rooms to tell besides those of the user's channels (one it just left). */
  alsoRooms?: string[];
  /** The user's first socket: `userConnected` too. */
  cameOnline?: boolean;
}

export interface MicChange {
  userId: number;
  name: string;
  channel: Pick<ChannelSummary, 'id' | 'name' | 'rtcSession'>;
  /** The socket that talks, or '' when the change came over HTTP from a user without a socket there. */
  socketId: string;
  on: boolean;
}

/** What every concern of the real-time layer may use. */
export interface RealtimeContext {
  io: Io;
  services: Services;
  log: FastifyBaseLogger;
  instanceId: string;
  /** One push to the union of these rooms: a socket in several of them gets it once. */
  emitTo<E extends EventName>(rooms: string[], event: E, ...args: EventArgs<E>): void;
  /** Pushes a user's presence to administrators and to the rooms of its channels (gathered: status.ts). */
  publishStatus(userId: number, options?: StatusOptions): void;
  /** A push-to-talk change, from a socket or from HTTP: pushed to the room, recorded as talk bursts. */
  changeMicState(change: MicChange): Promise<void>;
  /** Ends a user's talk burst in a channel it leaves (the others see its mic go off). */
  endTalkOnLeave(socket: TalkSocket, room: string, channelId: number): Promise<void>;
  /** Who may talk in each channel (floor.ts). */
  floor: Floor;
  /** Presence writes of a crowd, committed together (presence/group-commit.ts). */
  presenceWrites: PresenceWrites;
  /** Channels as real time last read them (floor control on or off), without a database round trip. */
  channelCache: ChannelCache;
}

/** A socket's own helpers, handed to each concern with the socket. */
export interface SocketScope extends RealtimeContext {
  /** Listens to a client event; its task runs after the socket's earlier ones, its errors become `error`. */
  on(event: keyof ClientToServerEvents, task: (payload: unknown) => Promise<void> | void): void;
  /** Like `on`, for an event whose acknowledgement carries the task's answer. */
  answer<R>(event: keyof ClientToServerEvents, task: (payload: unknown) => Promise<R>): void;
  /** Like `answer`, run at once beside the queue (a decision made in memory; its writes go in the queue). */
  answerNow<R>(event: keyof ClientToServerEvents, task: (payload: unknown) => Promise<R>): void;
  /** Runs a task in the socket's queue. */
  run(event: string, task: () => Promise<void> | void): Promise<void>;
  /** The room this socket is in, or a clear error (`claimed`: the room the client names). */
  requireRoom(event: string, claimed?: string): { room: string; channelId: number };
}

/** A concern: the events of one subject (rooms, signalling, talk, chat, positions) for one socket. */
export type Concern = (socket: TalkSocket, scope: SocketScope) => void;
