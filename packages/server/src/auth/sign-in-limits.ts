/**
 * Sign-in limits, per account and per address (counters shared by instances through Redis, see
 * counter-store.ts).
 * - Per account, whatever the address: a few free failures, then each failure makes the account wait
 *   longer before its password is checked again (growing delays, capped). Never a lockout: the wait ends,
 *   and an address the account signed in from before is not held by it, so guessing from many addresses
 *   cannot keep the administrator out.
 * - Per address, whatever the login: many failures pause that address, except for the accounts that signed
 *   in from it before (an office behind one address keeps working).
 */
import { createHash } from 'node:crypto';
import { HttpError } from '../http/errors.ts';
import type { CounterStore } from './counter-store.ts';

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
export function delayAfter(failures: number, policy: SignInLimitPolicy = DEFAULT_SIGN_IN_POLICY): number {
  if (failures < policy.freeFailures) return 0;
  return Math.min(policy.maxDelayMs, policy.firstDelayMs * 2 ** (failures - policy.freeFailures));
}

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
    /** Throws a 429 when this attempt may not check a password now. */
    async check(account: string, address: string): Promise<void> {
      const key = keys(account, address);
      const [known, waitMs, addressFailures, pairFailures] = await Promise.all([
        store.remaining(key.known),
        store.remaining(key.wait),
        store.count(key.address),
        store.count(key.pair),
      ]);
      if (known > 0) {
        if (pairFailures >= policy.knownAddressMaxFailures)
          throw tooMany(await store.remaining(key.pair), 'sign_in_wait_account');
        return;
      }
      if (waitMs > 0) throw tooMany(waitMs, 'sign_in_wait_account');
      if (addressFailures >= policy.addressMaxFailures)
        throw tooMany(await store.remaining(key.address), 'sign_in_wait_address');
    },

    async failed(account: string, address: string): Promise<void> {
      const key = keys(account, address);
      const [failures] = await Promise.all([
        store.increment(key.failures, policy.accountWindowMs),
        store.increment(key.address, policy.addressWindowMs),
        store.increment(key.pair, policy.addressWindowMs),
      ]);
      const delay = delayAfter(failures, policy);
      if (delay > 0) await store.mark(key.wait, delay);
    },

    /** A correct password: the account's failures are forgotten and this address becomes known to it. */
    async succeeded(account: string, address: string): Promise<void> {
      const key = keys(account, address);
      await store.remove(key.failures, key.wait, key.pair);
      await store.mark(key.known, policy.knownAddressMs);
    },
  };
}

export type SignInLimits = ReturnType<typeof signInLimits>;
