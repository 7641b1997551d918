/**
 * Shapes the server returns (spec section 3). Times are ISO 8601 strings in UTC. Each shape is a zod schema
 * and its type: the server serialises every response through these schemas, so a field that is not declared
 * here never leaves the server.
 */
import { z } from 'zod';
import { StoredRoleSchema } from './roles.ts';
import { PREEMPTION_MODES, VIDEO_AUDIENCES, VOICE_MODES } from './rules.ts';

export const ACTIVITY_TYPES = [
  'login',
  'logout',
  'position_update',
  'position_get',
  'message_send',
  'image_send',
  'message_read',
  'channel_talk',
  'channel_join',
  'channel_leave',
  'connexion_lost',
  'channel_creation',
  'channel_update',
  'channel_delete',
  'emergency',
  'voice_message',
  'geofence_enter',
  'geofence_exit',
  'channel_patch',
  'channel_unpatch',
  'private_call',
  'dispatch_request',
  'dispatch_take',
  'dispatch_return',
  'dispatch_transfer',
  'dispatch_close',
  'dispatch_cancel',
  'dispatch_abandon',
  'dispatch_expire',
  'status_change',
  'emergency_close',
  'area_enter',
  'area_exit',
] as const;
export type ActivityType = (typeof ACTIVITY_TYPES)[number];

/** Activity types that have a timeline sentence (spec section 3). */
export const TIMELINE_ACTIVITY_TYPES = [
  'login',
  'logout',
  'channel_update',
  'channel_creation',
  'channel_delete',
  'message_send',
  'image_send',
  'channel_join',
  'channel_talk',
  'channel_leave',
  'emergency',
  'voice_message',
  'geofence_enter',
  'geofence_exit',
  'channel_patch',
  'channel_unpatch',
  'private_call',
  'dispatch_request',
  'dispatch_take',
  'dispatch_return',
  'dispatch_transfer',
  'dispatch_close',
  'dispatch_cancel',
  'dispatch_abandon',
  'dispatch_expire',
  'status_change',
  'emergency_close',
  'area_enter',
  'area_exit',
] as const satisfies readonly ActivityType[];

export const ActivitySchema = z.object({
  id: z.number(),
  type: z.enum(ACTIVITY_TYPES),
  createdAt: z.string(),
  /** Names are kept on the activity so that it still reads after the user or channel is deleted. */
  user: z
    .object({ id: z.number().nullable(), firstName: z.string(), lastName: z.string(), display_name: z.string() })
    .nullable(),
  channel: z.object({ id: z.number().nullable(), name: z.string() }).nullable(),
  /**
   * channel_talk: how long the transmission lasted, in milliseconds; private_call: how long the call was
   * answered (absent for other types, and for a call never answered). A private_call's `user` is the caller
   * and its `channel` names the callee (its id is the call's hidden channel).
   */
  durationMs: z.number().optional(),
  /** geofence_enter, geofence_exit, area_enter, area_exit: the zone, its name kept (absent for other types). */
  geofence: z.object({ id: z.number().nullable(), name: z.string() }).optional(),
  /**
   * dispatch_* (issue 49): the request, its requester and priority, how long it had waited in the queue and (from
   * its first take) been handled at that step; `to`: a transfer's dispatcher. The activity's `user` is who made
   * the step (the member asking, cancelling, or gone; the dispatcher taking, sending back, transferring,
   * closing); `channel` is the request's.
   */
  dispatch: z
    .object({
      requestId: z.number(),
      requester: z.string(),
      priority: z.string(),
      waitedMs: z.number(),
      handledMs: z.number().optional(),
      to: z.string().optional(),
      answer: z.string().optional(),
      /** dispatch_close (issue 58): how it ended, the close note and the incident reference, when given. */
      outcome: z.string().optional(),
      closeNote: z.string().optional(),
      reference: z.string().optional(),
    })
    .optional(),
  /** status_change (issue 49): the member's new status (null: none) and who set it, if not the member. */
  status: z
    .object({
      label: z.object({ fr: z.string(), en: z.string(), de: z.string() }).nullable(),
      color: z.string().nullable(),
      by: z.string().optional(),
    })
    .optional(),
  /** emergency_close (issue 50): the alert, its outcome and how long it was open; `user` closed it. */
  emergency: z
    .object({ alertId: z.number(), outcome: z.enum(['real', 'false']), openMs: z.number(), sender: z.string() })
    .optional(),
  /** emergency (issue 60): why the SOS was raised, and who raised it for the member (a dispatcher), if not it. */
  alert: z
    .object({
      alertId: z.number(),
      reason: z.enum(['sos', 'man_down', 'lone_worker']),
      raisedBy: z.string().optional(),
    })
    .optional(),
});
export type Activity = z.output<typeof ActivitySchema>;

export const UserSocketSchema = z.object({
  userId: z.number(),
  channelId: z.number().nullable(),
  socket_id: z.string(),
});
export type UserSocket = z.output<typeof UserSocketSchema>;

export const UserPositionSchema = z.object({
  lat: z.number(),
  lng: z.number(),
  accuracy: z.number().nullable(),
  createdAt: z.string(),
});
export type UserPosition = z.output<typeof UserPositionSchema>;

export const ChannelRefSchema = z.object({ id: z.number(), name: z.string(), rtcSession: z.string() });
export type ChannelRef = z.output<typeof ChannelRefSchema>;

export const UserSchema = z.object({
  id: z.number(),
  firstName: z.string(),
  lastName: z.string(),
  identifier: z.string(),
  email: z.string(),
  pseudo: z.string(),
  display_name: z.string(),
  phone_number: z.string(),
  photo_url: z.string().nullable(),
  mapRight: z.boolean(),
  role: StoredRoleSchema,
  /** Issue 59: the talk priority the user talks with, 1 (lowest) to 9: its own, or its role's default. */
  talkPriority: z.number(),
  /** Issue 59: true when nobody set the user's own talk priority: it is the role's and follows the role. */
  talkPriorityFromRole: z.boolean(),
  createdAt: z.string(),
  /** Turned off by an administrator (issue 38): no sign-in opens a session. */
  disabled: z.boolean(),
  channels: z.array(ChannelRefSchema),
  user_sockets: z.array(UserSocketSchema),
  /** Latest first. */
  userPositions: z.array(UserPositionSchema),
  /** Latest first. */
  userActivities: z.array(ActivitySchema),
});
export type User = z.output<typeof UserSchema>;

export const ChannelSchema = z.object({
  id: z.number(),
  name: z.string(),
  rtcSession: z.string(),
  createdAt: z.string(),
  users: z.array(
    UserSchema.pick({ id: true, firstName: true, lastName: true, identifier: true, pseudo: true, display_name: true }),
  ),
  /** How many distinct members have a socket in this channel now. */
  connected: z.number(),
  /** One talker at a time (the floor, issue 14); false: an open conference where everyone may talk. */
  floorControl: z.boolean(),
  /** getMyChannels only: who is talking there now (issue 13's channel list). */
  talking: z.array(z.object({ userId: z.number(), name: z.string() })).optional(),
  /** Every transmission is recorded into the channel's voice history (issue 15); false: nothing is kept. */
  recording: z.boolean(),
  /**
   * How its voice travels (issue 26): `server`, through the media server when one is configured (JANUS_URL;
   * peer to peer otherwise), or `mesh`, always peer to peer (a small team, no server in the way).
   */
  voiceMode: z.enum(VOICE_MODES),
  /** Issue 59: a press on a busy floor waits in the channel's queue; false: it is refused (busy). */
  floorQueue: z.boolean(),
  /** Issue 59: a higher talk priority `interrupt`s the talker, or goes first in the `queue`. */
  preemption: z.enum(PREEMPTION_MODES),
  /** Issue 61: who watches its live video: `dispatch` (its dispatchers and the administrators) or every member. */
  videoAudience: z.enum(VIDEO_AUDIENCES),
  /** Issue 59: the geofence an area channel follows (who enters it with map access joins); null: none. */
  areaGeofenceId: z.number().nullable(),
  /**
   * Issue 59: a regroup's channel, made by a dispatcher for an incident (createRegroup); it leaves every list when
   * the regroup ends.
   */
  temporary: z.boolean(),
  /** Latest first; at most one entry: the latest activity of the channel. */
  userActivities: z.array(ActivitySchema),
});
export type Channel = z.output<typeof ChannelSchema>;

/**
 * New (issue 18): a channel as the console's lists show it, with the number of its members instead of their
 * list (getChannelOverviews): at 100,000 users the members of every channel are tens of MB.
 */
export const ChannelOverviewSchema = ChannelSchema.omit({ users: true, talking: true }).extend({
  usersCount: z.number(),
});
export type ChannelOverview = z.output<typeof ChannelOverviewSchema>;

export const MessageFileSchema = z.object({ path: z.string(), fileName: z.string() });
export type MessageFile = z.output<typeof MessageFileSchema>;

export const MessageSchema = z.object({
  id: z.number(),
  userId: z.number().nullable(),
  channelId: z.number(),
  textMsg: z.string(),
  createdAt: z.string(),
  file: MessageFileSchema.nullable(),
  user: z.object({ display_name: z.string() }),
});
export type Message = z.output<typeof MessageSchema>;

/** One recorded transmission of a channel's voice history (issue 15). */
export const VoiceMessageSchema = z.object({
  id: z.number(),
  channelId: z.number(),
  /** null once the talker's account is deleted (the transmission is kept, with the name it had). */
  userId: z.number().nullable(),
  display_name: z.string(),
  /** When the transmission started. */
  createdAt: z.string(),
  durationMs: z.number(),
  /** The audio (Opus in WebM or Ogg): a signed, expiring link for the reader, like a chat image's path. */
  url: z.string(),
});
export type VoiceMessage = z.output<typeof VoiceMessageSchema>;

/**
 * The user that sign-in returns (in a module of its own: the sign-in page's first load takes it without the
 * other entities' schemas).
 */
export { type SignedInUser, SignedInUserSchema } from './signed-in-user.ts';

/** Legacy (spec section 3): a registered radio or phone. */
export const DeviceSchema = z.object({
  id: z.number(),
  display_name: z.string(),
  mac_address: z.string(),
  type: z.string(),
  manufacturer: z.string(),
  product_ref: z.string(),
  createdAt: z.string(),
});
export type Device = z.output<typeof DeviceSchema>;

export const MaterialTypeSchema = z.object({ id: z.number(), name: z.string(), createdAt: z.string() });
export type MaterialType = z.output<typeof MaterialTypeSchema>;

/** Legacy call events: one per recorded talk burst. */
export const CallEventSchema = z.object({
  /** The talk burst's id, used as callId. */
  id: z.number(),
  userId: z.number().nullable(),
  channelId: z.number().nullable(),
  channelName: z.string(),
  startedAt: z.string(),
  /** null while the burst is still going on. */
  endedAt: z.string().nullable(),
});
export type CallEvent = z.output<typeof CallEventSchema>;

/** A row of the users' export (spec section 5). */
export const UserExportRowSchema = z.object({
  firstName: z.string(),
  lastName: z.string(),
  identifier: z.string(),
  pseudo: z.string(),
  mapRight: z.boolean(),
  canal: z.string(),
  /** New: the user's role, as the import's role column takes it. */
  role: StoredRoleSchema,
  /** Issue 59: the user's own talk priority, as the import's column takes it; null (a blank cell): the role's. */
  talkPriority: z.number().nullable(),
  createdAt: z.string(),
});
export type UserExportRow = z.output<typeof UserExportRowSchema>;

export interface ImportReport<Row> {
  added: Row[];
  alreadyExisting: Row[];
  notAdded: Row[];
}
/** The rows of an import, sorted: each row as it was sent, with what the server added (an id, a reason). */
const ImportedRow = z.record(z.string(), z.unknown());
export const ImportReportSchema = z.object({
  added: z.array(ImportedRow),
  alreadyExisting: z.array(ImportedRow),
  notAdded: z.array(ImportedRow),
  /** User import in mode `update` (issue 17): the existing users it updated. */
  updated: z.array(ImportedRow).optional(),
  /** User import: channels named in `canal` that do not exist (not created), and those it created. */
  unknownChannels: z.array(z.string()).optional(),
  createdChannels: z.array(z.string()).optional(),
});

export const StatisticsSchema = z.object({
  totalUsers: z.number(),
  totalChannels: z.number(),
  /** usersTrend[i] = users created between i and i+1 days ago (i = 0..9). */
  usersTrend: z.array(z.number()),
  channelsTrend: z.array(z.number()),
  /** Percent change, see docs/api.md. */
  usersChange: z.number(),
  channelsChange: z.number(),
  topChannels: z.array(
    z.object({
      id: z.number(),
      name: z.string(),
      rtcSession: z.string(),
      total: z.number(),
      connected: z.number(),
      lastActivityAt: z.string().nullable(),
    }),
  ),
});
export type Statistics = z.output<typeof StatisticsSchema>;
