/**
 * The HTTP contract of spec section 7: every call, its path, its body schema and its response type.
 * The server validates bodies with these schemas; the web client is typed by them.
 */
import { z } from 'zod';
import type { Activity, CallEvent, Channel, Device, MaterialType, Message, SignedInUser, User } from './entities.ts';
import { ACTIVITY_TIME_FRAMES } from './rules.ts';

/**
 * Who may make a call (docs/api.md, "Who may do what"), declared once per call. The server's route guard
 * checks the token and the role: `public` needs no token, `admin` an administrator's, every other level a
 * valid token, and the handler applies the finer rule that its name says.
 */
export const ACCESS_LEVELS = {
  public: 'anyone, no token',
  signedIn: 'any valid token',
  self: 'a member for its own account; an administrator for anyone',
  ownAccount: 'the owner of the account only, administrators included',
  reader: 'an administrator, or a member of that channel',
  author: 'an administrator for any message; a member for its own messages in its channels',
  admin: 'administrators only',
  gone: 'a legacy call no longer served: 410 for any valid token',
} as const;
export type Access = keyof typeof ACCESS_LEVELS;

export interface Call<Body extends z.ZodType, Response, A extends Access = Access> {
  path: string;
  access: A;
  body: Body;
  /** Absent: POST with a JSON body. */
  method?: 'GET';
  /** Absent: JSON. The body schema then describes the form's text fields. */
  encoding?: 'multipart/form-data';
  /** Phantom: the response type; never read at run time. */
  response?: Response;
}

function call<Response>() {
  return <A extends Access, Body extends z.ZodType>(
    path: string,
    access: A,
    body: Body,
    options: Pick<Call<Body, Response, A>, 'method' | 'encoding'> = {},
  ): Call<Body, Response, A> => ({ path, access, body, ...options });
}

/** Whether a value exported by this package is a call of the contract (the server, tests and docs walk them). */
export function isCall(value: unknown): value is Call<z.ZodType, unknown> {
  const candidate = value as Partial<Call<z.ZodType, unknown>> | null;
  return (
    typeof candidate?.path === 'string' && typeof candidate.access === 'string' && candidate.body instanceof z.ZodType
  );
}

export type BodyOf<C> = C extends Call<infer B, unknown> ? z.input<B> : never;
export type ResponseOf<C> = C extends Call<z.ZodType, infer R> ? R : never;

/** Errors keep the response shape: `{ success: false, result: "<clear sentence>" }`. */
export interface ErrorResponse {
  success: false;
  result: string;
}
export interface Ok {
  success: boolean;
  result?: string;
}

/** An id may come as a number or as a string of digits (the console keeps ids in localStorage). */
export const Id = z.union([
  z.number().int().positive(),
  z.string().regex(/^\d+$/, 'must be a positive integer').transform(Number),
]);
const text = (max = 200) => z.string().max(max);
const requiredText = (max = 200) => z.string().trim().min(1, 'must not be empty').max(max);
const Flag = z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]);
const Empty = z.object({}).passthrough();

// Accounts and users
export const Login = call<Ok & { user: SignedInUser }>()(
  '/user/api/login',
  'public',
  z.object({ user_email: requiredText(254), user_password: z.string().min(1, 'must not be empty').max(1024) }),
);
export const IsValidToken = call<{ success: boolean; user?: Omit<SignedInUser, 'authToken'> }>()(
  '/user/api/isValidToken',
  'public',
  z.object({ token: z.string().max(512).optional() }),
);
export const SignUpUser = call<Ok & { user: User }>()(
  '/user/api/signUpUser',
  'public',
  z.object({
    firstName: requiredText(100),
    lastName: requiredText(100),
    email: z.string().trim().min(1, 'must not be empty').max(254).email('Invalid email'),
    password: z.string().min(1, 'must not be empty').max(1024),
    phone_number: text(50).optional(),
    pseudo: text(100).optional(),
    mapRight: Flag.optional(),
  }),
);
export const Logout = call<Ok>()('/user/api/logout', 'signedIn', z.object({ userId: Id.optional() }));
export const GetUserById = call<Ok & { res: User }>()('/user/api/getUserById/', 'self', z.object({ userId: Id }));
export const GetAllUsers = call<Ok & { res: User[] }>()('/user/api/getAllUsers', 'admin', Empty);
export const GetListUsersToExport = call<Ok & { res: UserExportRow[] }>()(
  '/user/api/getListUsersToExport/',
  'admin',
  Empty,
);
export const UpdateUserData = call<Ok & { res: User }>()(
  '/user/api/updateUserData',
  'admin',
  z.object({
    id: Id,
    firstName: requiredText(100),
    lastName: requiredText(100),
    email: z.string().trim().max(254).email('Invalid email').optional(),
    pseudo: text(100).optional(),
    phone_number: text(50).optional(),
    /** Blank or absent keeps the current password. */
    password: z.string().max(1024).optional(),
    mapRight: Flag.optional(),
  }),
);
export const UpdatePasswordUser = call<Ok>()(
  '/user/api/updatePasswordUser',
  'self',
  z.object({ id: Id, password: z.string().min(1, 'must not be empty').max(1024) }),
);
export const VerifyPassword = call<{ success: boolean; result: boolean }>()(
  '/user/api/verifyPassword',
  'ownAccount',
  z.object({ id: Id, password: z.string().max(1024) }),
);
export const DeleteUserTokens = call<Ok>()('/user/api/deleteUserTokens/', 'self', z.object({ userId: Id }));
export const DeleteUser = call<Ok>()('/user/api/deleteUser', 'admin', z.object({ UserId: Id }));
export const UploadUserPhoto = call<Ok>()(
  '/user/api/uploadUserPhoto',
  'self',
  z.object({ userId: Id, photo_url: z.string().max(2048) }),
);

export interface UserExportRow {
  firstName: string;
  lastName: string;
  identifier: string;
  pseudo: string;
  mapRight: boolean;
  canal: string;
  createdAt: string;
}

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
export interface ImportReport<Row> {
  added: Row[];
  alreadyExisting: Row[];
  notAdded: Row[];
}
export const CreateMultipleUsers = call<Ok & { createdUsers: ImportReport<Record<string, unknown>> }>()(
  '/user/api/createMultipleUsers',
  'admin',
  z.object({ userData: z.array(UserImportRowSchema).max(20000) }),
);
export const UpdateUserChannelsByChannelName = call<Ok>()(
  '/user/api/updateUserChannelsByChannelName/',
  'admin',
  z.object({
    userIdentifier: requiredText(254),
    channelNames: z.union([z.array(z.string().max(200)).max(1000), z.string().max(20000)]),
  }),
);
export const RemoveUserChannels = call<Ok>()(
  '/user/api/removeUserChannels/',
  'admin',
  z.object({ userIdentifier: requiredText(254) }),
);

// Channels and membership
export const GetAllChannels = call<Ok & { res: Channel[] }>()('/user/api/getAllChannels', 'admin', Empty);
export const GetChannelsToExport = call<Ok & { res: Array<{ name: string; createdAt: string }> }>()(
  '/user/api/getChannelsToExport/',
  'admin',
  Empty,
);
export const GetUsersInChannel = call<Ok & { res: User[] }>()(
  '/user/api/getUsersInChannel',
  'reader',
  z.object({ channelId: Id }),
);
export const CreateChannel = call<Ok & { res: Channel }>()(
  '/user/api/createChannel',
  'admin',
  z.object({
    channelName: requiredText(200),
    /** Ignored: the server computes rtcSession from the name. */
    channelRtcSession: z.string().max(400).optional(),
    userId: Id.optional(),
  }),
);
export const UpdateChannel = call<Ok & { res: Channel }>()(
  '/user/api/updateChannel',
  'admin',
  z.object({ channelId: Id, channelName: requiredText(200), userId: Id.optional() }),
);
export const DeleteChannel = call<Ok>()(
  '/user/api/deleteChannel',
  'admin',
  z.object({ channelId: Id, userId: Id.optional() }),
);
export const ChannelImportRowSchema = z.object({ name: ImportCell }).passthrough();
export const CreateMultipleChannels = call<Ok & { channelsCreated: ImportReport<Record<string, unknown>> }>()(
  '/user/api/createMultipleChannels',
  'admin',
  z.object({ channelData: z.array(ChannelImportRowSchema).max(20000) }),
);
export const AddUserToChannel = call<Ok>()(
  '/user/api/addUserToChannel',
  'admin',
  z.object({ userId: Id, channelId: Id }),
);
export const DeleteUserFromChannel = call<Ok>()(
  '/user/api/deleteUserFromChannel',
  'admin',
  z.object({ userId: Id, channelId: Id }),
);
export const UpdateUserChannels = call<Ok>()(
  '/user/api/updateUserChannels',
  'admin',
  z.object({ userList: z.array(Id).max(100000), channelId: Id }),
);
export const UpdateChannelUsers = call<Ok>()(
  '/user/api/updateChannelUsers',
  'admin',
  z.object({ userId: Id, channelList: z.array(Id).max(100000) }),
);

// Activities
export const GetLastActivities = call<Ok & { res: Activity[] }>()(
  '/user/api/getLastActivities/',
  'admin',
  z.object({ limit: z.number().int().min(1).max(100).optional() }).passthrough(),
);
export const GetAllActivities = call<Ok & { res: { activities: Activity[]; totalRecords: number } }>()(
  '/user/api/getAllActivities/',
  'admin',
  z.object({
    start: z.coerce.number().int().min(0).default(0),
    limit: z.coerce.number().int().min(1).max(1000).default(21),
  }),
);
export const DeleteOldActivities = call<Ok & { deleted: number }>()(
  '/user/api/deleteOldActivities',
  'admin',
  z.object({ timeFrame: z.enum(ACTIVITY_TIME_FRAMES, { error: 'must be one of 1m, 2w, 1w' }) }),
);

export interface Statistics {
  totalUsers: number;
  totalChannels: number;
  /** usersTrend[i] = users created between i and i+1 days ago (i = 0..9). */
  usersTrend: number[];
  channelsTrend: number[];
  /** Percent change, see docs/api.md. */
  usersChange: number;
  channelsChange: number;
  topChannels: Array<{
    id: number;
    name: string;
    rtcSession: string;
    total: number;
    connected: number;
    lastActivityAt: string | null;
  }>;
}
export const GetStatistics = call<Ok & { res: Statistics }>()('/user/api/getStatistics', 'admin', Empty);

// Presence and voice
export const ConnectAdminToChannel = call<Ok>()(
  '/user/api/connectAdminToChannel/',
  'self',
  z.object({ userId: Id, channelId: Id, socketId: z.string().min(1).max(100) }),
);
export const UpdateUserMicState = call<Ok>()(
  '/user/api/updateUserMicState/',
  'self',
  z.object({ userId: Id, micState: Flag, channelName: requiredText(200) }),
);

// Chat
export const GetChannelMessageListForAdmin = call<Ok & { discussion: Message[]; hasMore: boolean }>()(
  '/user/api/getchannelmessagelistForAdmin',
  'reader',
  z.object({
    channelId: Id,
    /** Paging for long histories: messages with an id below this one. */
    beforeId: Id.optional(),
    limit: z.number().int().min(1).max(500).optional(),
  }),
);
export const SendMessageToChannel = call<Ok & { res: Message }>()(
  '/user/api/sendMessageToChannel',
  'reader',
  z.object({ userId: Id.optional(), channelId: Id, message: z.string().trim().min(1, 'must not be blank').max(4000) }),
);
export const DeleteMessageById = call<Ok>()('/user/api/deleteMessageById', 'author', z.object({ msgId: Id }));
/** Multipart form: image (the file), userId, channelId, textMsg. */
export const UPLOAD_FILE_PATH = '/user/api/uploadFile';
export const UploadFileFields = z.object({
  userId: Id.optional(),
  channelId: Id,
  textMsg: z.string().trim().max(4000).default(''),
});
export type UploadFileResponse = Ok & { res: Message };
export const UploadFile = call<UploadFileResponse>()(UPLOAD_FILE_PATH, 'reader', UploadFileFields, {
  encoding: 'multipart/form-data',
});

// Members' own calls (not in the spec; see docs/api.md)
export const GetMyChannels = call<Ok & { res: Channel[] }>()('/user/api/getMyChannels', 'signedIn', Empty);

// Legacy calls (spec section 7, legacy; see docs/api.md)
/** Friends and invitations are not part of this product: these answer 410 Gone. */
export const GetSentInvitation = call<ErrorResponse>()('/user/api/getSentInvitation', 'gone', Empty);
export const GetMyFriendLists = call<ErrorResponse>()('/user/api/getmyfriendlists', 'gone', Empty);
export const GetInvitationLists = call<ErrorResponse>()('/user/api/getinvitationlists', 'gone', Empty);
export const GetUserCallEvents = call<Ok & { res: CallEvent[] }>()(
  '/user/api/getUserCallEvents',
  'admin',
  z.object({ userId: Id }),
);
export const GetUserEndCallEventsByCallId = call<Ok & { res: CallEvent[] }>()(
  '/user/api/getUserEndCallEventsByCallId',
  'admin',
  z.object({ callId: Id }),
);
export const MAC_ADDRESS = /^[0-9A-Fa-f]{2}([:-]?)[0-9A-Fa-f]{2}(\1[0-9A-Fa-f]{2}){4}$/;
export const GetDeviceByMacAddress = call<Ok & { res: Device }>()(
  '/device/getDeviceByMacAddress',
  'admin',
  z.object({ macAddress: z.string().trim().regex(MAC_ADDRESS, 'must be a MAC address like 00:1A:2B:3C:4D:5E') }),
);
/** GET, no body. */
export const GET_ALL_MATERIAL_TYPES_PATH = '/device/getAllMaterialTypes/';
export type GetAllMaterialTypesResponse = Ok & { res: MaterialType[] };
export const GetAllMaterialTypes = call<GetAllMaterialTypesResponse>()(GET_ALL_MATERIAL_TYPES_PATH, 'admin', Empty, {
  method: 'GET',
});
