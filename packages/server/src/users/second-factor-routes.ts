/**
 * Issue 38: the user's own second factor (TOTP with recovery codes), the organisation's security policy (which
 * roles must have one) and an administrator's reset of a user's second factor.
 */
import {
  ConfirmTotpSetup,
  DisableTotp,
  GetSecondFactorState,
  GetSecurityPolicy,
  ResetSecondFactor,
  SetSecurityPolicy,
  StartTotpSetup,
} from '@talkgroup/protocol';
import type { FastifyInstance } from 'fastify';
import { checkCode, codeLimitKey, type SecondFactors } from '../auth/second-factor.ts';
import type { SessionStore } from '../auth/sessions.ts';
import type { SignInLimits } from '../auth/sign-in-limits.ts';
import { badRequest, conflict, forbidden, notFound, unauthorized } from '../http/errors.ts';
import { said } from '../http/messages.ts';
import { defineRoutes } from '../http/route.ts';
import type { SettingsStore } from '../settings/store.ts';
import type { UserStore } from './store.ts';

/** What this part uses of the services (app.ts hands them over). */
export interface SecondFactorRoutesServices {
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
    const user = await users.row(auth.userId);
    if (!user) throw unauthorized('token_invalid');
    const started = await totp.start(auth.userId, user.identifier);
    if (!started) throw conflict('totp_already_on');
    return { success: true, res: started };
  });

  route(ConfirmTotpSetup, async ({ body, auth, req }) => {
    // Guessing the first code is limited like a sign-in's code.
    await signInLimits.attempt(codeLimitKey(auth.userId), req.ip);
    const result = await totp.confirm(auth.userId, body.code);
    if (result === 'not_started') throw conflict('totp_not_started');
    if (result === 'already_on') throw conflict('totp_already_on');
    if (result === 'wrong') throw badRequest('totp_code_wrong');
    await signInLimits.succeeded(codeLimitKey(auth.userId), req.ip);
    await secondFactors.factorSet(auth.userId);
    return { success: true, ...said('totp_on'), res: { recoveryCodes: result } };
  });

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

  route(ResetSecondFactor, async ({ body }) => {
    if (!(await users.row(body.userId))) throw notFound('user_not_found');
    await secondFactors.reset(body.userId);
    return { success: true, ...said('second_factor_reset') };
  });
}
