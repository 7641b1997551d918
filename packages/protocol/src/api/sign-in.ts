/**
 * Sign-in for organisations (issue 38): passkeys (WebAuthn) and the list of one's sessions. The WebAuthn
 * options and responses are the JSON forms of the Web Authentication API (what @simplewebauthn/browser's
 * startRegistration / startAuthentication take and give); the server checks them whole.
 */
import { z } from 'zod';
import { call, Id, OkSchema, ok, text } from '../call.ts';
import { SignedInUserSchema } from '../signed-in-user.ts';

/** PublicKeyCredentialCreationOptionsJSON / PublicKeyCredentialRequestOptionsJSON, as the server made them. */
const WebAuthnOptionsSchema = z.record(z.string(), z.unknown());

const Base64Url = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/^[A-Za-z0-9_-]*$/, 'must be base64url');

/** A credential as navigator.credentials gives it, in JSON (RegistrationResponseJSON, AuthenticationResponseJSON). */
const CredentialSchema = <Shape extends z.ZodRawShape>(response: Shape) =>
  z.object({
    id: Base64Url(1400),
    rawId: Base64Url(1400),
    type: z.literal('public-key'),
    response: z.looseObject({ clientDataJSON: Base64Url(8000), ...response }),
    clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
    authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  });
export const RegistrationCredentialSchema = CredentialSchema({
  attestationObject: Base64Url(20000),
  transports: z.array(z.string().max(30)).max(10).optional(),
});
export const AuthenticationCredentialSchema = CredentialSchema({
  authenticatorData: Base64Url(8000),
  signature: Base64Url(8000),
  userHandle: Base64Url(200).optional(),
});

export const PasskeySchema = z.object({
  id: z.number(),
  name: z.string(),
  createdAt: z.string(),
  /** Null until its first sign-in. */
  lastUsedAt: z.string().nullable(),
  /**
   * The authenticator verified the user (PIN, fingerprint, face) when it was added or at a later sign-in: only
   * such a passkey counts as both factors (issue 47).
   */
  userVerified: z.boolean(),
});
export type Passkey = z.output<typeof PasskeySchema>;

/**
 * A new passkey of one's own: the options for navigator.credentials.create (a challenge good once, 5 minutes).
 * Needs a confirmation within 5 minutes (403 `confirm_identity`, as its finish does); user verification is
 * required where the account needs two factors. Every passkey call answers 400 `passkeys_off` without PUBLIC_URL.
 */
export const StartPasskeyRegistration = call(ok({ res: WebAuthnOptionsSchema }))(
  '/user/api/startPasskeyRegistration',
  'signedIn',
  z.object({}),
);
/**
 * The authenticator's answer to those options: the passkey is kept under `name` (default: the browser's). An
 * account that needs two factors gets 400 `passkey_verification_required` for one that did not verify the user.
 */
export const FinishPasskeyRegistration = call(ok({ res: PasskeySchema }))(
  '/user/api/finishPasskeyRegistration',
  'signedIn',
  z.object({ credential: RegistrationCredentialSchema, name: text(60).optional() }),
);
export const GetPasskeys = call(ok({ res: z.array(PasskeySchema) }))('/user/api/getPasskeys', 'signedIn', z.object({}));
/** Needs a confirmation within 5 minutes (403 `confirm_identity`). */
export const DeletePasskey = call(OkSchema)('/user/api/deletePasskey', 'signedIn', z.object({ id: Id }));

/**
 * Sign-in without a login: options with no credentials listed, so the browser offers every passkey of the site.
 * Limited per address (429 `too_many_passkey_sign_ins`).
 */
export const StartPasskeySignIn = call(ok({ res: WebAuthnOptionsSchema }))(
  '/user/api/startPasskeySignIn',
  'public',
  z.object({}),
);
/**
 * Signs in as the passkey's owner: the answer of /user/api/login. A passkey counts as both factors only when the
 * authenticator verified the user: an account that needs two factors gets 401 `passkey_unverified` otherwise.
 */
export const FinishPasskeySignIn = call(ok({ user: SignedInUserSchema }))(
  '/user/api/finishPasskeySignIn',
  'public',
  z.object({ credential: AuthenticationCredentialSchema }),
);

export const SIGN_IN_METHODS = ['password', 'passkey', 'sso'] as const;
export const SessionInfoSchema = z.object({
  id: z.number(),
  method: z.enum(SIGN_IN_METHODS),
  /** Read from the user agent at sign-in ("Chrome", "Android"); empty when unknown. */
  browser: z.string(),
  system: z.string(),
  userAgent: z.string().nullable(),
  address: z.string().nullable(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  /** The session that asks. */
  current: z.boolean(),
});
export type SessionInfo = z.output<typeof SessionInfoSchema>;

/** Where a user is signed in: one's own (no userId), or a user's for administrators. Newest first. */
export const GetSessions = call(ok({ res: z.array(SessionInfoSchema) }))(
  '/user/api/getSessions',
  'signedIn',
  z.object({ userId: Id.optional() }),
);
/** Ends one session (one's own other session, or any user's for administrators): its pages learn it at once. */
export const EndSession = call(OkSchema)('/user/api/endSession', 'signedIn', z.object({ sessionId: Id }));
