/**
 * Rate limits of calls a user may repeat (chat messages, uploads): a number per window per user, counted in
 * the shared counter store (Redis across instances). Over it, a 429 that says how long to wait.
 */
import { HttpError } from '../http/errors.ts';
import type { CounterStore } from './counter-store.ts';

export interface CallLimit {
  max: number;
  windowMs: number;
  /** What the 429 says. */
  code: 'too_many_messages' | 'too_many_uploads' | 'too_many_calls';
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

export function callLimiter(store: CounterStore, name: string, limit: CallLimit) {
  /** Counts one call of the user; throws the 429 when it is one too many. */
  return async function take(userId: number): Promise<void> {
    const key = `rate:${name}:${userId}`;
    const count = await store.increment(key, limit.windowMs);
    if (count > limit.max) {
      const seconds = Math.max(1, Math.ceil((await store.remaining(key)) / 1000));
      throw new HttpError(429, limit.code, { seconds });
    }
  };
}

export type CallLimiter = ReturnType<typeof callLimiter>;
