/**
 * Rate limits of calls a user may repeat (chat messages, uploads), or an address (starting a passkey sign-in): a
 * number per window per user or address, counted in the shared counter store (Redis across instances). Over it,
 * a 429 that says how long to wait.
 */
import { HttpError } from '../http/errors.ts';
import type { CounterScript, CounterStore } from './counter-store.ts';

export interface CallLimit {
  max: number;
  windowMs: number;
  /** What the 429 says. */
  code:
    | 'too_many_messages'
    | 'too_many_uploads'
    | 'too_many_calls'
    | 'too_many_passkey_sign_ins'
    | 'too_many_sign_ups'
    | 'too_many_dispatch_requests'
    | 'too_many_dispatch_cancels'
    | 'too_many_status_changes'
    | 'too_many_video_requests'
    | 'too_many_video_starts';
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

/**
 * A member's calls that reach every dispatcher of its channels (issue 57): each writes an activity and pushes to
 * each desk, so a loop of them would flood the dispatchers. Counted over a sliding minute (slidingCallLimiter).
 * SOS is never among them: sendEmergencyAlert keeps its own rule, one alert per 30 s.
 */
export const DISPATCH_REQUEST_LIMIT: CallLimit = { max: 10, windowMs: 60_000, code: 'too_many_dispatch_requests' };
export const DISPATCH_CANCEL_LIMIT: CallLimit = { max: 10, windowMs: 60_000, code: 'too_many_dispatch_cancels' };
export const STATUS_CHANGE_LIMIT: CallLimit = { max: 20, windowMs: 60_000, code: 'too_many_status_changes' };

/**
 * Live video (issue 69): a dispatcher's requests for members' videos, a user's starts of a stream (over a sliding
 * minute), and a user's uploads of recordings (VIDEO_UPLOADS_PER_HOUR, an hour from the first).
 */
export const VIDEO_REQUEST_LIMIT: CallLimit = { max: 10, windowMs: 60_000, code: 'too_many_video_requests' };
export const VIDEO_START_LIMIT: CallLimit = { max: 10, windowMs: 60_000, code: 'too_many_video_starts' };
export const videoUploadLimit = (perHour: number): CallLimit => ({
  max: perHour,
  windowMs: 3_600_000,
  code: 'too_many_uploads',
});

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

/**
 * One call in a sliding window, in one step (counter-store.ts `run`): a slot per allowed call, each a mark that
 * lasts the window from the call that took it. A free slot is taken; with none, the answer is how long until
 * the oldest call leaves the window. Unlike callLimiter's window, which starts at its first call and frees every
 * call at once when it ends, a burst at a window's end and another at the next one's start cannot both pass.
 * KEYS: the slots. ARGV: windowMs. Answers [1, 0] when taken, [0, msUntilFree] when not.
 */
const TAKE_SLOT: CounterScript = {
  lua: `
local soonest = -1
for _, key in ipairs(KEYS) do
  local left = redis.call('PTTL', key)
  if left <= 0 then
    redis.call('SET', key, '1', 'PX', ARGV[1])
    return {1, 0}
  end
  if soonest < 0 or left < soonest then soonest = left end
end
return {0, soonest}`,
  memory(counters, slots, [windowMs = 0]) {
    let soonest = Number.POSITIVE_INFINITY;
    for (const slot of slots) {
      const left = counters.remaining(slot);
      if (left <= 0) {
        counters.mark(slot, windowMs);
        return [1, 0];
      }
      soonest = Math.min(soonest, left);
    }
    return [0, soonest];
  },
};

/**
 * At most `limit.max` calls in any `limit.windowMs` per user: counts the call (refused ones are not counted)
 * or throws the 429 with `seconds` until one more is allowed. Shared by every instance through Redis.
 */
export function slidingCallLimiter(store: CounterStore, name: string, limit: CallLimit) {
  return async function take(who: number | string): Promise<void> {
    const slots = Array.from({ length: limit.max }, (_, index) => `rate:${name}:${who}:${index}`);
    const [taken = 0, waitMs = 0] = await store.run(TAKE_SLOT, slots, [limit.windowMs]);
    if (taken !== 1) throw new HttpError(429, limit.code, { seconds: Math.max(1, Math.ceil(waitMs / 1000)) });
  };
}

/** Live video's limits (issue 69), counted in the shared counter store. */
export function videoLimiters(store: CounterStore, uploadsPerHour: number) {
  return {
    requests: slidingCallLimiter(store, 'video-request', VIDEO_REQUEST_LIMIT),
    starts: slidingCallLimiter(store, 'video-start', VIDEO_START_LIMIT),
    uploads: callLimiter(store, 'video-upload', videoUploadLimit(uploadsPerHour)),
  };
}

export type VideoLimiters = ReturnType<typeof videoLimiters>;
