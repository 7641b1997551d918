/**
 * What the parts of the real-time layer gather into: the context every concern may use, and a socket's scope.
 * What the parts share below it (the io server's types, a socket's own) is io.ts.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { AmbientListenings } from '../ambient/listenings.ts';
import type { Floor } from '../floor/grants.ts';
import type { Talk } from '../floor/push-to-talk.ts';
import type { PresenceWrites } from '../presence/group-commit.ts';
import type { LiveVideos } from '../video/live.ts';
import type { Arrivals } from './arrivals.ts';
import type { ChannelCache } from './channel-cache.ts';
import type {
  EmitTo,
  EventArgs,
  EventName,
  Io,
  RealtimeServices,
  SocketEvents,
  StatusOptions,
  TalkSocket,
} from './io.ts';
import type { MediaPlanes } from './media/plane.ts';

/** What every concern of the real-time layer may use. */
export interface RealtimeContext {
  io: Io;
  services: RealtimeServices;
  log: FastifyBaseLogger;
  instanceId: string;
  /** One push to the union of these rooms: a socket in several of them gets it once. */
  emitTo: EmitTo;
  /** A push to one socket of this instance (with the twin the spec's clients expect, legacy/adapter.ts). */
  emitToSocket<E extends EventName>(socket: TalkSocket, event: E, ...args: EventArgs<E>): void;
  /** Pushes a user's presence to administrators and to the rooms of its channels (gathered: status.ts). */
  publishStatus(userId: number, options?: StatusOptions): void;
  /** The user's arrival, if it waits for a join (status.ts), waits no more. */
  arrivalSettled(userId: number): void;
  /** When this instance's sockets connected and joined channel rooms (for the spec's presence events). */
  arrivals: Arrivals;
  /** Push-to-talk: presses, releases and mic changes, from a socket or from HTTP (talk.ts). */
  talk: Talk;
  /** Who may talk in each channel (floor.ts). */
  floor: Floor;
  /** Where each channel's voice goes: the mesh, or a media server (media/plane.ts). */
  media: MediaPlanes;
  /** Presence writes of a crowd, committed together (presence/group-commit.ts). */
  presenceWrites: PresenceWrites;
  /** Channels as real time last read them (floor control on or off), without a database round trip. */
  channelCache: ChannelCache;
  /** Issue 60: live ambient listenings, whose signalling real time relays between their two parties. */
  ambient: AmbientListenings;
  /** Issue 61: live video's streams, places and requests (video/live.ts). */
  videos: LiveVideos;
}

/** A socket's own helpers, handed to each concern with the socket. */
export interface SocketScope extends RealtimeContext, SocketEvents {}

/** A socket of this instance, with its scope (room-guard.ts checks them; emergencies and private calls reach them). */
export interface LocalSocket {
  socket: TalkSocket;
  scope: SocketScope;
}

/** A concern: the events of one subject (rooms, signalling, talk, chat, positions) for one socket. */
export type Concern = (socket: TalkSocket, scope: SocketScope) => void;
