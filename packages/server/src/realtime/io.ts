/**
 * The io server's types, what a socket carries and the helpers it is handed, and the services real time uses:
 * what the parts of the real-time layer share below their context (context.ts), which gathers the parts.
 */

import type { ClientToServerEvents, ParticipationMode, Role, ServerToClientEvents } from '@talkgroup/protocol';
import type { Server, Socket } from 'socket.io';
import type { ActivityStore } from '../activities/store.ts';
import type { AliasLabels } from '../aliases/labels.ts';
import type { AreaChannels } from '../areas/follow.ts';
import type { CallLimiter } from '../auth/rate-limit.ts';
import type { PrivateCalls } from '../calls/private-calls.ts';
import type { ChannelAccess } from '../channels/access.ts';
import type { MembershipStore } from '../channels/membership.ts';
import type { ChannelStore } from '../channels/store.ts';
import type { DeviceStatusStore } from '../devices/store.ts';
import type { EmergencyAlerts } from '../emergency/alerts.ts';
import type { EventBus } from '../events.ts';
import type { TalkBurstStore } from '../floor/talk-bursts.ts';
import type { GatewayStore } from '../gateways/store.ts';
import type { GeofenceWatch } from '../geofences/watch.ts';
import type { SendMessage } from '../messages/send.ts';
import type { Faults } from '../ops/faults.ts';
import type { PositionStore } from '../positions/store.ts';
import type { PresenceStore } from '../presence/store.ts';
import type { JanusStream } from '../video/janus-video.ts';

/** What this part uses of the services (app.ts hands them over). */
export interface RealtimeServices {
  access: ChannelAccess;
  activities: ActivityStore;
  /** Area channels (issue 59): each reported position may join or keep a member in a channel's zone. */
  areaChannels: Pick<AreaChannels, 'report' | 'forget'>;
  channels: ChannelStore;
  /** Issue 60: each member's latest device status (`device_status`). */
  deviceStatuses: DeviceStatusStore;
  emergency: EmergencyAlerts;
  events: EventBus;
  /** Errors that stayed local: counted and logged once a minute per cause (ops/faults.ts). */
  faults: Faults;
  /** SIP gateways' calls (issue 51): a channel's are among its peers. */
  gateways: Pick<GatewayStore, 'calls' | 'sweepCalls'>;
  geofenceWatch: GeofenceWatch;
  memberships: MembershipStore;
  positions: PositionStore;
  presence: PresenceStore;
  privateCalls: PrivateCalls;
  /** Functional aliases' holders in memory (issue 59): a peer's and a talker's alias. */
  aliasLabels?: Pick<AliasLabels, 'of' | 'refresh'>;
  sendMessage: SendMessage;
  talkBursts: TalkBurstStore;
  /** Issue 69: live video's starts per user a minute (`video_start`). */
  videoLimits: { starts: CallLimiter };
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

export interface StatusOptions {
  /** Channel rooms to tell besides those of the user's channels (one it just left). */
  alsoRooms?: string[];
  /** The user's first socket: it came online. */
  cameOnline?: boolean;
  /** A socket just connected: the change waits a moment for its first join (status.ts). */
  arriving?: boolean;
}

export type { MicChange } from '../floor/push-to-talk.ts';

/** A socket's own helpers, handed with the socket to each concern (context.ts: SocketScope). */
export interface SocketEvents {
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

/** The events of a socket that need only its own helpers (a media plane's signalling, media/plane.ts). */
export type SocketConcern = (socket: TalkSocket, scope: SocketEvents) => void;
