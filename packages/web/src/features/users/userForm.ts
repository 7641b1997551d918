/**
 * The Add User and Edit User Profile form: its values, the checks of spec section 5, and its zod schemas, made of
 * the protocol's signUpUser and updateUserData body schemas (the server checks the same fields the same way).
 */
import {
  isBlank,
  isEmail,
  knownRole,
  LOGIN_MAX,
  LOGIN_MIN,
  leftTrim,
  PASSWORD_HINT_MAX,
  PASSWORD_HINT_MIN,
  type Role,
  RoleSchema,
  SignUpUser,
  TalkPrioritySchema,
  UpdateUserData,
  type User,
} from '@talkgroup/protocol';
import { z } from 'zod';

export interface UserFormValues {
  firstName: string;
  lastName: string;
  login: string;
  pseudo: string;
  password: string;
  confirmPassword: string;
  mapRight: boolean;
  /** What the user may do (protocol's roles.ts): member by default. */
  role: Role;
  /** Issue 59: 1 to 9, or null for the role's default (which then follows the role). */
  talkPriority: number | null;
  channelIds: number[];
}

export const EMPTY_USER_FORM: UserFormValues = {
  firstName: '',
  lastName: '',
  login: '',
  pseudo: '',
  password: '',
  confirmPassword: '',
  mapRight: false,
  role: 'member',
  talkPriority: null,
  channelIds: [],
};

export function formOfUser(user: User): UserFormValues {
  return {
    firstName: user.firstName,
    lastName: user.lastName,
    login: user.identifier,
    pseudo: user.pseudo,
    password: '',
    confirmPassword: '',
    mapRight: user.mapRight,
    role: knownRole(user.role) ?? 'member',
    talkPriority: user.talkPriorityFromRole ? null : user.talkPriority,
    channelIds: user.channels.map((channel) => channel.id),
  };
}

/** The texts spec section 5 left-trims before sending. */
export const TRIMMED_FIELDS = ['firstName', 'lastName', 'login', 'pseudo', 'password', 'confirmPassword'] as const;

/** Spec section 5: texts are left-trimmed before sending (first name, last name, login, pseudo, password). */
export function leftTrimmed(values: UserFormValues): UserFormValues {
  return {
    ...values,
    firstName: leftTrim(values.firstName),
    lastName: leftTrim(values.lastName),
    login: leftTrim(values.login),
    pseudo: leftTrim(values.pseudo),
    password: leftTrim(values.password),
    confirmPassword: leftTrim(values.confirmPassword),
  };
}

export type LoginProblem = 'invalidEmail' | 'loginTooShort' | 'loginTooLong';
export type PasswordHint = 'passwordTooShort' | 'passwordTooLong';

export function loginProblem(login: string): LoginProblem | undefined {
  const value = login.trim();
  if (value === '') return undefined;
  if (value.length < LOGIN_MIN) return 'loginTooShort';
  if (value.length > LOGIN_MAX) return 'loginTooLong';
  if (!isEmail(value)) return 'invalidEmail';
  return undefined;
}

/** Shown, never blocking (spec section 5). */
export function passwordHint(password: string): PasswordHint | undefined {
  if (password === '') return undefined;
  if (password.length < PASSWORD_HINT_MIN) return 'passwordTooShort';
  if (password.length > PASSWORD_HINT_MAX) return 'passwordTooLong';
  return undefined;
}

export function passwordsDiffer(values: UserFormValues): boolean {
  return values.password !== values.confirmPassword;
}

/** Add User: first name, last name, login and password must be non-empty after whitespace removal. */
export function hasBlankRequired(values: UserFormValues, mode: 'add' | 'edit'): boolean {
  const required =
    mode === 'add'
      ? [values.firstName, values.lastName, values.login, values.password]
      : [values.firstName, values.lastName];
  return required.some(isBlank);
}

const signUp = SignUpUser.body.shape;
const update = UpdateUserData.body.shape;
const choices = {
  confirmPassword: z.string(),
  mapRight: z.boolean(),
  role: RoleSchema,
  talkPriority: TalkPrioritySchema.nullable(),
  channelIds: z.array(z.number()),
};

/** Add User: signUpUser's fields (login = email) plus the spec's login length rule. */
export const addUserSchema = z
  .object({
    firstName: signUp.firstName,
    lastName: signUp.lastName,
    login: signUp.email.refine((login) => loginProblem(login) === undefined, 'login'),
    pseudo: signUp.pseudo.unwrap(),
    password: signUp.password,
    ...choices,
  })
  .refine((values) => !passwordsDiffer(values), { path: ['confirmPassword'], message: 'mismatch' });

/** Edit User Profile: updateUserData's fields; the login is read-only and a blank password keeps the current one. */
export const editUserSchema = z
  .object({
    firstName: update.firstName,
    lastName: update.lastName,
    login: z.string(),
    pseudo: update.pseudo.unwrap(),
    password: update.password.unwrap(),
    ...choices,
  })
  .refine((values) => !passwordsDiffer(values), { path: ['confirmPassword'], message: 'mismatch' });

/**
 * The dialog's one message for a refused form, in the order of spec section 8: blank required fields, then
 * different passwords, then the login's problem.
 */
export function refusalOf(values: UserFormValues, mode: 'add' | 'edit'): string {
  if (hasBlankRequired(values, mode)) return 'validation.checkFields';
  if (passwordsDiffer(values)) return 'validation.mismatch';
  const login = mode === 'add' ? loginProblem(values.login) : undefined;
  return login ? `validation.${login}` : 'validation.checkFields';
}
