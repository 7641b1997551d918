/**
 * The sockets' port: the socket server's types as the domains see it. The top (realtime/) creates the server and
 * hands it down; a domain that tells the sockets something emits through it to the rooms of room-names.ts, and never
 * imports realtime/. What a socket carries (SocketData) and what instances tell each other (InterServerEvents) are
 * plain data, so that they cross instances.
 */
import type { ClientToServerEvents, ParticipationMode, Role, ServerToClientEvents } from '@talkgroup/protocol';
import type { Server, Socket } from 'socket.io';

/** A live video through the media server, as instances name it to each other (video/janus-video.ts). */
export interface JanusStream {
  streamId: string;
  channelId: number;
  name: string;
  janusUrl?: string;
  startedAt: string;
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
  /**
   * Its membership gives a member's rights only (an area's, a regroup's but its creator's: issue 69), whatever the
   * role: read at the join, kept up to date by the room guard.
   */
  memberRightsOnly?: boolean;
  /** A private call's hidden channel (issue 27): its joins, leaves and talk are not logged; the call is. */
  hidden?: boolean;
  /** The room keys this channel had before renames seen while the socket was in it (newest last, at most 4). */
  formerRooms?: string[];
}

/** What a socket carries; fetchSockets() hands it over from any instance. */
export interface SocketData {
  userId: number;
  /** The session (sign-in) whose token opened the socket: ending it closes the socket. */
  sessionId: number;
  role: Role;
  /** Issue 59: the talk priority its presses claim (the user's own, or its role's); kept up to date with the role. */
  talkPriority: number;
  /** The account's display name: what peers see, whatever name a client announces. */
  name: string;
  mapRight: boolean;
  /** The client asked for one push per change (legacy/client-kinds.ts). */
  pushesOnce: boolean;
  /**
   * Issue 60: a member's /talk page, which "the member's app is open" counts (device status, ambient listening):
   * its handshake says `auth.app: 'talk'`, or, from an older client, it reported a `device_status`.
   */
  talkPage: boolean;
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
  /** Who holds a functional alias changed (issue 59): every instance reads the holders again. */
  aliasesChanged: () => void;
  /** A private call is over: its parties' sockets leave its hidden channel on every instance. */
  privateCallOver: (channelId: number) => void;
  /** A channel moved to another media server: participants linked to the old one start over. */
  mediaMoved: (channelId: number) => void;
  /** Channels patched together (null: the patch ended), for every instance to know. */
  mediaPatch: (patchId: string, channelIds: number[] | null) => void;
  /**
   * A live video through the media server ended (issue 61): the instances holding its publisher or subscriptions
   * take them out of Janus, and the sharer's keeps its recording (video/janus-video.ts).
   */
  videoEnded: (stream: JanusStream, endedAt: string) => void;
}

export type Io = Server<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;
export type TalkSocket = Socket<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;
export type EventName = keyof ServerToClientEvents;
export type EventArgs<E extends EventName> = Parameters<ServerToClientEvents[E]>;

/** One push to the union of these rooms: a socket in several of them gets it once. */
export type EmitTo = <E extends EventName>(rooms: string[], event: E, ...args: EventArgs<E>) => void;
