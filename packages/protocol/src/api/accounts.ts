import { z } from 'zod';
import { call, Flag, Id, nameText, OkSchema, ok, requiredName, text } from '../call.ts';
import { UserSchema } from '../entities.ts';
import { RoleSchema } from '../roles.ts';
import { TalkPriorityInput } from '../talk-priority.ts';

// Accounts and users
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
    /** New: the account's role (an administrator's token only; absent: member; the first account: admin). */
    role: RoleSchema.optional(),
    /** Issue 59: the user's talk priority, 1 to 9 (an administrator's token only; absent or null: the role's default). */
    talkPriority: TalkPriorityInput,
  }),
);
export const Logout = call(OkSchema)('/user/api/logout', 'signedIn', z.object({ userId: Id.optional() }));
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
/**
 * An administrator turns an account off (issue 38): its sessions end at once and no sign-in opens one again, by
 * password, passkey or single sign-on, until it is turned on again. Its data, channels and history stay.
 */
export const SetUserDisabled = call(OkSchema)(
  '/user/api/setUserDisabled',
  'users.manage',
  z.object({ userId: Id, disabled: z.boolean() }),
);
export const DeleteUserTokens = call(OkSchema)('/user/api/deleteUserTokens/', 'self', z.object({ userId: Id }));
