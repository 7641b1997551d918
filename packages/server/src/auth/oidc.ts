/**
 * Single sign-on through an OpenID Connect provider (issue 38), with openid-client: the authorization code
 * flow with PKCE, `state` and `nonce`. What one sign-in keeps between its steps is a row of oidc_sign_ins
 * (migration 0020), found by the SHA-256 of its state, taken (deleted) once and valid 10 minutes; the state also
 * rides in an HttpOnly cookie of the browser that started, so that a callback carried to another browser (a
 * forged sign-in link) finds no match. A finished sign-in leaves a one-time code (2 minutes) that the web app
 * exchanges for its session over POST: no token travels in an address. The code is bound to the browser too
 * (issue 47): a random binding set as a cookie at the start, its SHA-256 kept with the state and then the code;
 * a code redeemed without it is refused, so a code of someone else's sign-in signs nobody in (login CSRF).
 * A signed-in session may also go through the provider to link it to its account or to confirm it is its owner
 * (`purpose`); it asks for that with an intent (a row of its own, its value in a cookie of that browser).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { SsoErrorCode } from '@talkgroup/protocol';
import { ROLES, type Role } from '@talkgroup/protocol';
import type { Configuration } from 'openid-client';
import type { OidcConfig } from '../config/config.ts';
import type { Db, OidcPurpose } from '../db/schema.ts';

/** How long a started sign-in may take at the provider. */
export const OIDC_STATE_TTL_MS = 10 * 60_000;
/** How long the web app has to exchange the code of a finished sign-in. */
export const OIDC_CODE_TTL_MS = 2 * 60_000;
/** How long a code waits for the local second factor the role needs (the person types it). */
export const OIDC_CODE_FACTOR_TTL_MS = 5 * 60_000;
/** A confirmation through the provider asks it to sign the person in again, no longer ago than this (seconds). */
const CONFIRM_MAX_AGE_S = 300;

/** A sign-in that ends on /signin?sso_error=<code>; `detail` goes to the log only. */
export class SsoFailure extends Error {
  readonly code: SsoErrorCode;
  readonly detail: unknown;
  constructor(code: SsoErrorCode, detail?: unknown) {
    super(`single sign-on failed: ${code}`);
    this.code = code;
    this.detail = detail;
  }
}

/** The claims of one sign-in, from the ID token and the UserInfo answer. */
export interface OidcClaims {
  sub: string;
  email?: string;
  emailVerified: boolean;
  givenName?: string;
  familyName?: string;
  name?: string;
  /** The values of OIDC_ROLE_CLAIM (a list, or one value). */
  groups: string[];
  /** The ID token's `amr` (how the person authenticated) and `acr`. */
  amr: string[];
  acr: string | undefined;
}

/** What a started sign-in is for, and the session that asked (link, confirm). */
export interface OidcPurposeOf {
  purpose: OidcPurpose;
  sessionId: number | null;
}

/** Whether the provider says a second factor was used: an `amr` of OIDC_MFA_AMR or an `acr` of OIDC_MFA_ACR. */
export function providerSaysMfa(
  config: Pick<OidcConfig, 'mfaAmr' | 'mfaAcr'>,
  claims: Pick<OidcClaims, 'amr' | 'acr'>,
) {
  return (
    claims.amr.some((value) => config.mfaAmr.includes(value)) ||
    (claims.acr !== undefined && config.mfaAcr.includes(claims.acr))
  );
}

/** A code of a finished sign-in, as its redemption reads it. */
export interface OidcCode {
  userId: number;
  mfa: boolean;
  /** SHA-256 of the browser binding of the sign-in that made it. */
  bindingHash: string | null;
}

export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** A fetch that failed before the provider answered: the provider is unreachable (or too slow). */
function unreachable(error: unknown): boolean {
  const seen = new Set<unknown>();
  for (let e = error; e instanceof Error && !seen.has(e); e = e.cause) {
    seen.add(e);
    if (e.name === 'AbortError' || e.name === 'TimeoutError') return true;
    if (e instanceof TypeError && /fetch failed/i.test(e.message)) return true;
    if (/ECONNREFUSED|ENOTFOUND|ETIMEDOUT|ECONNRESET|EAI_AGAIN|UND_ERR/.test(String((e as { code?: unknown }).code)))
      return true;
  }
  return false;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** A claim's values: a list of strings, or one string. */
function values(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
  return typeof value === 'string' ? [value] : [];
}

/** The role the claims give by OIDC_ROLE_MAP: the strongest of the mapped groups, member when none is mapped. */
export function roleOf(config: OidcConfig, groups: readonly string[]): Role {
  const mapped = config.roleMap.filter((entry) => groups.includes(entry.group)).map((entry) => entry.role);
  return ROLES.find((role) => mapped.includes(role)) ?? 'member';
}

/**
 * openid-client (with oauth4webapi and jose) is loaded on the first SSO sign-in (Node keeps a module imported
 * once): most servers have no SSO.
 */
const library = () => import('openid-client');

export function oidcClient(config: OidcConfig, db: Db) {
  let discovered: Promise<Configuration> | undefined;

  /** The provider's metadata, read once (again after a failure: the provider may come back). */
  function provider(): Promise<Configuration> {
    discovered ??= library()
      .then((client) =>
        client.discovery(
          new URL(config.issuer),
          config.clientId,
          config.clientSecret,
          config.clientSecret ? undefined : client.None(),
          { timeout: 10, ...(config.allowHttp ? { execute: [client.allowInsecureRequests] } : {}) },
        ),
      )
      .catch((error: unknown) => {
        discovered = undefined;
        throw new SsoFailure(unreachable(error) ? 'unreachable' : 'failed', error);
      });
    return discovered;
  }

  return {
    /**
     * A new trip through the provider: its address to send the browser to, the state for its cookie and the
     * browser binding for the other cookie (its SHA-256 goes with the state, then with the code). A confirmation
     * asks the provider to sign the person in again.
     */
    async start(intent: OidcPurposeOf = { purpose: 'signin', sessionId: null }) {
      const configuration = await provider();
      const client = await library();
      const now = Date.now();
      await db.deleteFrom('oidc_sign_ins').where('expires_at', '<=', new Date(now).toISOString()).execute();
      const state = client.randomState();
      const nonce = client.randomNonce();
      const verifier = client.randomPKCECodeVerifier();
      const binding = randomBytes(32).toString('base64url');
      await db
        .insertInto('oidc_sign_ins')
        .values({
          kind: 'state',
          key_hash: sha256(state),
          code_verifier: verifier,
          nonce,
          user_id: null,
          expires_at: new Date(now + OIDC_STATE_TTL_MS).toISOString(),
          purpose: intent.purpose,
          session_id: intent.sessionId,
          binding_hash: sha256(binding),
        })
        .execute();
      const url = client.buildAuthorizationUrl(configuration, {
        redirect_uri: config.redirectUri,
        scope: config.scopes,
        code_challenge: await client.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state,
        nonce,
        ...(intent.purpose === 'confirm' ? { prompt: 'login', max_age: String(CONFIRM_MAX_AGE_S) } : {}),
      });
      return { url: url.href, state, binding };
    },

    /** A signed-in session asks to link or confirm: the intent's value (for its cookie), good once for 10 minutes. */
    async createIntent(purpose: Exclude<OidcPurpose, 'signin'>, sessionId: number): Promise<string> {
      const intent = randomBytes(32).toString('base64url');
      await db
        .insertInto('oidc_sign_ins')
        .values({
          kind: 'intent',
          key_hash: sha256(intent),
          code_verifier: null,
          nonce: null,
          user_id: null,
          expires_at: new Date(Date.now() + OIDC_STATE_TTL_MS).toISOString(),
          purpose,
          session_id: sessionId,
        })
        .execute();
      return intent;
    },

    /** The intent of this browser's cookie for this purpose, once; undefined: none, used, expired, other purpose. */
    async takeIntent(intent: string | undefined, purpose: OidcPurpose): Promise<OidcPurposeOf | undefined> {
      if (!intent) return undefined;
      const row = await db
        .deleteFrom('oidc_sign_ins')
        .where('kind', '=', 'intent')
        .where('key_hash', '=', sha256(intent))
        .returning(['purpose', 'session_id', 'expires_at'])
        .executeTakeFirst();
      if (!row || row.purpose !== purpose || row.session_id === null || Date.parse(row.expires_at) <= Date.now())
        return undefined;
      return { purpose, sessionId: row.session_id };
    },

    /**
     * The provider's answer at the callback (its query string) checked: the state is this browser's and unused,
     * the code is exchanged with the PKCE verifier, the ID token's signature, audience, issuer and nonce hold.
     */
    async finish(
      query: URLSearchParams,
      cookieState: string | undefined,
    ): Promise<{ claims: OidcClaims; intent: OidcPurposeOf; bindingHash: string | null }> {
      const state = query.get('state');
      // The sign-in this browser started is taken whatever happens next: a state serves once.
      const row = cookieState
        ? await db
            .deleteFrom('oidc_sign_ins')
            .where('kind', '=', 'state')
            .where('key_hash', '=', sha256(cookieState))
            .returning(['code_verifier', 'nonce', 'expires_at', 'purpose', 'session_id', 'binding_hash'])
            .executeTakeFirst()
        : undefined;
      const error = query.get('error');
      if (error) throw new SsoFailure(error === 'access_denied' ? 'denied' : 'failed', query.get('error_description'));
      if (!row || state !== cookieState || Date.parse(row.expires_at) <= Date.now() || !row.code_verifier || !row.nonce)
        throw new SsoFailure('state');
      const configuration = await provider();
      const client = await library();
      const callbackUrl = new URL(config.redirectUri);
      callbackUrl.search = query.toString();
      let claims: Record<string, unknown>;
      // How the person authenticated is the ID token's word only (UserInfo may not repeat it).
      let amr: string[] = [];
      let acr: string | undefined;
      try {
        const tokens = await client.authorizationCodeGrant(configuration, callbackUrl, {
          pkceCodeVerifier: row.code_verifier,
          expectedState: state ?? '',
          expectedNonce: row.nonce,
          idTokenExpected: true,
          // A confirmation: the provider must have signed the person in just now (auth_time).
          ...(row.purpose === 'confirm' ? { maxAge: CONFIRM_MAX_AGE_S } : {}),
        });
        const idToken = tokens.claims();
        if (!idToken) throw new Error('no ID token');
        claims = { ...idToken };
        amr = values(idToken.amr);
        acr = text(idToken.acr);
        // Providers put the email, names and groups in the ID token, in UserInfo, or in both.
        if (configuration.serverMetadata().userinfo_endpoint) {
          const info = await client.fetchUserInfo(configuration, tokens.access_token, idToken.sub);
          claims = { ...idToken, ...info, sub: idToken.sub };
        }
      } catch (error) {
        throw new SsoFailure(unreachable(error) ? 'unreachable' : 'failed', error);
      }
      const sub = text(claims.sub);
      if (!sub) throw new SsoFailure('failed', 'no sub claim');
      const found: OidcClaims = {
        sub,
        email: text(claims.email)?.toLowerCase(),
        // Some providers (older Entra ID tokens, some proxies) send "true" as text.
        emailVerified: claims.email_verified === true || claims.email_verified === 'true',
        givenName: text(claims.given_name),
        familyName: text(claims.family_name),
        name: text(claims.name),
        groups: config.roleClaim ? values(claims[config.roleClaim]) : [],
        amr,
        acr,
      };
      return {
        claims: found,
        intent: { purpose: row.purpose ?? 'signin', sessionId: row.session_id },
        bindingHash: row.binding_hash,
      };
    },

    /** The one-time code of a finished sign-in, for the web app to exchange in the browser that started it. */
    async issueCode(userId: number, sign: { mfa: boolean; bindingHash: string | null }): Promise<string> {
      const code = randomBytes(32).toString('base64url');
      await db
        .insertInto('oidc_sign_ins')
        .values({
          kind: 'code',
          key_hash: sha256(code),
          code_verifier: null,
          nonce: null,
          user_id: userId,
          expires_at: new Date(Date.now() + OIDC_CODE_TTL_MS).toISOString(),
          purpose: 'signin',
          binding_hash: sign.bindingHash,
          mfa: sign.mfa ? 1 : 0,
        })
        .execute();
      return code;
    },

    /** The code's sign-in, still there (the second factor may be asked before it is taken). Undefined: unknown, expired. */
    async readCode(code: string): Promise<OidcCode | undefined> {
      const row = await db
        .selectFrom('oidc_sign_ins')
        .select(['user_id', 'expires_at', 'binding_hash', 'mfa'])
        .where('kind', '=', 'code')
        .where('key_hash', '=', sha256(code))
        .executeTakeFirst();
      if (!row || row.user_id === null || Date.parse(row.expires_at) <= Date.now()) return undefined;
      return { userId: row.user_id, mfa: row.mfa === 1, bindingHash: row.binding_hash };
    },

    /** The code waits while the person types the second factor's code. */
    async holdCode(code: string): Promise<void> {
      await db
        .updateTable('oidc_sign_ins')
        .set({ expires_at: new Date(Date.now() + OIDC_CODE_FACTOR_TTL_MS).toISOString() })
        .where('kind', '=', 'code')
        .where('key_hash', '=', sha256(code))
        .execute();
    },

    /** Takes the code: true for the one redemption that removed it (two at once: one wins). */
    async takeCode(code: string): Promise<boolean> {
      const result = await db
        .deleteFrom('oidc_sign_ins')
        .where('kind', '=', 'code')
        .where('key_hash', '=', sha256(code))
        .where('expires_at', '>', new Date().toISOString())
        .executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    },
  };
}

export type OidcClient = ReturnType<typeof oidcClient>;
