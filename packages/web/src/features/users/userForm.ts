/** The Add User and Edit User Profile form: its values and the checks of spec section 5. */
import {
  isBlank,
  isEmail,
  LOGIN_MAX,
  LOGIN_MIN,
  leftTrim,
  PASSWORD_HINT_MAX,
  PASSWORD_HINT_MIN,
  type User,
} from '@talkgroup/protocol';

export interface UserFormValues {
  firstName: string;
  lastName: string;
  login: string;
  pseudo: string;
  password: string;
  confirmPassword: string;
  mapRight: boolean;
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
    channelIds: user.channels.map((channel) => channel.id),
  };
}

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
