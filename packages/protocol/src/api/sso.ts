/**
 * Single sign-on through an OpenID Connect provider (issue 38). The flow itself is two browser addresses,
 * not calls: GET /auth/oidc/start sends the browser to the provider, GET /auth/oidc/callback comes back from
 * it and lands on /signin with a one-time code in the fragment (`#sso=...`), or `?sso_error=<code>`. The page
 * exchanges the code for the session with FinishOidcSignIn: no token ever travels in an address.
 */
import { z } from 'zod';
import { call, Empty, Id, OkSchema, ok } from '../call.ts';
import { SignedInUserSchema } from '../signed-in-user.ts';

/** What /signin offers: the provider's button (its name) and whether the password form is shown. */
export const GetSignInOptions = call(
  z.object({
    success: z.boolean(),
    /** The single sign-on button, null when OIDC_ISSUER is unset. */
    sso: z.object({ name: z.string() }).nullable(),
    /** false with OIDC_ONLY=true: the password form is hidden (an administrator's password still signs in). */
    passwordSignIn: z.boolean(),
    /** Passkeys are on: PUBLIC_URL is set (their relying party); off, the page offers no passkey (issue 47). */
    passkeys: z.boolean(),
  }),
)('/user/api/getSignInOptions', 'public', Empty);

/**
 * The one-time code of a finished single sign-on, for the session: answers as /user/api/login does. Only in the
 * browser that started the sign-in (a cookie set at /auth/oidc/start): elsewhere 401 `sso_code_other_browser`.
 * A role that must have a second factor, signed in by a provider that does not say one was used (OIDC_MFA_AMR,
 * OIDC_MFA_ACR), gives the local one: 401 `second_factor_required`, then the same code with `otp` (a TOTP or a
 * recovery code; the code waits 5 minutes for it).
 */
export const FinishOidcSignIn = call(
  ok({ user: SignedInUserSchema, secondFactorSetupRequired: z.boolean().optional() }),
)(
  '/user/api/finishOidcSignIn',
  'public',
  z.object({ code: z.string().min(1, 'must not be empty').max(200), otp: z.string().trim().max(40).optional() }),
);

/** Where the browser goes next (a path of this site: /auth/oidc/start?for=...). */
const ProviderTrip = ok({ res: z.object({ url: z.string() }) });

/**
 * Issue 47: links the provider to the caller's own account. Needs "confirm it's you" (403 `confirm_identity`);
 * the answer's address starts the trip through the provider in this browser (a cookie binds it), which comes back
 * to /account (`#sso_linked`, or `?sso_error=<code>`).
 */
export const StartOidcLink = call(ProviderTrip)('/user/api/startOidcLink', 'signedIn', Empty);

/** A path of this site to come back to (never another origin). */
export const ReturnPath = z
  .string()
  .max(500)
  .regex(/^\/(?![/\\])[^\s]*$/, 'must be a path of this site, such as /account');

/**
 * Issue 47: a single sign-on user confirms it is them through the provider (signed in again there); the session
 * is then confirmed for 5 minutes and the browser comes back to `returnTo` (default /account) with `#confirmed`.
 * 400 `sso_not_linked` when the account has no identity at the provider.
 */
export const StartOidcConfirm = call(ProviderTrip)(
  '/user/api/startOidcConfirm',
  'signedIn',
  z.object({ returnTo: ReturnPath.optional() }),
);

export const IdentityLinkSchema = z.object({
  id: z.number(),
  /** The provider's name (OIDC_NAME). */
  provider: z.string(),
  /** The email the provider gave at the last sign-in. */
  email: z.string().nullable(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type IdentityLink = z.output<typeof IdentityLinkSchema>;

/** The provider identities linked to an account: one's own (no userId), or a user's for administrators. */
export const GetIdentityLinks = call(ok({ res: z.array(IdentityLinkSchema) }))(
  '/user/api/getIdentityLinks',
  'signedIn',
  z.object({ userId: Id.optional() }),
);

/**
 * Removes a link: one's own (needs "confirm it's you", and a password to sign in with; refused with OIDC_ONLY),
 * or any user's for administrators (audited).
 */
export const UnlinkIdentity = call(OkSchema)('/user/api/unlinkIdentity', 'signedIn', z.object({ linkId: Id }));

export const IdentityRequestSchema = z.object({
  id: z.number(),
  provider: z.string(),
  /** What the provider said of the person. */
  email: z.string(),
  name: z.string(),
  /** The existing account whose login is that email. */
  account: z.object({ userId: z.number(), identifier: z.string(), name: z.string(), role: z.string() }),
  createdAt: z.string(),
  lastSeenAt: z.string(),
});
export type IdentityRequest = z.output<typeof IdentityRequestSchema>;

/**
 * Provider sign-ins refused because an account not linked to the provider has their email (nobody's account is
 * taken by its email): an administrator links one to that account, or dismisses it (then, for instance, renames
 * or deletes a squatted account so that the person's next sign-in makes an account of their own).
 */
export const GetIdentityRequests = call(ok({ res: z.array(IdentityRequestSchema) }))(
  '/user/api/getIdentityRequests',
  'users.manage',
  Empty,
);
export const LinkIdentityRequest = call(OkSchema)(
  '/user/api/linkIdentityRequest',
  'users.manage',
  z.object({ requestId: Id }),
);
export const DismissIdentityRequest = call(OkSchema)(
  '/user/api/dismissIdentityRequest',
  'users.manage',
  z.object({ requestId: Id }),
);

/** Why a single sign-on landed on /signin?sso_error=<code>; the page says it in the reader's language. */
export const SSO_ERROR_CODES = [
  'denied',
  'state',
  'unreachable',
  'account_deleted',
  'account_disabled',
  'no_email',
  'email_unverified',
  'already_linked',
  'too_many',
  'failed',
  // Issue 47
  'link_required',
  'account_has_link',
  'not_linked',
  'session_gone',
] as const;
export type SsoErrorCode = (typeof SSO_ERROR_CODES)[number];
