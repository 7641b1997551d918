/** Spec section 5 rules for the login and password fields, as translation keys of the auth namespace. */
import { isEmail, LOGIN_MAX, LOGIN_MIN, PASSWORD_HINT_MAX, PASSWORD_HINT_MIN } from '@talkgroup/protocol';

export type ValidationKey =
  | 'validation.required'
  | 'validation.invalidEmail'
  | 'validation.loginTooShort'
  | 'validation.loginTooLong'
  | 'validation.passwordTooShort'
  | 'validation.passwordTooLong';

/** Login: 2 to 50 characters and a valid e-mail. Blocks the form. */
export function loginProblem(value: string): ValidationKey | undefined {
  const login = value.trim();
  if (login === '') return 'validation.required';
  if (login.length < LOGIN_MIN) return 'validation.loginTooShort';
  if (login.length > LOGIN_MAX) return 'validation.loginTooLong';
  if (!isEmail(login)) return 'validation.invalidEmail';
  return undefined;
}

/** Password: under the server's minimum or over what it takes, a hint only (spec section 5: not blocking; issue 58). */
export function passwordHint(value: string): ValidationKey | undefined {
  if (value.length > 0 && value.length < PASSWORD_HINT_MIN) return 'validation.passwordTooShort';
  if (value.length > PASSWORD_HINT_MAX) return 'validation.passwordTooLong';
  return undefined;
}

export function requiredProblem(value: string): ValidationKey | undefined {
  return value.trim() === '' ? 'validation.required' : undefined;
}
