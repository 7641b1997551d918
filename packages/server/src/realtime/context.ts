/** What the parts of the real-time layer share: the io server's types, the context, and a socket's own. */
import type { ClientToServerEvents, ParticipationMode, Role, ServerToClientEvents } from '@talkgroup/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { Server, Socket } from 'socket.io';
import type { ActivityStore } from '../activities/store.ts';
import type { PrivateCalls } from '../calls/private-calls.ts';
import type { ChannelAccess } from '../channels/access.ts';
import type { MembershipStore } from '../channels/membership.ts';
import type { ChannelStore, ChannelSummary } from '../channels/store.ts';
import type { EmergencyAlerts } from '../emergency/alerts.ts';
import type { EventBus } from '../events.ts';
import type { TalkBurstStore } from '../floor/talk-bursts.ts';
import type { GeofenceWatch } from '../geofences/watch.ts';
import type { SendMessage } from '../messages/send.ts';
import type { PositionStore } from '../positions/store.ts';
import type { PresenceWrites } from '../presence/group-commit.ts';
import type { PresenceStore } from '../presence/store.ts';
import type { Arrivals } from './arrivals.ts';
import type { ChannelCache } from './channel-cache.ts';
import type { Floor } from './floor.ts';
import type { MediaPlanes } from './media/plane.ts';
import type { Talk } from './talk.ts';

/** What this part uses of the services (app.ts hands them over). */
export interface RealtimeServices {
  access: ChannelAccess;
  activities: ActivityStore;
  channels: ChannelStore;
  emergency: EmergencyAlerts;
  events: EventBus;
  geofenceWatch: GeofenceWatch;
  memberships: MembershipStore;
  positions: PositionStore;
  presence: PresenceStore;
  privateCalls: PrivateCalls;
  sendMessage: SendMessage;
  talkBursts: TalkBurstStore;
}

/** One channel a socket is in: its id, its room key (rtcSession) and how it is there. */
export interface Participation {
  channelId: number;
  room: string;
  mode: ParticipationMode;
  /** The user's rights let it take the floor here (false: a listen-only membership); read at the join. */
  mayTalk: boolean;
  /** The user may see the channel's map (its map room): read at the join. */
  seesMap: boolean;
  /** A private call's hidden channel (issue 27): its joins, leaves and talk are not logged; the call is. */
  hidden?: boolean;
}

/** What a socket carries; fetchSockets() hands it over from any instance. */
export interface SocketData {
  userId: number;
  /** The session (sign-in) whose token opened the socket: ending it closes the socket. */
  sessionId: number;
  role: Role;
  /** The account's display name: what peers see, whatever name a client announces. */
  name: string;
  mapRight: boolean;
  /** The client asked for one push per change (legacy/client-kinds.ts). */
  pushesOnce: boolean;
  /** The channels the socket is in (at most MAX_PARTICIPATIONS); a plain list, so that it crosses instances. */
  participations: Participation[];
}

/** What instances tell each other (the Redis adapter's serverSideEmit). */
export interface InterServerEvents {
  /** Re-check the rights of these users' sockets, or (null: a channel changed) of every socket (room-guard.ts). */
  revalidateRooms: (userIds: number[] | null) => void;
  /** A floor change for a socket of another instance: its media plane lets it be heard or silences it. */
  mediaHeard: (channelId: number, socketId: string, heard: boolean) => void;
  /** A geofence changed: every instance drops its cached fences (geofences/watch.ts). */
  geofencesChanged: () => void;
  /** A private call is over: its parties' sockets leave its hidden channel on every instance. */
  privateCallOver: (channelId: number) => void;
  /** A channel moved to another media server: participants linked to the old one start over. */
  mediaMoved: (channelId: number) => void;
  /** Channels patched together (null: the patch ended), for every instance to know. */
  mediaPatch: (patchId: string, channelIds: number[] | null) => void;
}

export type Io = Server<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;
export type TalkSocket = Socket<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;
export type EventName = keyof ServerToClientEvents;
export type EventArgs<E extends EventName> = Parameters<ServerToClientEvents[E]>;

export interface StatusOptions {
  /** Channel rooms to tell besides those of the user's channels (one it just left). */
  alsoRooms?: string[];
  /** The user's first socket: it came online. */
  cameOnline?: boolean;
  /** A socket just connected: the change waits a moment for its first join (status.ts). */
  arriving?: boolean;
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
  services: RealtimeServices;
  log: FastifyBaseLogger;
  instanceId: string;
  /** One push to the union of these rooms: a socket in several of them gets it once. */
  emitTo<E extends EventName>(rooms: string[], event: E, ...args: EventArgs<E>): void;
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
  /**
   * The channel an event is about: the one it names (`claimed`, a room key), or the socket's only one; a clear
   * error when the socket is in none, in another, or in several and the event names none.
   */
  requireRoom(event: string, claimed?: string): Participation;
}

/** A concern: the events of one subject (rooms, signalling, talk, chat, positions) for one socket. */
export type Concern = (socket: TalkSocket, scope: SocketScope) => void;
