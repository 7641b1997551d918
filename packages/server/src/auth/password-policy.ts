/**
 * The rule for new passwords (never applied to a sign-in): at least PASSWORD_MIN_LENGTH characters (8 by
 * default; the longest is the protocol's 1024), not one of the most common passwords (common-passwords.txt)
 * and not one character repeated ("        "). Broken, it is a 400 naming the rule.
 */
import { readFileSync } from 'node:fs';
import { badRequest, type HttpError } from '../http/errors.ts';

const COMMON = new Set(
  readFileSync(new URL('./common-passwords.txt', import.meta.url), 'utf8')
    .split('\n')
    .map((line) => line.trim().toLowerCase())
    .filter((line) => line !== '' && !line.startsWith('#')),
);

export function passwordPolicy(minLength: number) {
  /** The broken rule as the 400 to answer, or undefined for an acceptable password. */
  function problem(password: string): HttpError | undefined {
    if ([...password].length < minLength) return badRequest('password_too_short', { min: minLength });
    if (COMMON.has(password.trim().toLowerCase()) || /^(.)\1*$/su.test(password))
      return badRequest('password_too_common');
    return undefined;
  }
  return {
    minLength,
    problem,
    /** Throws the 400 when the new password breaks the rule. */
    check(password: string): void {
      const error = problem(password);
      if (error) throw error;
    },
  };
}

export type PasswordPolicy = ReturnType<typeof passwordPolicy>;
