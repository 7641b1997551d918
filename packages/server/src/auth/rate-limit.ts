/**
 * Rate limits of calls a user may repeat (chat messages, uploads), or an address (starting a passkey sign-in): a
 * number per window per user or address, counted in the shared counter store (Redis across instances). Over it,
 * a 429 that says how long to wait.
 */
import { HttpError } from '../http/errors.ts';
import type { CounterStore } from './counter-store.ts';

export interface CallLimit {
  max: number;
  windowMs: number;
  /** What the 429 says. */
  code: 'too_many_messages' | 'too_many_uploads' | 'too_many_calls' | 'too_many_passkey_sign_ins' | 'too_many_sign_ups';
}

export const chatLimit = (perMinute: number): CallLimit => ({
  max: perMinute,
  windowMs: 60_000,
  code: 'too_many_messages',
});
export const UPLOAD_LIMIT: CallLimit = { max: 10, windowMs: 60_000, code: 'too_many_uploads' };
/**
 * Voice transmissions a user may upload per minute (issue 35): each needs a floor grant of its own besides; a
 * busy talker presses less often than this, and an outbox sending what it kept offline is told when to retry.
 */
export const VOICE_UPLOAD_LIMIT: CallLimit = { max: 30, windowMs: 60_000, code: 'too_many_uploads' };
/** Private calls a user may start per minute: a ring is loud, and nobody needs more (issue 27). */
export const PRIVATE_CALL_LIMIT: CallLimit = { max: 10, windowMs: 60_000, code: 'too_many_calls' };

/**
 * Passkey sign-ins one address may start per minute (issue 47): each start writes a challenge row, and nobody is
 * known yet to count it against. As many as single sign-on's starts: a whole site behind one NAT opening the
 * sign-in page at 9 o'clock fits (the page starts one as it opens, for the login field's suggestions).
 */
export const PASSKEY_SIGN_IN_START_LIMIT: CallLimit = { max: 120, windowMs: 60_000, code: 'too_many_passkey_sign_ins' };

/**
 * Public sign-ups one address may make (issue 47): each hashes a password and writes an account. Enough for a
 * team signing up from one office in an hour; an administrator's creations are not counted.
 */
export const SIGN_UP_LIMIT: CallLimit = { max: 30, windowMs: 60 * 60_000, code: 'too_many_sign_ups' };

export function callLimiter(store: CounterStore, name: string, limit: CallLimit) {
  /** Counts one call of the user (or of the address, for a call made signed out); throws the 429 past the limit. */
  return async function take(who: number | string): Promise<void> {
    const key = `rate:${name}:${who}`;
    const count = await store.increment(key, limit.windowMs);
    if (count > limit.max) {
      const seconds = Math.max(1, Math.ceil((await store.remaining(key)) / 1000));
      throw new HttpError(429, limit.code, { seconds });
    }
  };
}

export type CallLimiter = ReturnType<typeof callLimiter>;
