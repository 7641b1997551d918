/**
 * A second factor, whatever it is (issue 38): TOTP (auth/totp.ts) or a passkey that verifies its user (it counts
 * as both factors; issue 47: one that does not is a password's equal, one factor). The questions every way of
 * signing in asks are here: has this user a second factor, must its role have one (the security policy,
 * settings/store.ts), does this account need two factors at every sign-in, and what happens when one is set or
 * an administrator resets them.
 */
import type { Role } from '@talkgroup/protocol';
import type { Db } from '../db/schema.ts';
import type { EventBus } from '../events.ts';
import { type HttpError, unauthorized } from '../http/errors.ts';
import type { SettingsStore } from '../settings/store.ts';
import type { PasskeyService } from './passkeys.ts';
import type { SignInLimits } from './sign-in-limits.ts';
import type { TotpStore } from './totp.ts';

export function secondFactors(
  db: Db,
  totp: TotpStore,
  settings: SettingsStore,
  passkeys: PasskeyService,
  events: EventBus,
) {
  return {
    totp,

    /** Whether the user has a second factor: TOTP confirmed, or another one (a passkey that verifies its user). */
    async has(userId: number): Promise<boolean> {
      return (await totp.isOn(userId)) || (await this.hasOtherThanTotp(userId));
    },

    /**
     * A second factor other than TOTP: a passkey that verified its user (it counts as both factors). Without
     * PUBLIC_URL passkeys are off: none counts, so that nobody is sent to a passkey sign-in that cannot work.
     */
    async hasOtherThanTotp(userId: number): Promise<boolean> {
      return passkeys.enabled && (await passkeys.countVerified(userId)) > 0;
    },

    /** Whether the security policy requires a second factor of this role. */
    async requiredFor(role: Role | string): Promise<boolean> {
      const policy = await settings.security();
      return (policy.requireSecondFactor as string[]).includes(role);
    },

    /**
     * Whether every sign-in of this account needs two factors: its role must have a second factor, or its owner
     * turned two-step verification on (a password then needs its code). Such an account registers passkeys with
     * user verification required, and a passkey sign-in without it is refused: possession alone is one factor.
     */
    async twoFactorsRequired(userId: number, role: Role | string): Promise<boolean> {
      return (await this.requiredFor(role)) || (await totp.isOn(userId));
    },

    /**
     * A factor was just set (TOTP confirmed, a passkey that verifies its user registered) from this session: it
     * reaches everything at once if it waited for it ("setup pending"). The user's other sessions that still
     * wait end (their sockets close): whoever holds the password and waits in one is not let in by the real
     * user's enrolment. Returns how many ended.
     */
    async factorSet(userId: number, sessionId: number): Promise<number> {
      await db.updateTable('sessions').set({ second_factor_pending: 0 }).where('id', '=', sessionId).execute();
      const held = await db
        .deleteFrom('sessions')
        .where('user_id', '=', userId)
        .where('second_factor_pending', '=', 1)
        .where('id', '!=', sessionId)
        .returning('id')
        .execute();
      for (const { id } of held) events.emit('sessionsEnded', { userId, sessionId: id, reason: 'ended' });
      return held.length;
    },

    /** An administrator's reset (a lost phone): TOTP, its recovery codes and the passkeys go. */
    async reset(userId: number): Promise<void> {
      await totp.remove(userId);
      await passkeys.removeAll(userId);
    },
  };
}

export type SecondFactors = ReturnType<typeof secondFactors>;

/** The limit key of an account's second-factor codes: wrong codes wait as wrong passwords do, on their own count. */
export const codeLimitKey = (userId: number) => `#second-factor:${userId}`;

/** A code given for the account (sign-in, turning TOTP off): limited like a password, throws on a wrong one. */
export async function checkCode(
  deps: { secondFactors: SecondFactors; signInLimits: SignInLimits },
  userId: number,
  code: string,
  address: string,
  wrong: HttpError,
): Promise<'totp' | 'recovery'> {
  await deps.signInLimits.attempt(codeLimitKey(userId), address);
  const used = await deps.secondFactors.totp.use(userId, code);
  if (!used) throw wrong;
  await deps.signInLimits.succeeded(codeLimitKey(userId), address);
  return used;
}

/** What a password sign-in asks about the second factor once the password is right. */
export function secondFactorSignIn(deps: { secondFactors: SecondFactors; signInLimits: SignInLimits }) {
  return {
    /**
     * An account with TOTP needs a current code or a recovery code: 401 without one or with a wrong one. An
     * account whose only second factor is a passkey (one that verifies its user), in a role that must have one,
     * signs in with the passkey: the password alone would be one factor.
     */
    async checkAtSignIn(userId: number, role: string, otp: string | undefined, address: string): Promise<void> {
      if (!(await deps.secondFactors.totp.isOn(userId))) {
        if ((await deps.secondFactors.requiredFor(role)) && (await deps.secondFactors.hasOtherThanTotp(userId)))
          throw unauthorized('second_factor_passkey');
        return;
      }
      if (!otp) throw unauthorized('second_factor_required');
      await checkCode(deps, userId, otp, address, unauthorized('second_factor_wrong'));
    },

    /** The role must have a second factor and the user has none: the session reaches only the setup. */
    async setupRequiredAtSignIn(userId: number, role: string): Promise<boolean> {
      return (await deps.secondFactors.requiredFor(role)) && !(await deps.secondFactors.has(userId));
    },
  };
}
