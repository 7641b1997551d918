/**
 * Single sign-on (issue 38) against a real OpenID Connect provider (oidc-provider on a free port, see
 * oidc-provider.ts): the whole authorization code flow with PKCE, state and nonce, the account made from the
 * claims, the role from the groups, the link by verified email, a deleted account refused, a wrong or reused
 * state refused, a refusal at the provider and an unreachable provider landing on /signin with their code.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';
import {
  type Account,
  createMember,
  databases,
  expectNoSecrets,
  signUpAdmin,
  startApp,
  type TestApp,
} from './harness.ts';
import { startTestProvider, TEST_CLIENT, type TestProvider, throughProvider } from './oidc-provider.ts';

const PUBLIC_URL = 'http://talk.test';
const REDIRECT_URI = `${PUBLIC_URL}/auth/oidc/callback`;

function ssoEnv(issuer: string, more: Record<string, string> = {}) {
  return {
    PUBLIC_URL,
    OIDC_ISSUER: issuer,
    OIDC_CLIENT_ID: TEST_CLIENT.id,
    OIDC_CLIENT_SECRET: TEST_CLIENT.secret,
    OIDC_NAME: 'Example ID',
    OIDC_SCOPES: 'openid email profile groups',
    OIDC_ROLE_CLAIM: 'groups',
    OIDC_ROLE_MAP: 'tg-admins:admin,tg-dispatch:dispatcher',
    OIDC_ALLOW_HTTP: 'true',
    ...more,
  };
}

function ssoConfig(issuer: string, more: Record<string, string> = {}) {
  const { publicUrl, oidc } = loadConfig(ssoEnv(issuer, more));
  return { publicUrl, oidc };
}

let provider: TestProvider;
beforeAll(async () => {
  provider = await startTestProvider(REDIRECT_URI);
});
afterAll(async () => {
  await provider?.close();
});

/** GET /auth/oidc/start as a browser: the provider's address and the state cookie. */
async function start(app: TestApp) {
  const response = await app.fastify.inject({ method: 'GET', url: '/auth/oidc/start' });
  expect(response.statusCode).toBe(303);
  const setCookie = [response.headers['set-cookie'] ?? []].flat().join('\n');
  const cookie = /tg_oidc_state=[^;]+/.exec(setCookie)?.[0] ?? '';
  expect(setCookie).toMatch(/HttpOnly/);
  expect(setCookie).toMatch(/SameSite=Lax/);
  return { location: String(response.headers.location), cookie };
}

/** The provider's redirect back, handed to /auth/oidc/callback: where Talkgroup sends the browser. */
async function callback(app: TestApp, redirect: string, cookie: string) {
  const url = new URL(redirect);
  const response = await app.fastify.inject({
    method: 'GET',
    url: `${url.pathname}${url.search}`,
    headers: cookie ? { cookie } : {},
  });
  expect(response.statusCode).toBe(303);
  return String(response.headers.location);
}

/** A whole sign-in through the provider as `sub`; the landing address on Talkgroup. */
async function ssoLanding(app: TestApp, sub: string, options: { deny?: boolean } = {}) {
  const { location, cookie } = await start(app);
  expect(location.startsWith(`${provider.issuer}/`)).toBe(true);
  const authorization = new URL(location);
  expect(authorization.searchParams.get('code_challenge_method')).toBe('S256');
  expect(authorization.searchParams.get('state')).toBeTruthy();
  expect(authorization.searchParams.get('nonce')).toBeTruthy();
  expect(authorization.searchParams.get('redirect_uri')).toBe(REDIRECT_URI);
  const back = await throughProvider(location, REDIRECT_URI, { sub, ...options });
  return callback(app, back, cookie);
}

/** The one-time code of a landing on /signin#sso=..., exchanged as the web app does. */
async function finish(app: TestApp, landing: string) {
  expect(landing).toMatch(/^\/signin#sso=[\w-]+$/);
  const code = landing.slice('/signin#sso='.length);
  return app.call('/user/api/finishOidcSignIn', { code });
}

async function ssoSignIn(app: TestApp, sub: string) {
  const finished = await finish(app, await ssoLanding(app, sub));
  expect(finished.status).toBe(200);
  expectNoSecrets(finished.body);
  return finished.body.user as { id: number; role: string; authToken: string; email: string; firstName: string };
}

describe.each(databases)('single sign-on on %s', (dialect) => {
  let app: TestApp;
  let admin: Account;
  beforeEach(async () => {
    app = await startApp(dialect, ssoConfig(provider.issuer));
    admin = await signUpAdmin(app);
  });
  afterEach(async () => {
    await app.close();
  });

  it('offers the provider on /signin and creates the account from the claims, its role from the groups', async () => {
    const options = await app.call('/user/api/getSignInOptions');
    expect(options.body).toEqual({ success: true, sso: { name: 'Example ID' }, passwordSignIn: true });

    provider.identities.set(`alice-${dialect}`, {
      email: `Alice.${dialect}@Example.org`,
      email_verified: true,
      given_name: 'Alice',
      family_name: 'Martin',
      groups: ['staff', 'tg-dispatch'],
    });
    const user = await ssoSignIn(app, `alice-${dialect}`);
    expect(user).toMatchObject({
      email: `alice.${dialect}@example.org`,
      firstName: 'Alice',
      lastName: 'Martin',
      role: 'dispatcher',
    });
    // The session is a real one, opened by single sign-on.
    const valid = await app.call('/user/api/isValidToken', { token: user.authToken });
    expect(valid.body.user.id).toBe(user.id);
    const session = await app.services.db
      .selectFrom('sessions')
      .select(['method'])
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(session.method).toBe('sso');

    // The role follows the groups at every sign-in, and the change is audited.
    provider.identities.set(`alice-${dialect}`, {
      ...provider.identities.get(`alice-${dialect}`),
      groups: ['tg-admins'],
    });
    expect((await ssoSignIn(app, `alice-${dialect}`)).role).toBe('admin');
    provider.identities.set(`alice-${dialect}`, { ...provider.identities.get(`alice-${dialect}`), groups: [] });
    const again = await ssoSignIn(app, `alice-${dialect}`);
    expect(again).toMatchObject({ id: user.id, role: 'member' });
    const log = await app.call('/user/api/getAuditLog', { start: 0, limit: 20 }, admin.token);
    const roleChanges = log.body.res.entries.filter((entry: { action: string }) => entry.action === 'user.sso_role');
    expect(roleChanges.map((entry: { changes: unknown }) => entry.changes)).toEqual([
      { role: { before: 'admin', after: 'member' } },
      { role: { before: 'dispatcher', after: 'admin' } },
    ]);
  });

  it('gives a one-time code: used once, and no token in any address', async () => {
    provider.identities.set('once', { email: 'once@example.org', email_verified: true, given_name: 'Otto' });
    const landing = await ssoLanding(app, 'once');
    expect(landing).not.toMatch(/token/i);
    expect((await finish(app, landing)).status).toBe(200);
    const replay = await finish(app, landing);
    expect(replay.status).toBe(401);
    expect(replay.body.code).toBe('sso_code_invalid');
    const forged = await app.call('/user/api/finishOidcSignIn', { code: 'not-a-code' });
    expect(forged.status).toBe(401);
  });

  it('links an existing account by an email the provider says is verified, then by issuer and sub', async () => {
    const bob = await createMember(app, admin, { email: 'bob@example.org' });
    provider.identities.set('bob-sub', { email: 'bob@example.org', email_verified: true, groups: ['tg-dispatch'] });
    const linked = await ssoSignIn(app, 'bob-sub');
    expect(linked).toMatchObject({ id: bob.id, role: 'dispatcher', firstName: 'Mia' });
    // Later the provider's email changes: the link holds by sub.
    provider.identities.set('bob-sub', { email: 'robert@example.org', email_verified: true, groups: [] });
    expect((await ssoSignIn(app, 'bob-sub')).id).toBe(bob.id);

    // An unverified email does not take an account over.
    await createMember(app, admin, { email: 'carol@example.org' });
    provider.identities.set('mallory', { email: 'carol@example.org', email_verified: false });
    expect(await ssoLanding(app, 'mallory')).toBe('/signin?sso_error=email_unverified');
    // Nor does another subject with the email of an account already linked.
    provider.identities.set('bob-twin', { email: 'bob@example.org', email_verified: true });
    expect(await ssoLanding(app, 'bob-twin')).toBe('/signin?sso_error=already_linked');
    // No email at all: nothing to make an account from.
    provider.identities.set('nobody', {});
    expect(await ssoLanding(app, 'nobody')).toBe('/signin?sso_error=no_email');
  });

  it('refuses a deleted account even though the provider says yes', async () => {
    provider.identities.set(`dave-${dialect}`, { email: 'dave@example.org', email_verified: true, given_name: 'Dave' });
    const dave = await ssoSignIn(app, `dave-${dialect}`);
    const deleted = await app.call('/user/api/deleteUser', { UserId: dave.id }, admin.token);
    expect(deleted.status).toBe(200);
    expect(await ssoLanding(app, `dave-${dialect}`)).toBe('/signin?sso_error=account_deleted');
    const users = await app.services.db.selectFrom('users').select('identifier').execute();
    expect(users.map((row) => row.identifier)).not.toContain('dave@example.org');
    // An administrator makes the account again: the provider's verified email links it.
    const remade = await createMember(app, admin, { email: 'dave@example.org' });
    expect(await ssoSignIn(app, `dave-${dialect}`)).toMatchObject({ id: remade.id });
  });

  it('refuses a disabled account even though the provider says yes, and signs it in again once enabled', async () => {
    provider.identities.set(`erin-${dialect}`, { email: 'erin@example.org', email_verified: true, given_name: 'Erin' });
    const erin = await ssoSignIn(app, `erin-${dialect}`);
    // A code handed out before the account was disabled opens nothing either.
    const pending = await ssoLanding(app, `erin-${dialect}`);
    const off = await app.call('/user/api/setUserDisabled', { userId: erin.id, disabled: true }, admin.token);
    expect(off.status).toBe(200);
    expect((await app.call('/user/api/getMyChannels', {}, erin.authToken)).status).toBe(401);
    expect(await finish(app, pending)).toMatchObject({ status: 403, body: { code: 'account_disabled' } });
    expect(await ssoLanding(app, `erin-${dialect}`)).toBe('/signin?sso_error=account_disabled');
    const links = await app.services.db.selectFrom('identity_links').select('user_id').execute();
    expect(links.map((row) => row.user_id)).toContain(erin.id);

    expect(
      (await app.call('/user/api/setUserDisabled', { userId: erin.id, disabled: false }, admin.token)).status,
    ).toBe(200);
    expect(await ssoSignIn(app, `erin-${dialect}`)).toMatchObject({ id: erin.id });
  });

  it('refuses a wrong, a reused or another browser state, and lands a refusal at the provider on /signin', async () => {
    provider.identities.set('erin', { email: 'erin@example.org', email_verified: true });
    const first = await start(app);
    const back = await throughProvider(first.location, REDIRECT_URI, { sub: 'erin' });
    // Another browser (no state cookie) brings the provider's answer.
    expect(await callback(app, back, '')).toBe('/signin?sso_error=state');
    // The state changed on the way: refused, and the sign-in this browser started is over.
    const wrong = new URL(back);
    wrong.searchParams.set('state', 'forged-state');
    expect(await callback(app, wrong.href, first.cookie)).toBe('/signin?sso_error=state');
    expect(await callback(app, back, first.cookie)).toBe('/signin?sso_error=state');

    const second = await start(app);
    const good = await throughProvider(second.location, REDIRECT_URI, { sub: 'erin' });
    const landing = await callback(app, good, second.cookie);
    expect((await finish(app, landing)).status).toBe(200);
    // A state serves once.
    expect(await callback(app, good, second.cookie)).toBe('/signin?sso_error=state');

    expect(await ssoLanding(app, 'erin', { deny: true })).toBe('/signin?sso_error=denied');
  });

  it('with OIDC_ONLY hides the password form and refuses passwords but an administrator’s', async () => {
    await app.close();
    app = await startApp(dialect, ssoConfig(provider.issuer, { OIDC_ONLY: 'true' }));
    admin = await signUpAdmin(app);
    const options = await app.call('/user/api/getSignInOptions');
    expect(options.body).toMatchObject({ sso: { name: 'Example ID' }, passwordSignIn: false });
    await expect(createMember(app, admin, { email: 'pat@example.org' })).rejects.toThrow(/password_sign_in_off/);
    const wrong = await app.call('/user/api/login', { user_email: 'pat@example.org', user_password: 'wrong-one' });
    expect(wrong.body.code).toBe('invalid_credentials');
  });
});

describe('single sign-on without its provider', () => {
  let app: TestApp;
  afterEach(async () => {
    await app?.close();
  });

  it('lands on /signin with "unreachable" when the provider does not answer', async () => {
    // A port that was free a moment ago: nothing listens there.
    const gone = await startTestProvider(REDIRECT_URI);
    await gone.close();
    app = await startApp('sqlite', ssoConfig(gone.issuer));
    const response = await app.fastify.inject({ method: 'GET', url: '/auth/oidc/start' });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/signin?sso_error=unreachable');
  });

  it('limits the sign-ins one address starts in a minute', async () => {
    const gone = await startTestProvider(REDIRECT_URI);
    await gone.close();
    app = await startApp('sqlite', ssoConfig(gone.issuer));
    const landings: string[] = [];
    for (let i = 0; i < 121; i++) {
      const response = await app.fastify.inject({ method: 'GET', url: '/auth/oidc/start' });
      landings.push(String(response.headers.location));
    }
    expect(landings.slice(0, 120).every((landing) => landing === '/signin?sso_error=unreachable')).toBe(true);
    expect(landings[120]).toBe('/signin?sso_error=too_many');
  });

  it('offers no provider when OIDC_ISSUER is unset', async () => {
    app = await startApp('sqlite');
    expect((await app.call('/user/api/getSignInOptions')).body).toEqual({
      success: true,
      sso: null,
      passwordSignIn: true,
    });
    const response = await app.fastify.inject({ method: 'GET', url: '/auth/oidc/start' });
    expect(response.statusCode).toBe(404);
  });
});

describe('single sign-on configuration', () => {
  const issuer = 'https://login.example.org/realms/talk';
  const refused = (env: Record<string, string>, variable: string) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(variable);
  };

  it('reads the provider and prints the redirect URI from PUBLIC_URL', () => {
    const { oidc } = loadConfig({ ...ssoEnv(issuer), PUBLIC_URL: 'https://talk.example.org/', OIDC_ALLOW_HTTP: '' });
    expect(oidc).toMatchObject({
      issuer,
      clientId: TEST_CLIENT.id,
      name: 'Example ID',
      scopes: 'openid email profile groups',
      roleClaim: 'groups',
      roleMap: [
        { group: 'tg-admins', role: 'admin' },
        { group: 'tg-dispatch', role: 'dispatcher' },
      ],
      only: false,
      redirectUri: 'https://talk.example.org/auth/oidc/callback',
    });
    expect(
      loadConfig({ OIDC_ISSUER: issuer, OIDC_CLIENT_ID: 'x', PUBLIC_URL: 'https://t.example.org' }).oidc?.scopes,
    ).toBe('openid email profile');
    expect(loadConfig({}).oidc).toBeUndefined();
  });

  it('refuses to start on a wrong value, naming the variable', () => {
    refused({ ...ssoEnv(issuer), OIDC_ALLOW_HTTP: '', OIDC_ROLE_MAP: 'tg-admins:boss' }, 'OIDC_ROLE_MAP');
    refused({ ...ssoEnv(issuer), OIDC_ALLOW_HTTP: '', OIDC_ROLE_MAP: 'tg-admins' }, 'OIDC_ROLE_MAP');
    refused({ ...ssoEnv(issuer), OIDC_ALLOW_HTTP: '', OIDC_ROLE_CLAIM: '' }, 'OIDC_ROLE_CLAIM');
    refused({ ...ssoEnv(issuer), OIDC_ALLOW_HTTP: '', PUBLIC_URL: '' }, 'PUBLIC_URL');
    refused({ ...ssoEnv(issuer), OIDC_ALLOW_HTTP: '', PUBLIC_URL: 'talk.example.org' }, 'PUBLIC_URL');
    refused({ ...ssoEnv(issuer), OIDC_ALLOW_HTTP: '', OIDC_CLIENT_ID: '' }, 'OIDC_CLIENT_ID');
    refused({ ...ssoEnv(issuer), OIDC_ALLOW_HTTP: '', OIDC_SCOPES: 'email profile' }, 'OIDC_SCOPES');
    refused({ ...ssoEnv(issuer), OIDC_ALLOW_HTTP: '', OIDC_ONLY: 'yes' }, 'OIDC_ONLY');
    refused({ ...ssoEnv('http://login.example.org'), OIDC_ALLOW_HTTP: '' }, 'OIDC_ISSUER');
    refused({ ...ssoEnv('not an address'), OIDC_ALLOW_HTTP: '' }, 'OIDC_ISSUER');
    refused({ OIDC_ONLY: 'true' }, 'OIDC_ONLY');
    refused({ OIDC_CLIENT_ID: 'x' }, 'OIDC_CLIENT_ID');
  });
});
