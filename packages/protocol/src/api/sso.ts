/**
 * Single sign-on through an OpenID Connect provider (issue 38). The flow itself is two browser addresses,
 * not calls: GET /auth/oidc/start sends the browser to the provider, GET /auth/oidc/callback comes back from
 * it and lands on /signin with a one-time code in the fragment (`#sso=...`), or `?sso_error=<code>`. The page
 * exchanges the code for the session with FinishOidcSignIn: no token ever travels in an address.
 */
import { z } from 'zod';
import { call, Empty, ok } from '../call.ts';
import { SignedInUserSchema } from '../entities.ts';

/** What /signin offers: the provider's button (its name) and whether the password form is shown. */
export const GetSignInOptions = call(
  z.object({
    success: z.boolean(),
    /** The single sign-on button, null when OIDC_ISSUER is unset. */
    sso: z.object({ name: z.string() }).nullable(),
    /** false with OIDC_ONLY=true: the password form is hidden (an administrator's password still signs in). */
    passwordSignIn: z.boolean(),
  }),
)('/user/api/getSignInOptions', 'public', Empty);

/** The one-time code of a finished single sign-on, for the session: answers as /user/api/login does. */
export const FinishOidcSignIn = call(ok({ user: SignedInUserSchema }))(
  '/user/api/finishOidcSignIn',
  'public',
  z.object({ code: z.string().min(1, 'must not be empty').max(200) }),
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
] as const;
export type SsoErrorCode = (typeof SSO_ERROR_CODES)[number];
