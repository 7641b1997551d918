/**
 * The HTTP contract of spec section 7: every call, its path, who may make it (docs/api.md), its body schema
 * and its answer's schema. The server validates bodies and serialises answers with them; the web client is
 * typed by them.
 */
import { z } from 'zod';
import {
  call,
  Empty,
  ErrorResponseSchema,
  Flag,
  Id,
  nameText,
  OkSchema,
  ok,
  type ResponseOf,
  requiredName,
  requiredText,
  text,
} from './call.ts';
import {
  ACTIVITY_TYPES,
  ActivitySchema,
  CallEventSchema,
  ChannelOverviewSchema,
  ChannelSchema,
  DeviceSchema,
  ImportReportSchema,
  MaterialTypeSchema,
  MessageSchema,
  SignedInUserSchema,
  StatisticsSchema,
  UserExportRowSchema,
  UserSchema,
  VoiceMessageSchema,
} from './entities.ts';
import { ACTIVITY_TIME_FRAMES, IMAGE_MAX_LABEL, USER_SORT_FIELDS, VOICE_MAX_DURATION_MS } from './rules.ts';

// Accounts and users
export const Login = call(ok({ user: SignedInUserSchema }))(
  '/user/api/login',
  'public',
  z.object({ user_email: requiredText(254), user_password: z.string().min(1, 'must not be empty').max(1024) }),
);
export const IsValidToken = call(
  z.object({ success: z.boolean(), user: SignedInUserSchema.omit({ authToken: true }).optional() }),
)('/user/api/isValidToken', 'public', z.object({ token: z.string().max(512).optional() }));
export const SignUpUser = call(ok({ user: UserSchema }))(
  '/user/api/signUpUser',
  'public',
  z.object({
    firstName: requiredName(100),
    lastName: requiredName(100),
    email: z.string().trim().min(1, 'must not be empty').max(254).email('Invalid email'),
    password: z.string().min(1, 'must not be empty').max(1024),
    phone_number: text(50).optional(),
    pseudo: nameText(100).optional(),
    mapRight: Flag.optional(),
  }),
);
/** New (not in the spec): whether /signup can create an account now, so that sign-in offers it only then. */
export const GetSignUpState = call(z.object({ success: z.boolean(), open: z.boolean() }))(
  '/user/api/getSignUpState',
  'public',
  Empty,
);
export const Logout = call(OkSchema)('/user/api/logout', 'signedIn', z.object({ userId: Id.optional() }));
export const GetUserById = call(ok({ res: UserSchema }))('/user/api/getUserById/', 'self', z.object({ userId: Id }));
export const GetAllUsers = call(ok({ res: z.array(UserSchema) }))('/user/api/getAllUsers', 'admin', Empty);
/**
 * New (issue 18): one page of the users list, for organisations too large to load whole (the console pages on
 * the server past USERS_PAGED_ABOVE users). Each user has getAllUsers' fields; `search` keeps the users whose
 * first name, last name, login, pseudo or display name holds it (case and accents ignored); `totalRecords`
 * counts the users the search keeps (all of them without one).
 */
export const GetUsersPage = call(ok({ res: z.object({ users: z.array(UserSchema), totalRecords: z.number() }) }))(
  '/user/api/getUsersPage',
  'admin',
  z.object({
    start: z.coerce.number().int().min(0).default(0),
    limit: z.coerce.number().int().min(1).max(1000).default(25),
    search: z.string().max(200).optional(),
    sort: z.enum(USER_SORT_FIELDS).default('createdAt'),
    direction: z.enum(['asc', 'desc']).default('desc'),
  }),
);
/** New (issue 18): the ids of every user a search keeps (all users without one), for "select all" of a paged table. */
export const GetUserIds = call(ok({ res: z.array(z.number()) }))(
  '/user/api/getUserIds',
  'admin',
  z.object({
    search: z.string().max(200).optional(),
    /** Only the members of this channel. */
    channelId: Id.optional(),
  }),
);
export const GetListUsersToExport = call(ok({ res: z.array(UserExportRowSchema) }))(
  '/user/api/getListUsersToExport/',
  'admin',
  Empty,
);
export const UpdateUserData = call(ok({ res: UserSchema }))(
  '/user/api/updateUserData',
  'admin',
  z.object({
    id: Id,
    firstName: requiredName(100),
    lastName: requiredName(100),
    email: z.string().trim().max(254).email('Invalid email').optional(),
    pseudo: nameText(100).optional(),
    phone_number: text(50).optional(),
    /** Blank or absent keeps the current password. */
    password: z.string().max(1024).optional(),
    /** Required when an administrator changes its own password here. */
    currentPassword: z.string().max(1024).optional(),
    mapRight: Flag.optional(),
  }),
);
export const UpdatePasswordUser = call(OkSchema)(
  '/user/api/updatePasswordUser',
  'self',
  z.object({
    id: Id,
    password: z.string().min(1, 'must not be empty').max(1024),
    /** Required when one changes one's own password. */
    currentPassword: z.string().max(1024).optional(),
  }),
);
export const VerifyPassword = call(z.object({ success: z.boolean(), result: z.boolean() }))(
  '/user/api/verifyPassword',
  'ownAccount',
  z.object({ id: Id, password: z.string().max(1024) }),
);
export const DeleteUserTokens = call(OkSchema)('/user/api/deleteUserTokens/', 'self', z.object({ userId: Id }));
export const DeleteUser = call(OkSchema)(
  '/user/api/deleteUser',
  'admin',
  z.object({
    UserId: Id,
    /** Voice history: also delete the user's recorded transmissions (absent or false: kept, attributed to a deleted user). */
    deleteVoiceMessages: Flag.optional(),
  }),
);
export const UploadUserPhoto = call(OkSchema)(
  '/user/api/uploadUserPhoto',
  'self',
  z.object({ userId: Id, photo_url: z.string().max(2048) }),
);

const ImportCell = z.union([z.string().max(1024), z.number(), z.boolean(), z.null()]).optional();
export const UserImportRowSchema = z
  .object({
    firstName: ImportCell,
    lastName: ImportCell,
    identifier: ImportCell,
    pseudo: ImportCell,
    password: ImportCell,
    mapRight: ImportCell,
    canal: ImportCell,
  })
  .passthrough();
export const CreateMultipleUsers = call(ok({ createdUsers: ImportReportSchema }))(
  '/user/api/createMultipleUsers',
  'admin',
  z.object({
    userData: z.array(UserImportRowSchema).max(20000),
    /** New (issue 17): `update` updates the users whose login exists (a blank password keeps theirs). */
    mode: z.enum(['add', 'update']).optional(),
    /** New: create the channels named in `canal` that do not exist (else they are reported). */
    createChannels: z.boolean().optional(),
  }),
);
export const UpdateUserChannelsByChannelName = call(OkSchema)(
  '/user/api/updateUserChannelsByChannelName/',
  'admin',
  z.object({
    userIdentifier: requiredText(254),
    channelNames: z.union([z.array(z.string().max(200)).max(1000), z.string().max(20000)]),
  }),
);
export const RemoveUserChannels = call(OkSchema)(
  '/user/api/removeUserChannels/',
  'admin',
  z.object({ userIdentifier: requiredText(254) }),
);

// Channels and membership
export const GetAllChannels = call(ok({ res: z.array(ChannelSchema) }))('/user/api/getAllChannels', 'admin', Empty);
/**
 * New (issue 18): every channel as getAllChannels gives it, but with `usersCount` instead of the list of its
 * members: what the console's channel lists and pickers need, at any size of organisation.
 */
export const GetChannelOverviews = call(ok({ res: z.array(ChannelOverviewSchema) }))(
  '/user/api/getChannelOverviews',
  'admin',
  Empty,
);
export const GetChannelsToExport = call(ok({ res: z.array(z.object({ name: z.string(), createdAt: z.string() })) }))(
  '/user/api/getChannelsToExport/',
  'admin',
  Empty,
);
export const GetUsersInChannel = call(ok({ res: z.array(UserSchema) }))(
  '/user/api/getUsersInChannel',
  'reader',
  z.object({ channelId: Id }),
);
export const CreateChannel = call(ok({ res: ChannelSchema }))(
  '/user/api/createChannel',
  'admin',
  z.object({
    channelName: requiredName(200),
    /** Ignored: the server computes rtcSession from the name. */
    channelRtcSession: z.string().max(400).optional(),
    userId: Id.optional(),
    /** Absent: on (one talker at a time). */
    floorControl: z.boolean().optional(),
    /** Absent: on (every transmission is kept in the channel's voice history). */
    recording: z.boolean().optional(),
  }),
);
export const UpdateChannel = call(ok({ res: ChannelSchema }))(
  '/user/api/updateChannel',
  'admin',
  z.object({
    channelId: Id,
    channelName: requiredName(200),
    userId: Id.optional(),
    /** Absent: unchanged. */
    floorControl: z.boolean().optional(),
    /** Absent: unchanged. */
    recording: z.boolean().optional(),
  }),
);
export const DeleteChannel = call(OkSchema)(
  '/user/api/deleteChannel',
  'admin',
  z.object({ channelId: Id, userId: Id.optional() }),
);
export const ChannelImportRowSchema = z.object({ name: ImportCell }).passthrough();
export const CreateMultipleChannels = call(ok({ channelsCreated: ImportReportSchema }))(
  '/user/api/createMultipleChannels',
  'admin',
  z.object({ channelData: z.array(ChannelImportRowSchema).max(20000) }),
);
export const AddUserToChannel = call(OkSchema)(
  '/user/api/addUserToChannel',
  'admin',
  z.object({ userId: Id, channelId: Id }),
);
export const DeleteUserFromChannel = call(OkSchema)(
  '/user/api/deleteUserFromChannel',
  'admin',
  z.object({ userId: Id, channelId: Id }),
);
export const UpdateUserChannels = call(OkSchema)(
  '/user/api/updateUserChannels',
  'admin',
  z.object({ userList: z.array(Id).max(100000), channelId: Id }),
);
export const UpdateChannelUsers = call(OkSchema)(
  '/user/api/updateChannelUsers',
  'admin',
  z.object({ userId: Id, channelList: z.array(Id).max(100000) }),
);

// Activities
export const GetLastActivities = call(ok({ res: z.array(ActivitySchema) }))(
  '/user/api/getLastActivities/',
  'admin',
  z.object({ limit: z.number().int().min(1).max(100).optional() }).passthrough(),
);
export const GetAllActivities = call(
  ok({ res: z.object({ activities: z.array(ActivitySchema), totalRecords: z.number() }) }),
)(
  '/user/api/getAllActivities/',
  'admin',
  z.object({
    start: z.coerce.number().int().min(0).default(0),
    limit: z.coerce.number().int().min(1).max(1000).default(21),
    /** New, optional filters (issue 17): an entry of this member, of this channel, of this type. */
    userId: Id.optional(),
    channelId: Id.optional(),
    type: z.enum(ACTIVITY_TYPES).optional(),
    /** From this moment (inclusive) to that one (exclusive), ISO 8601. */
    from: z.iso.datetime({ offset: true }).optional(),
    to: z.iso.datetime({ offset: true }).optional(),
  }),
);
export const DeleteOldActivities = call(ok({ deleted: z.number() }))(
  '/user/api/deleteOldActivities',
  'admin',
  z.object({ timeFrame: z.enum(ACTIVITY_TIME_FRAMES, { error: 'must be one of 1m, 2w, 1w' }) }),
);

export const GetStatistics = call(ok({ res: StatisticsSchema }))('/user/api/getStatistics', 'admin', Empty);

// Presence and voice
export const ConnectAdminToChannel = call(OkSchema)(
  '/user/api/connectAdminToChannel/',
  'self',
  z.object({ userId: Id, channelId: Id, socketId: z.string().min(1).max(100) }),
);
export const UpdateUserMicState = call(OkSchema)(
  '/user/api/updateUserMicState/',
  'self',
  z.object({ userId: Id, micState: Flag, channelName: requiredText(200) }),
);

// Chat
export const GetChannelMessageListForAdmin = call(ok({ discussion: z.array(MessageSchema), hasMore: z.boolean() }))(
  '/user/api/getchannelmessagelistForAdmin',
  'reader',
  z.object({
    channelId: Id,
    /** Paging for long histories: messages with an id below this one. */
    beforeId: Id.optional(),
    /** Catching up after a reconnection: the messages after this one, oldest first; hasMore: newer remain. */
    afterId: z.number().int().min(0).optional(),
    limit: z.number().int().min(1).max(500).optional(),
  }),
);
export const SendMessageToChannel = call(ok({ res: MessageSchema }))(
  '/user/api/sendMessageToChannel',
  'reader',
  z.object({ userId: Id.optional(), channelId: Id, message: z.string().trim().min(1, 'must not be blank').max(4000) }),
);
export const DeleteMessageById = call(OkSchema)('/user/api/deleteMessageById', 'author', z.object({ msgId: Id }));
/** Multipart form: image (the file), userId, channelId, textMsg. */
export const UPLOAD_FILE_PATH = '/user/api/uploadFile';
export const UploadFileFields = z.object({
  userId: Id.optional(),
  channelId: Id,
  textMsg: z.string().trim().max(4000).default(''),
});
/** The form's text fields and its file: the server reads the parts itself, then checks the fields above. */
const UploadFileForm = UploadFileFields.extend({
  image: z.file().describe(`jpeg, png, bmp, gif or webp (recognised by its bytes), at most ${IMAGE_MAX_LABEL}`),
});
export const UploadFile = call(ok({ res: MessageSchema }))(UPLOAD_FILE_PATH, 'reader', UploadFileForm, {
  encoding: 'multipart/form-data',
});
export type UploadFileResponse = ResponseOf<typeof UploadFile>;
/** GET /files/<name>?uid=&exp=&sig=: a chat image; the path comes signed and expiring in a message (file.path). */
export const FileLink = {
  params: z.object({ name: z.string() }),
  querystring: z.object({
    uid: z.string().describe('the reader the link was signed for'),
    exp: z.string().describe('expiry, unix seconds'),
    sig: z.string().describe('HMAC-SHA256 of name, uid and exp'),
  }),
};

// Voice history (issue 15; see docs/api.md)
const IsoTime = z.iso
  .datetime({ offset: true, error: 'must be an ISO 8601 time, like 2026-01-31T08:00:00.000Z' })
  .transform((value) => new Date(value));
/** Multipart form: audio (the recording), channelId, startedAt, durationMs, clientId?. */
export const UPLOAD_VOICE_MESSAGE_PATH = '/user/api/uploadVoiceMessage';
export const UploadVoiceMessageFields = z.object({
  channelId: Id,
  startedAt: IsoTime,
  durationMs: z.coerce.number().int().min(1).max(VOICE_MAX_DURATION_MS),
  /** The browser's id of this transmission: an upload sent again (the offline outbox) is kept once. */
  clientId: z
    .string()
    .regex(/^[\w-]{8,64}$/, 'must be 8 to 64 letters, digits, - or _')
    .optional(),
});
const UploadVoiceMessageForm = UploadVoiceMessageFields.extend({
  audio: z.file().describe('Opus in WebM or Ogg, recognised by its bytes; at most VOICE_MAX_BYTES (2 MB by default)'),
});
export const UploadVoiceMessage = call(ok({ res: VoiceMessageSchema }))(
  UPLOAD_VOICE_MESSAGE_PATH,
  'reader',
  UploadVoiceMessageForm,
  { encoding: 'multipart/form-data' },
);
export type UploadVoiceMessageResponse = ResponseOf<typeof UploadVoiceMessage>;
export const GetChannelVoiceMessages = call(ok({ res: z.array(VoiceMessageSchema), hasMore: z.boolean() }))(
  '/user/api/getChannelVoiceMessages',
  'reader',
  z.object({
    channelId: Id,
    /** Paging, newest first: the transmissions older than this one. */
    beforeId: Id.optional(),
    limit: z.number().int().min(1).max(200).optional(),
  }),
);
export const DeleteVoiceMessage = call(OkSchema)('/user/api/deleteVoiceMessage', 'admin', z.object({ id: Id }));
/** POST, JSON body; answers a zip (audio files and index.csv), streamed. Not a JSON call: documented apart. */
export const VOICE_EXPORT_PATH = '/user/api/exportVoiceMessages';
export const VoiceExport = {
  path: VOICE_EXPORT_PATH,
  access: 'admin' as const,
  body: z.object({ channelId: Id, from: IsoTime, to: IsoTime }),
};

// Members' own calls (not in the spec; see docs/api.md)
export const GetMyChannels = call(ok({ res: z.array(ChannelSchema) }))('/user/api/getMyChannels', 'signedIn', Empty);

// Legacy calls (spec section 7, legacy; see docs/api.md)
/** Friends and invitations are not part of this product: these answer 410 Gone. */
export const GetSentInvitation = call(ErrorResponseSchema)('/user/api/getSentInvitation', 'gone', Empty);
export const GetMyFriendLists = call(ErrorResponseSchema)('/user/api/getmyfriendlists', 'gone', Empty);
export const GetInvitationLists = call(ErrorResponseSchema)('/user/api/getinvitationlists', 'gone', Empty);
export const GetUserCallEvents = call(ok({ res: z.array(CallEventSchema) }))(
  '/user/api/getUserCallEvents',
  'admin',
  z.object({ userId: Id }),
);
export const GetUserEndCallEventsByCallId = call(ok({ res: z.array(CallEventSchema) }))(
  '/user/api/getUserEndCallEventsByCallId',
  'admin',
  z.object({ callId: Id }),
);
export const MAC_ADDRESS = /^[0-9A-Fa-f]{2}([:-]?)[0-9A-Fa-f]{2}(\1[0-9A-Fa-f]{2}){4}$/;
export const GetDeviceByMacAddress = call(ok({ res: DeviceSchema }))(
  '/device/getDeviceByMacAddress',
  'admin',
  z.object({ macAddress: z.string().trim().regex(MAC_ADDRESS, 'must be a MAC address like 00:1A:2B:3C:4D:5E') }),
);
/** GET, no body. */
export const GET_ALL_MATERIAL_TYPES_PATH = '/device/getAllMaterialTypes/';
export const GetAllMaterialTypes = call(ok({ res: z.array(MaterialTypeSchema) }))(
  GET_ALL_MATERIAL_TYPES_PATH,
  'admin',
  Empty,
  {
    method: 'GET',
  },
);
export type GetAllMaterialTypesResponse = ResponseOf<typeof GetAllMaterialTypes>;
