/**
 * The io server's types, what a socket carries and the helpers it is handed, and the services real time uses:
 * what the parts of the real-time layer share below their context (context.ts), which gathers the parts.
 */

import type { ClientToServerEvents } from '@talkgroup/protocol';
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
import type { PositionStore } from '../positions/store.ts';
import type { PresenceStore } from '../presence/store.ts';
import type { Faults } from '../process/faults.ts';
import type { Participation, TalkSocket } from '../sockets/io.ts';

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
  /** Errors that stayed local: counted and logged once a minute per cause (process/faults.ts). */
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

export type {
  EmitTo,
  EventArgs,
  EventName,
  InterServerEvents,
  Io,
  Participation,
  SocketData,
  TalkSocket,
} from '../sockets/io.ts';

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
