/**
 * Issue 38: the user's own second factor (TOTP with recovery codes), the organisation's security policy (which
 * roles must have one) and an administrator's reset of a user's second factor. Issue 47: "confirm it's you"
 * (confirmIdentity: the password or a code given again), which turning TOTP on needs within 5 minutes.
 * Issue 50: the organisation's time zone beside the policy (getTimeZone for anyone signed in, setTimeZone).
 */
import {
  ConfirmIdentity,
  ConfirmTotpSetup,
  DisableTotp,
  GetSecondFactorState,
  GetSecurityPolicy,
  GetTimeZone,
  ResetSecondFactor,
  SetSecurityPolicy,
  SetTimeZone,
  StartTotpSetup,
  type TimeZoneSetting,
} from '@talkgroup/protocol';
import type { FastifyInstance } from 'fastify';
import { CONFIRMATION_WINDOW_MS, markConfirmed, requireConfirmed } from '../auth/confirmation.ts';
import { verifyPassword } from '../auth/passwords.ts';
import { checkCode, codeLimitKey, type SecondFactors } from '../auth/second-factor.ts';
import type { SessionStore } from '../auth/sessions.ts';
import type { SignInLimits } from '../auth/sign-in-limits.ts';
import type { Db } from '../db/schema.ts';
import { badRequest, conflict, forbidden, notFound, unauthorized } from '../http/errors.ts';
import { said } from '../http/messages.ts';
import { defineRoutes } from '../http/route.ts';
import { type SettingsStore, serverTimeZone } from '../settings/store.ts';
import type { UserStore } from './store.ts';

/** What this part uses of the services (app.ts hands them over). */
export interface SecondFactorRoutesServices {
  db: Db;
  secondFactors: SecondFactors;
  sessions: SessionStore;
  settings: SettingsStore;
  signInLimits: SignInLimits;
  users: UserStore;
}

export function secondFactorRoutes(app: FastifyInstance, services: SecondFactorRoutesServices): void {
  const { users, sessions, settings, secondFactors, signInLimits } = services;
  const { totp } = secondFactors;
  const route = defineRoutes(app, sessions);

  route(GetSecondFactorState, async ({ auth }) => ({
    success: true,
    res: {
      totp: await totp.isOn(auth.userId),
      recoveryCodesLeft: await totp.recoveryCodesLeft(auth.userId),
      required: await secondFactors.requiredFor(auth.role),
      setupPending: auth.secondFactorPending === true,
    },
  }));

  route(StartTotpSetup, async ({ auth }) => {
    requireConfirmed(auth);
    const user = await users.row(auth.userId);
    if (!user) throw unauthorized('token_invalid');
    const started = await totp.start(auth.userId, user.identifier);
    if (!started) throw conflict('totp_already_on');
    return { success: true, res: started };
  });

  route(ConfirmTotpSetup, async ({ body, auth, req }) => {
    // Asked at the completion too: a setup started long ago is finished only by whoever proves it is them now.
    requireConfirmed(auth);
    // Guessing the first code is limited like a sign-in's code.
    await signInLimits.attempt(codeLimitKey(auth.userId), req.ip);
    const result = await totp.confirm(auth.userId, body.code);
    if (result === 'not_started') throw conflict('totp_not_started');
    if (result === 'already_on') throw conflict('totp_already_on');
    if (result === 'wrong') throw badRequest('totp_code_wrong');
    await signInLimits.succeeded(codeLimitKey(auth.userId), req.ip);
    // This session, if it waited for a factor, reaches everything; the user's other waiting sessions end.
    await secondFactors.factorSet(auth.userId, auth.sessionId);
    return { success: true, ...said('totp_on'), res: { recoveryCodes: result } };
  });

  /**
   * The password (counted with verifyPassword's and the current password's tries, `#verify:<id>`) or a code
   * (counted with the sign-in codes) opens this session's sensitive calls for CONFIRMATION_WINDOW_MS. A wrong one
   * is a 400, not a 401: the session itself is fine, and the page must not read it as signed out.
   */
  route(ConfirmIdentity, async ({ body, auth, req }) => {
    if (body.code !== undefined) {
      await checkCode(services, auth.userId, body.code, req.ip, badRequest('second_factor_wrong'));
    } else {
      const account = `#verify:${auth.userId}`;
      await signInLimits.attempt(account, req.ip);
      const row = await users.row(auth.userId);
      if (!row || !(await verifyPassword(body.password ?? '', row.password_hash)))
        throw badRequest('identity_password_wrong');
      await signInLimits.succeeded(account, req.ip);
    }
    await markConfirmed(services.db, auth.sessionId);
    const confirmedUntil = new Date(Date.now() + CONFIRMATION_WINDOW_MS).toISOString();
    return { success: true, ...said('identity_confirmed'), res: { confirmedUntil } };
  });

  // No confirmation asked: the code in its body is the factor given now.
  route(DisableTotp, async ({ body, auth, req }) => {
    if (!(await totp.isOn(auth.userId))) throw conflict('totp_not_on');
    // A factor the role must have stays, unless another one is left (passkeys count in `has`).
    if ((await secondFactors.requiredFor(auth.role)) && !(await secondFactors.hasOtherThanTotp(auth.userId))) {
      throw forbidden('totp_required_by_policy');
    }
    await checkCode(services, auth.userId, body.code, req.ip, badRequest('second_factor_wrong'));
    await totp.remove(auth.userId);
    return { success: true, ...said('totp_off') };
  });

  route(GetSecurityPolicy, async () => ({ success: true, res: await settings.security() }));

  route(SetSecurityPolicy, async ({ body }) => ({
    success: true,
    ...said('security_policy_saved'),
    res: await settings.setSecurity(body),
  }));

  const timeZoneSetting = async (): Promise<TimeZoneSetting> => {
    const chosen = await settings.timeZone();
    const server = serverTimeZone();
    return { timeZone: chosen ?? server, serverTimeZone: server, set: chosen !== null };
  };
  route(GetTimeZone, async () => ({ success: true, res: await timeZoneSetting() }));
  // The name is checked by the protocol's schema (a zone this runtime knows); null: back to the server's.
  route(SetTimeZone, async ({ body }) => {
    await settings.setTimeZone(body.timeZone);
    return { success: true, result: 'Time zone saved', res: await timeZoneSetting() };
  });

  route(ResetSecondFactor, async ({ body }) => {
    if (!(await users.row(body.userId))) throw notFound('user_not_found');
    await secondFactors.reset(body.userId);
    return { success: true, ...said('second_factor_reset') };
  });
}
