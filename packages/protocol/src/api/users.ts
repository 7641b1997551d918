import { z } from 'zod';
import { call, Empty, Flag, Id, nameText, OkSchema, ok, requiredName, requiredText, text } from '../call.ts';
import { ImportReportSchema, UserExportRowSchema, UserSchema } from '../entities.ts';
import { RoleSchema } from '../roles.ts';
import { USER_SORT_FIELDS } from '../rules.ts';
import { TalkPriorityInput } from '../talk-priority.ts';
import { ImportCell } from './shared.ts';

// Accounts and users
export const GetUserById = call(ok({ res: UserSchema }))('/user/api/getUserById/', 'self', z.object({ userId: Id }));
export const GetAllUsers = call(ok({ res: z.array(UserSchema) }))('/user/api/getAllUsers', 'users.manage', Empty);
/**
 * New (issue 18): one page of the users list, for organisations too large to load whole (the console pages on
 * the server past USERS_PAGED_ABOVE users). Each user has getAllUsers' fields; `search` keeps the users whose
 * first name, last name, login, pseudo or display name holds it (case and accents ignored); `totalRecords`
 * counts the users the search keeps (all of them without one).
 */
export const GetUsersPage = call(ok({ res: z.object({ users: z.array(UserSchema), totalRecords: z.number() }) }))(
  '/user/api/getUsersPage',
  'users.manage',
  z.object({
    start: z.coerce.number().int().min(0).default(0),
    limit: z.coerce.number().int().min(1).max(1000).default(25),
    search: z.string().max(200).optional(),
    sort: z.enum(USER_SORT_FIELDS).default('createdAt'),
    direction: z.enum(['asc', 'desc']).default('desc'),
    /** Issue 49: only the users with this status; null, those without one. */
    statusId: Id.nullable().optional(),
    /** Issue 58: only the users of this role. */
    role: RoleSchema.optional(),
  }),
);
/** New (issue 18): the ids of every user a search keeps (all users without one), for "select all" of a paged table. */
export const GetUserIds = call(ok({ res: z.array(z.number()) }))(
  '/user/api/getUserIds',
  'users.manage',
  z.object({
    search: z.string().max(200).optional(),
    /** Only the members of this channel. */
    channelId: Id.optional(),
    /** Issue 49: only the users with this status; null, those without one. */
    statusId: Id.nullable().optional(),
    /** Issue 58: only the users of this role. */
    role: RoleSchema.optional(),
  }),
);
export const GetListUsersToExport = call(ok({ res: z.array(UserExportRowSchema) }))(
  '/user/api/getListUsersToExport/',
  'users.manage',
  Empty,
);
export const UpdateUserData = call(ok({ res: UserSchema }))(
  '/user/api/updateUserData',
  'users.manage',
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
    /** New: the user's role (absent: unchanged). Not one's own (403), not the last administrator's (409). */
    role: RoleSchema.optional(),
    /** Issue 59: the user's talk priority, 1 to 9; null: back to the role's default; absent: unchanged. */
    talkPriority: TalkPriorityInput,
  }),
);
export const DeleteUser = call(OkSchema)(
  '/user/api/deleteUser',
  'users.manage',
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

export const UserImportRowSchema = z
  .object({
    firstName: ImportCell,
    lastName: ImportCell,
    identifier: ImportCell,
    pseudo: ImportCell,
    password: ImportCell,
    mapRight: ImportCell,
    canal: ImportCell,
    /** New: admin, dispatcher or member (blank: member). */
    role: ImportCell,
    /** Issue 59: the talk priority, 1 to 9 (blank: the role's default, unchanged for an update; "default" clears it). */
    talkPriority: ImportCell,
  })
  .passthrough();
/** The most rows one createMultipleUsers call takes. */
export const USER_IMPORT_MAX_ROWS = 20000;
/** The server's IMPORT_JOB_ABOVE by default: a user import of more rows is a job (issue 29). */
export const IMPORT_JOB_ABOVE_DEFAULT = 100;
export const IMPORT_JOB_STATES = ['queued', 'running', 'done', 'failed'] as const;
export const ImportJobStateSchema = z.enum(IMPORT_JOB_STATES);
/**
 * New (issue 29): an import of more rows than the server's IMPORT_JOB_ABOVE (100 by default) is a job. The
 * answer comes at once with `jobId`, `state`, `total` and `done`; `createdUsers` then holds only the rows the
 * checks already settled (refused, repeated, already existing), and getImportJob gives the whole answer when
 * the job is done. A smaller import answers as before, its users created.
 */
export const CreateMultipleUsers = call(
  ok({
    createdUsers: ImportReportSchema,
    jobId: z.number().optional(),
    state: ImportJobStateSchema.optional(),
    total: z.number().optional(),
    done: z.number().optional(),
  }),
)(
  '/user/api/createMultipleUsers',
  'users.manage',
  z.object({
    userData: z.array(UserImportRowSchema).max(USER_IMPORT_MAX_ROWS),
    /** New (issue 17): `update` updates the users whose login exists (a blank password keeps theirs). */
    mode: z.enum(['add', 'update']).optional(),
    /** New: create the channels named in `canal` that do not exist (else they are reported). */
    createChannels: z.boolean().optional(),
  }),
);
/**
 * New (issue 29): how an import job goes. `done` of `total` rows are handled; `result`, once the job is done (or
 * failed: what it did), holds createMultipleUsers' groups for the whole file. The same fields are at the top.
 */
const ImportJobShape = {
  jobId: z.number(),
  state: ImportJobStateSchema,
  done: z.number(),
  total: z.number(),
  result: ImportReportSchema.nullable(),
  /** Why a failed job stopped. */
  error: z.string().nullable(),
};
export const ImportJobSchema = z.object(ImportJobShape);
export const GetImportJob = call(ok({ res: ImportJobSchema, ...ImportJobShape }))(
  '/user/api/getImportJob',
  'users.manage',
  z.object({ jobId: Id }),
);
export const UpdateUserChannelsByChannelName = call(OkSchema)(
  '/user/api/updateUserChannelsByChannelName/',
  'users.manage',
  z.object({
    userIdentifier: requiredText(254),
    channelNames: z.union([z.array(z.string().max(200)).max(1000), z.string().max(20000)]),
  }),
);
export const RemoveUserChannels = call(OkSchema)(
  '/user/api/removeUserChannels/',
  'users.manage',
  z.object({ userIdentifier: requiredText(254) }),
);
