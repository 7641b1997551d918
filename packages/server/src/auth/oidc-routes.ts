/**
 * Single sign-on's addresses and calls (issues 38 and 47; docs/api.md, "Single sign-on"):
 * - GET /auth/oidc/start: to the provider, with a new state (its cookie), PKCE challenge and browser binding (a
 *   cookie only finishOidcSignIn reads). `?for=link` / `?for=confirm`: the trip a signed-in session asked for
 *   (startOidcLink, startOidcConfirm), found by its intent cookie.
 * - GET /auth/oidc/callback: back from it. Signing in lands on /signin#sso=<code> or /signin?sso_error=<code>;
 *   a link on /account#sso_linked, a confirmation on its return path with #confirmed (errors: ?sso_error=).
 * - POST /user/api/finishOidcSignIn { code, otp? }: the code for the session, in the browser that started the
 *   sign-in only, answered as /user/api/login is (the local second factor when the role needs one and the
 *   provider does not say one was used).
 * - POST /user/api/startOidcLink, /user/api/startOidcConfirm: the trips of a signed-in session.
 * - POST /user/api/getSignInOptions: what /signin offers.
 * Which account an identity opens is auth/oidc-accounts.ts.
 */
import { FinishOidcSignIn, GetSignInOptions, ReturnPath, StartOidcConfirm, StartOidcLink } from '@talkgroup/protocol';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ActivityStore } from '../activities/store.ts';
import type { Config, OidcConfig } from '../config/config.ts';
import type { Db } from '../db/schema.ts';
import { badRequest, conflict, forbidden, unauthorized } from '../http/errors.ts';
import { said } from '../http/messages.ts';
import { defineRoutes } from '../http/route.ts';
import { requireConfirmed } from './confirmation.ts';
import type { CounterStore } from './counter-store.ts';
import {
  OIDC_STATE_TTL_MS,
  type OidcClient,
  type OidcPurposeOf,
  oidcClient,
  providerSaysMfa,
  SsoFailure,
  sha256,
} from './oidc.ts';
import { type OidcAccountServices, type OidcAccounts, oidcAccounts } from './oidc-accounts.ts';
import { checkCode, type SecondFactors } from './second-factor.ts';
import { type SessionStore, sessionUserOf } from './sessions.ts';
import type { SignInLimits } from './sign-in-limits.ts';

/** What this part uses of the services (app.ts hands them over). */
export interface OidcRoutesServices extends OidcAccountServices {
  activities: ActivityStore;
  config: Config;
  counters: CounterStore;
  db: Db;
  secondFactors: SecondFactors;
  sessions: SessionStore;
  signInLimits: SignInLimits;
}

const STATE_COOKIE = 'tg_oidc_state';
const INTENT_COOKIE = 'tg_oidc_intent';
const RETURN_COOKIE = 'tg_oidc_return';
const BINDING_COOKIE = 'tg_oidc_browser';
const COOKIE_PATH = '/auth/oidc';
const FINISH_PATH = FinishOidcSignIn.path;
/** Sign-ins one address may start per minute (a whole site behind one NAT starting at 9 o'clock fits). */
const SSO_STARTS_PER_MINUTE = 120;

function cookieOf(req: FastifyRequest, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return decodeURIComponent(part.slice(at + 1).trim());
  }
  return undefined;
}

/** A cookie of this flow: HttpOnly, SameSite=Lax (the provider's redirect back is a top-level GET), Secure on https. */
function cookieFor(config: Config) {
  const secure = config.publicUrl?.startsWith('https:') ? '; Secure' : '';
  return (name: string, value: string, path: string, maxAgeSeconds: number) =>
    `${name}=${encodeURIComponent(value)}; Path=${path}; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Lax${secure}`;
}

/** Where a trip's failure lands: on /signin for a sign-in, on the page that asked for a link or a confirmation. */
function landingOf(purpose: OidcPurposeOf['purpose'] | undefined, returnTo: string) {
  return purpose === 'link' ? '/account' : purpose === 'confirm' ? returnTo : '/signin';
}

export function oidcRoutes(app: FastifyInstance, services: OidcRoutesServices): void {
  const { config, sessions } = services;
  const route = defineRoutes(app, sessions);
  const oidc = config.oidc;
  const provider = oidc ? oidcClient(oidc, services.db) : undefined;
  const accounts = oidc ? oidcAccounts(oidc, services) : undefined;
  const cookie = cookieFor(config);

  route(GetSignInOptions, async () => ({
    success: true,
    sso: oidc ? { name: oidc.name } : null,
    passwordSignIn: !oidc?.only,
    // Issue 47: passkeys only with PUBLIC_URL (their relying party); off, the page offers none.
    passkeys: config.publicUrl !== undefined,
  }));

  finishRoute(app, services, provider);

  /** The provider of a signed-in session's trip (400 without one). */
  const configured = () => {
    if (!oidc || !provider || !accounts) throw badRequest('sso_off');
    return { oidc, provider, accounts };
  };

  route(StartOidcLink, async ({ auth, reply }) => {
    const { provider, accounts } = configured();
    // Linking opens the account to the provider's identity: its owner proves it is them first.
    requireConfirmed(auth);
    if (await accounts.linkedSubject(auth.userId)) throw conflict('sso_link_exists');
    const intent = await provider.createIntent('link', auth.sessionId);
    reply.header('set-cookie', cookie(INTENT_COOKIE, intent, COOKIE_PATH, OIDC_STATE_TTL_MS / 1000));
    return { success: true, res: { url: `${COOKIE_PATH}/start?for=link` } };
  });

  route(StartOidcConfirm, async ({ auth, body, reply }) => {
    const { provider, accounts } = configured();
    if (!(await accounts.linkedSubject(auth.userId))) throw badRequest('sso_not_linked');
    const intent = await provider.createIntent('confirm', auth.sessionId);
    const maxAge = OIDC_STATE_TTL_MS / 1000;
    reply.header('set-cookie', [
      cookie(INTENT_COOKIE, intent, COOKIE_PATH, maxAge),
      cookie(RETURN_COOKIE, body.returnTo ?? '/account', COOKIE_PATH, maxAge),
    ]);
    return { success: true, res: { url: `${COOKIE_PATH}/start?for=confirm` } };
  });

  if (!oidc || !provider || !accounts) return;
  browserRoutes(app, { services, oidc, provider, accounts, cookie });
}

/** GET /auth/oidc/start and /auth/oidc/callback: the browser's trip to the provider and back. */
function browserRoutes(
  app: FastifyInstance,
  context: {
    services: OidcRoutesServices;
    oidc: OidcConfig;
    provider: OidcClient;
    accounts: OidcAccounts;
    cookie: ReturnType<typeof cookieFor>;
  },
) {
  const { services, oidc, provider, accounts, cookie } = context;
  const cleared = [
    cookie(STATE_COOKIE, '', COOKIE_PATH, 0),
    cookie(INTENT_COOKIE, '', COOKIE_PATH, 0),
    cookie(RETURN_COOKIE, '', COOKIE_PATH, 0),
  ];

  /** The return path of a confirmation, checked again (it came back in a cookie). */
  const returnPathOf = (req: FastifyRequest) => {
    const parsed = ReturnPath.safeParse(cookieOf(req, RETURN_COOKIE));
    return parsed.success ? parsed.data : '/account';
  };

  function failed(req: FastifyRequest, reply: FastifyReply, failure: unknown, purpose?: OidcPurposeOf['purpose']) {
    const code = failure instanceof SsoFailure ? failure.code : 'failed';
    const detail = failure instanceof SsoFailure ? failure.detail : failure;
    req.log.warn({ err: detail instanceof Error ? detail : undefined, detail: String(detail ?? '') }, `sso: ${code}`);
    const landing = new URL(landingOf(purpose, returnPathOf(req)), 'http://here');
    landing.searchParams.set('sso_error', code);
    return reply
      .header('set-cookie', cleared)
      .header('cache-control', 'no-store')
      .redirect(`${landing.pathname}${landing.search}`, 303);
  }

  app.get(`${COOKIE_PATH}/start`, { schema: { hide: true } }, async (req, reply) => {
    const wanted = new URLSearchParams(req.url.split('?')[1] ?? '').get('for');
    const purpose = wanted === 'link' || wanted === 'confirm' ? wanted : 'signin';
    try {
      // Each start keeps a row for 10 minutes: one address starts a bounded number of them.
      if ((await services.counters.increment(`rate:sso-start:${req.ip}`, 60_000)) > SSO_STARTS_PER_MINUTE)
        throw new SsoFailure('too_many', req.ip);
      let intent: OidcPurposeOf = { purpose: 'signin', sessionId: null };
      if (purpose !== 'signin') {
        // Only the browser whose session asked (its intent cookie): a link sent to someone else starts nothing.
        const asked = await provider.takeIntent(cookieOf(req, INTENT_COOKIE), purpose);
        if (!asked) throw new SsoFailure('session_gone', 'no intent cookie for this trip');
        intent = asked;
      }
      const started = await provider.start(intent);
      const maxAge = OIDC_STATE_TTL_MS / 1000;
      return reply
        .header('set-cookie', [
          cookie(STATE_COOKIE, started.state, COOKIE_PATH, maxAge),
          cookie(INTENT_COOKIE, '', COOKIE_PATH, 0),
          ...(purpose === 'signin' ? [cookie(BINDING_COOKIE, started.binding, FINISH_PATH, maxAge)] : []),
        ])
        .header('cache-control', 'no-store')
        .redirect(started.url, 303);
    } catch (failure) {
      return failed(req, reply, failure, purpose);
    }
  });

  app.get(`${COOKIE_PATH}/callback`, { schema: { hide: true } }, async (req, reply) => {
    let purpose: OidcPurposeOf['purpose'] | undefined;
    try {
      const query = new URLSearchParams(req.url.split('?')[1] ?? '');
      const { claims, intent, bindingHash } = await provider.finish(query, cookieOf(req, STATE_COOKIE));
      purpose = intent.purpose;
      let landing: string;
      if (intent.purpose === 'link') {
        await accounts.linkToSession(claims, intent.sessionId, req);
        landing = '/account#sso_linked';
      } else if (intent.purpose === 'confirm') {
        await accounts.confirmSession(claims, intent.sessionId);
        landing = `${returnPathOf(req).split('#')[0]}#confirmed`;
      } else {
        const user = await accounts.signIn(claims, req);
        const code = await provider.issueCode(user.id, { mfa: providerSaysMfa(oidc, claims), bindingHash });
        landing = `/signin#sso=${code}`;
      }
      return reply.header('set-cookie', cleared).header('cache-control', 'no-store').redirect(landing, 303);
    } catch (failure) {
      return failed(req, reply, failure, purpose);
    }
  });
}

/** POST /user/api/finishOidcSignIn: the code of a finished sign-in for its session, as /user/api/login answers. */
function finishRoute(app: FastifyInstance, services: OidcRoutesServices, provider: OidcClient | undefined) {
  const { users, sessions, secondFactors, signInLimits } = services;
  const route = defineRoutes(app, sessions);
  const cookie = cookieFor(services.config);

  route(FinishOidcSignIn, async ({ body, req, reply }) => {
    // Wrong codes count against the address as wrong passwords do (a right one takes its attempt back).
    const attempt = `#sso:${sha256(body.code)}`;
    await signInLimits.attempt(attempt, req.ip);
    const code = provider ? await provider.readCode(body.code) : undefined;
    const row = code ? await users.row(code.userId) : undefined;
    if (!code || !row) throw unauthorized('sso_code_invalid');
    // Only the browser that started this sign-in: someone else's code signs nobody in here (login CSRF).
    const binding = cookieOf(req, BINDING_COOKIE);
    if (!code.bindingHash || !binding || sha256(binding) !== code.bindingHash)
      throw unauthorized('sso_code_other_browser');
    await signInLimits.succeeded(attempt, req.ip);
    // Disabled between the provider's yes and this exchange.
    if (row.disabled_at) throw forbidden('account_disabled');
    let setupRequired = false;
    // The role must have a second factor: the provider's counts only when it says one was used.
    if (!code.mfa && (await secondFactors.requiredFor(row.role))) {
      if (await secondFactors.totp.isOn(row.id)) {
        if (!body.otp) {
          await provider?.holdCode(body.code);
          throw unauthorized('second_factor_required');
        }
        await checkCode(services, row.id, body.otp, req.ip, unauthorized('second_factor_wrong'));
      } else if (await secondFactors.hasOtherThanTotp(row.id)) {
        throw unauthorized('second_factor_passkey');
      } else {
        setupRequired = true;
      }
    }
    if (!(await provider?.takeCode(body.code))) throw unauthorized('sso_code_invalid');
    const authToken = await sessions.create(row.id, {
      method: 'sso',
      userAgent: req.headers['user-agent'],
      address: req.ip,
      ...(setupRequired ? { secondFactorPending: true } : {}),
    });
    await services.activities.record('login', { userId: row.id });
    reply.header('set-cookie', cookie(BINDING_COOKIE, '', FINISH_PATH, 0));
    return {
      success: true,
      ...said('login_ok'),
      user: { ...sessionUserOf(row), authToken },
      ...(setupRequired ? { secondFactorSetupRequired: true } : {}),
    };
  });
}

/** The line printed at start: what to register at the provider. */
export function oidcStartLine(oidc: OidcConfig | undefined): string | undefined {
  return oidc
    ? `single sign-on with ${oidc.name} (${oidc.issuer}); register this redirect URI at the provider: ${oidc.redirectUri}`
    : undefined;
}
