/**
 * Sign-in limits, per account and per address (counters shared by instances through Redis, see
 * counter-store.ts).
 * - Per account, whatever the address: a few free failures, then each failure makes the account wait
 *   longer before its password is checked again (growing delays, capped). Never a lockout: the wait ends,
 *   and an address the account signed in from before is not held by it, so guessing from many addresses
 *   cannot keep the administrator out.
 * - Per address, whatever the login: many failures pause that address, except for the accounts that signed
 *   in from it before (an office behind one address keeps working).
 * Each attempt is counted as a failure before its password is checked, in one atomic step, and a correct
 * password takes it back: thirty tries sent at once get the checks of thirty tries sent one by one, no more.
 */
import { createHash } from 'node:crypto';
import { HttpError } from '../http/errors.ts';
import type { CounterScript, CounterStore } from './counter-store.ts';

export interface SignInLimitPolicy {
  /** Failures of one account before delays start. */
  freeFailures: number;
  /** The first delay; each further failure doubles it. */
  firstDelayMs: number;
  maxDelayMs: number;
  /** How long an account's failures are remembered after the first one. */
  accountWindowMs: number;
  addressMaxFailures: number;
  addressWindowMs: number;
  /** Failures of one account from one of its known addresses (which the account's delays do not hold). */
  knownAddressMaxFailures: number;
  /** How long an address stays known to an account after a successful sign-in. */
  knownAddressMs: number;
}

export const DEFAULT_SIGN_IN_POLICY: SignInLimitPolicy = {
  freeFailures: 5,
  firstDelayMs: 30_000,
  maxDelayMs: 15 * 60_000,
  accountWindowMs: 24 * 3600_000,
  addressMaxFailures: 30,
  addressWindowMs: 15 * 60_000,
  knownAddressMaxFailures: 10,
  knownAddressMs: 30 * 24 * 3600_000,
};

const digest = (text: string) => createHash('sha256').update(text).digest('base64url').slice(0, 22);

function tooMany(waitMs: number, code: 'sign_in_wait_account' | 'sign_in_wait_address'): HttpError {
  return new HttpError(429, code, { seconds: Math.max(1, Math.ceil(waitMs / 1000)) });
}

/** How long an account waits after its n-th failure in a row: 0 while free, then doubling up to the cap. */
export function delayAfter(
  failures: number,
  policy: Pick<SignInLimitPolicy, 'freeFailures' | 'firstDelayMs' | 'maxDelayMs'> = DEFAULT_SIGN_IN_POLICY,
): number {
  if (failures < policy.freeFailures) return 0;
  return Math.min(policy.maxDelayMs, policy.firstDelayMs * 2 ** (failures - policy.freeFailures));
}

/** What an attempt's step answers: go on and check the password, or wait for the account or the address. */
const ALLOWED = 0;
const WAIT_ACCOUNT = 1;
const WAIT_ADDRESS = 2;

/**
 * The attempt, counted before its password is checked, in one step (counter-store.ts `run`): refused while the
 * account (or, from an address it is not known at, the address) must wait; else counted as a failure of the
 * account, the address and the pair, with the account's next delay set. A burst of tries sent at once thus
 * gets no more checks than the same tries one after the other. A correct password takes the attempt back.
 * KEYS: known, wait, address, pair, failures. ARGV: knownAddressMaxFailures, addressMaxFailures,
 * accountWindowMs, addressWindowMs, freeFailures, firstDelayMs, maxDelayMs.
 */
const ATTEMPT: CounterScript = {
  lua: `
local function left(key)
  local ms = redis.call('PTTL', key)
  if ms < 0 then return 0 end
  return ms
end
local function count(key) return tonumber(redis.call('GET', key) or '0') end
local function hit(key, window)
  local n = redis.call('INCR', key)
  if n == 1 then redis.call('PEXPIRE', key, window) end
  return n
end
if redis.call('EXISTS', KEYS[1]) == 1 then
  if count(KEYS[4]) >= tonumber(ARGV[1]) then return {${WAIT_ACCOUNT}, left(KEYS[4])} end
else
  local wait = left(KEYS[2])
  if wait > 0 then return {${WAIT_ACCOUNT}, wait} end
  if count(KEYS[3]) >= tonumber(ARGV[2]) then return {${WAIT_ADDRESS}, left(KEYS[3])} end
end
local failures = hit(KEYS[5], ARGV[3])
hit(KEYS[3], ARGV[4])
hit(KEYS[4], ARGV[4])
local free = tonumber(ARGV[5])
if failures >= free then
  local delay = math.min(tonumber(ARGV[7]), tonumber(ARGV[6]) * 2 ^ (failures - free))
  redis.call('SET', KEYS[2], '1', 'PX', math.floor(delay))
end
return {${ALLOWED}, 0}`,
  memory(counters, [known, wait, address, pair, failures], args) {
    const [knownMax, addressMax, accountWindowMs, addressWindowMs, freeFailures, firstDelayMs, maxDelayMs] = args;
    if (counters.remaining(known) > 0) {
      if (counters.count(pair) >= knownMax) return [WAIT_ACCOUNT, counters.remaining(pair)];
    } else {
      const waitMs = counters.remaining(wait);
      if (waitMs > 0) return [WAIT_ACCOUNT, waitMs];
      if (counters.count(address) >= addressMax) return [WAIT_ADDRESS, counters.remaining(address)];
    }
    const count = counters.increment(failures, accountWindowMs);
    counters.increment(address, addressWindowMs);
    counters.increment(pair, addressWindowMs);
    const delay = delayAfter(count, { freeFailures, firstDelayMs, maxDelayMs });
    if (delay > 0) counters.mark(wait, delay);
    return [ALLOWED, 0];
  },
};

/**
 * A correct password: the account's failures are forgotten, the address's count takes this attempt back, and
 * the address becomes known to the account. KEYS: failures, wait, pair, address, known. ARGV: knownAddressMs.
 */
const SUCCEEDED: CounterScript = {
  lua: `
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3])
if tonumber(redis.call('GET', KEYS[4]) or '0') > 1 then redis.call('DECR', KEYS[4]) else redis.call('DEL', KEYS[4]) end
redis.call('SET', KEYS[5], '1', 'PX', ARGV[1])
return {}`,
  memory(counters, [failures, wait, pair, address, known], [knownAddressMs]) {
    counters.remove(failures, wait, pair);
    counters.decrement(address);
    counters.mark(known, knownAddressMs);
    return [];
  },
};

export function signInLimits(store: CounterStore, policy: SignInLimitPolicy = DEFAULT_SIGN_IN_POLICY) {
  const keys = (account: string, address: string) => {
    const id = digest(account.trim().toLowerCase());
    return {
      failures: `signin:fail:${id}`,
      wait: `signin:wait:${id}`,
      known: `signin:known:${id}:${address}`,
      pair: `signin:pair:${id}:${address}`,
      address: `signin:addr:${address}`,
    };
  };

  return {
    /**
     * Before a password is checked: throws a 429 when this attempt may not check one now, else counts it as a
     * failure (a correct password then calls `succeeded`, which takes it back).
     */
    async attempt(account: string, address: string): Promise<void> {
      const key = keys(account, address);
      const [answer, waitMs] = await store.run(
        ATTEMPT,
        [key.known, key.wait, key.address, key.pair, key.failures],
        [
          policy.knownAddressMaxFailures,
          policy.addressMaxFailures,
          policy.accountWindowMs,
          policy.addressWindowMs,
          policy.freeFailures,
          policy.firstDelayMs,
          policy.maxDelayMs,
        ],
      );
      if (answer === WAIT_ACCOUNT) throw tooMany(waitMs, 'sign_in_wait_account');
      if (answer === WAIT_ADDRESS) throw tooMany(waitMs, 'sign_in_wait_address');
    },

    /** A correct password: the account's failures are forgotten and this address becomes known to it. */
    async succeeded(account: string, address: string): Promise<void> {
      const key = keys(account, address);
      await store.run(SUCCEEDED, [key.failures, key.wait, key.pair, key.address, key.known], [policy.knownAddressMs]);
    },
  };
}

export type SignInLimits = ReturnType<typeof signInLimits>;
