/**
 * New (issue 38): a second factor (TOTP, RFC 6238) with recovery codes, and the organisation's security policy
 * (which roles must have a second factor). A session opened by a password for a user whose role needs one and
 * who has none is "setup pending": every call but SETUP_PENDING_ALLOWED answers 403
 * `second_factor_setup_required` until a factor is set.
 */
import { z } from 'zod';
import { call, Empty, Id, OkSchema, ok } from '../call.ts';
import { RoleSchema } from '../roles.ts';

/** A 6-digit code of the authenticator app, or one of the recovery codes (spaces and dashes ignored). */
export const OneTimeCode = z.string().trim().min(1, 'must not be empty').max(40);

export const SecurityPolicySchema = z.object({
  /** The roles whose users must have a second factor (a passkey or TOTP). */
  requireSecondFactor: z.array(RoleSchema).max(10),
});
export type SecurityPolicy = z.output<typeof SecurityPolicySchema>;

export const SecondFactorStateSchema = z.object({
  /** TOTP set up and confirmed. */
  totp: z.boolean(),
  /** Recovery codes not used yet. */
  recoveryCodesLeft: z.number(),
  /** Whether the user's role must have a second factor (the security policy). */
  required: z.boolean(),
  /** This session was opened without the second factor its role needs: only the setup is reachable. */
  setupPending: z.boolean(),
});
export type SecondFactorState = z.output<typeof SecondFactorStateSchema>;

/** The caller's own second factor, for the account page. */
export const GetSecondFactorState = call(ok({ res: SecondFactorStateSchema }))(
  '/user/api/getSecondFactorState',
  'signedIn',
  Empty,
);
/** A new secret (replacing one not confirmed yet); 409 when TOTP is already on. Issuer "Talkgroup", label the login. */
export const StartTotpSetup = call(ok({ res: z.object({ secret: z.string(), otpauthUrl: z.string() }) }))(
  '/user/api/startTotpSetup',
  'signedIn',
  Empty,
);
/** A current code of the new secret turns TOTP on; the answer holds the 10 recovery codes, shown once. */
export const ConfirmTotpSetup = call(ok({ res: z.object({ recoveryCodes: z.array(z.string()) }) }))(
  '/user/api/confirmTotpSetup',
  'signedIn',
  z.object({ code: OneTimeCode }),
);
/**
 * "Confirm it's you" (issue 47): the password, or a code (a current code of the authenticator app or an unused
 * recovery code), given again opens this session's sensitive calls for 5 minutes (adding or removing a passkey,
 * turning TOTP on, changing one's own email), which otherwise answer 403 `confirm_identity`. Exactly one of the
 * two. A wrong one: 400 `identity_password_wrong` / `second_factor_wrong`, limited as sign-ins are.
 */
export const ConfirmIdentity = call(ok({ res: z.object({ confirmedUntil: z.string() }) }))(
  '/user/api/confirmIdentity',
  'signedIn',
  z
    .object({ password: z.string().min(1, 'must not be empty').max(1024).optional(), code: OneTimeCode.optional() })
    .refine((body) => (body.password === undefined) !== (body.code === undefined), {
      message: 'give either the password or a code',
      path: ['password'],
    }),
);
/** A current code or a recovery code turns TOTP off (and removes the recovery codes). */
export const DisableTotp = call(OkSchema)('/user/api/disableTotp', 'signedIn', z.object({ code: OneTimeCode }));
export const GetSecurityPolicy = call(ok({ res: SecurityPolicySchema }))(
  '/user/api/getSecurityPolicy',
  'settings.manage',
  Empty,
);
export const SetSecurityPolicy = call(ok({ res: SecurityPolicySchema }))(
  '/user/api/setSecurityPolicy',
  'settings.manage',
  SecurityPolicySchema,
);
/** An administrator removes a user's second factor (TOTP, recovery codes, passkeys): for a lost phone. */
export const ResetSecondFactor = call(OkSchema)(
  '/user/api/resetSecondFactor',
  'users.manage',
  z.object({ userId: Id }),
);

/** What a session with its second factor's setup pending may still call (all other calls: 403). */
export const SETUP_PENDING_ALLOWED: readonly string[] = [
  '/user/api/startTotpSetup',
  '/user/api/confirmTotpSetup',
  '/user/api/getSecondFactorState',
  '/user/api/isValidToken',
  '/user/api/logout',
  '/user/api/getClientConfig',
  '/user/api/startPasskeyRegistration',
  '/user/api/finishPasskeyRegistration',
  '/user/api/getPasskeys',
  '/user/api/confirmIdentity',
];
