import { z } from 'zod';
import { call, Empty, Flag, Id, OkSchema, ok, requiredName } from '../call.ts';
import { ChannelOverviewSchema, ChannelSchema, ImportReportSchema, UserSchema } from '../entities.ts';
import { PREEMPTION_MODES, VIDEO_AUDIENCES, VOICE_MODES } from '../rules.ts';
import { ImportCell } from './shared.ts';

// Channels and membership
export const GetAllChannels = call(ok({ res: z.array(ChannelSchema) }))(
  '/user/api/getAllChannels',
  'channels.manage',
  Empty,
);
/**
 * New (issue 18): every channel as getAllChannels gives it, but with `usersCount` instead of the list of its
 * members: what the console's channel lists and pickers need, at any size of organisation.
 */
export const GetChannelOverviews = call(ok({ res: z.array(ChannelOverviewSchema) }))(
  '/user/api/getChannelOverviews',
  'channels.manage',
  Empty,
);
export const GetChannelsToExport = call(ok({ res: z.array(z.object({ name: z.string(), createdAt: z.string() })) }))(
  '/user/api/getChannelsToExport/',
  'channels.manage',
  Empty,
);
/** Each user with `canTalk` (new): whether its membership may take the channel's floor. */
export const GetUsersInChannel = call(ok({ res: z.array(UserSchema.extend({ canTalk: z.boolean() })) }))(
  '/user/api/getUsersInChannel',
  'channel.read',
  z.object({ channelId: Id }),
);
/** New: a member's rights in a channel: `canTalk` false makes it listen-only (it hears and chats, never talks). */
export const SetChannelMemberRights = call(OkSchema)(
  '/user/api/setChannelMemberRights',
  'channels.manage',
  z.object({ channelId: Id, userId: Id, canTalk: Flag }),
);
export const CreateChannel = call(ok({ res: ChannelSchema }))(
  '/user/api/createChannel',
  'channels.manage',
  z.object({
    channelName: requiredName(200),
    /** Ignored: the server computes rtcSession from the name. */
    channelRtcSession: z.string().max(400).optional(),
    userId: Id.optional(),
    /** Absent: on (one talker at a time). */
    floorControl: z.boolean().optional(),
    /** New (issue 26): `server` (default) or `mesh` (always peer to peer). */
    voiceMode: z.enum(VOICE_MODES).optional(),
    /** Absent: on (every transmission is kept in the channel's voice history). */
    recording: z.boolean().optional(),
    /** New (issue 59): absent: on (a press on a busy floor waits in the queue). */
    floorQueue: z.boolean().optional(),
    /** New (issue 59): `interrupt` (default) or `queue`. */
    preemption: z.enum(PREEMPTION_MODES).optional(),
    /** New (issue 61): who watches its live video, `dispatch` (default) or `channel` (every member). */
    videoAudience: z.enum(VIDEO_AUDIENCES).optional(),
    /** New (issue 59): the geofence the channel follows (an area channel); absent or null: none. */
    areaGeofenceId: Id.nullable().optional(),
  }),
);
export const UpdateChannel = call(ok({ res: ChannelSchema }))(
  '/user/api/updateChannel',
  'channels.manage',
  z.object({
    channelId: Id,
    channelName: requiredName(200),
    userId: Id.optional(),
    /** Absent: unchanged. */
    floorControl: z.boolean().optional(),
    /** New (issue 26): `server` or `mesh`; absent: unchanged. */
    voiceMode: z.enum(VOICE_MODES).optional(),
    /** Absent: unchanged. */
    recording: z.boolean().optional(),
    /** New (issue 59): absent: unchanged. */
    floorQueue: z.boolean().optional(),
    /** New (issue 59): `interrupt` or `queue`; absent: unchanged. */
    preemption: z.enum(PREEMPTION_MODES).optional(),
    /** New (issue 61): `dispatch` or `channel`; absent: unchanged. */
    videoAudience: z.enum(VIDEO_AUDIENCES).optional(),
    /** New (issue 59): the geofence the channel follows; null: none any more; absent: unchanged. */
    areaGeofenceId: Id.nullable().optional(),
  }),
);
export const DeleteChannel = call(OkSchema)(
  '/user/api/deleteChannel',
  'channels.manage',
  z.object({ channelId: Id, userId: Id.optional() }),
);
export const ChannelImportRowSchema = z.object({ name: ImportCell }).passthrough();
export const CreateMultipleChannels = call(ok({ channelsCreated: ImportReportSchema }))(
  '/user/api/createMultipleChannels',
  'channels.manage',
  z.object({ channelData: z.array(ChannelImportRowSchema).max(20000) }),
);
export const AddUserToChannel = call(OkSchema)(
  '/user/api/addUserToChannel',
  'channels.manage',
  z.object({ userId: Id, channelId: Id }),
);
export const DeleteUserFromChannel = call(OkSchema)(
  '/user/api/deleteUserFromChannel',
  'channels.manage',
  z.object({ userId: Id, channelId: Id }),
);
export const UpdateUserChannels = call(OkSchema)(
  '/user/api/updateUserChannels',
  'channels.manage',
  z.object({ userList: z.array(Id).max(100000), channelId: Id }),
);
export const UpdateChannelUsers = call(OkSchema)(
  '/user/api/updateChannelUsers',
  'channels.manage',
  z.object({ userId: Id, channelList: z.array(Id).max(100000) }),
);

// Members' own calls (not in the spec; see docs/api.md)
export const GetMyChannels = call(ok({ res: z.array(ChannelSchema) }))('/user/api/getMyChannels', 'signedIn', Empty);
