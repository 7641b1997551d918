/**
 * A browser's trips through single sign-on for the OIDC tests (oidc.test.ts, oidc-setup.test.ts): the settings
 * that point Talkgroup at the test provider (oidc-provider.ts), a cookie jar, and each step of the authorization
 * code flow as the browser takes it (start, the provider, the callback, the one-time code exchanged).
 */
import { generate } from 'otplib';
import { expect } from 'vitest';
import { loadConfig } from '../src/config/config.ts';
import { expectNoSecrets, type TestApp } from './harness.ts';
import { TEST_CLIENT, throughProvider } from './oidc-provider.ts';

export const PUBLIC_URL = 'http://talk.test';
/** The TOTP code of the secret `offsetSteps` 30-second steps from now. */
export const codeAt = (secret: string, offsetSteps = 0) =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + offsetSteps * 30 });
export const REDIRECT_URI = `${PUBLIC_URL}/auth/oidc/callback`;

export function ssoEnv(issuer: string, more: Record<string, string> = {}) {
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

export function ssoConfig(issuer: string, more: Record<string, string> = {}) {
  const { publicUrl, oidc } = loadConfig(ssoEnv(issuer, more));
  return { publicUrl, oidc };
}

/** A browser's cookies on Talkgroup (names do not clash across paths in these tests). */
export class TalkJar {
  readonly cookies = new Map<string, string>();
  take(setCookie: string | string[] | undefined): void {
    for (const line of [setCookie ?? []].flat()) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      if (value === '' || /max-age=0/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

/** GET /auth/oidc/start as a browser: the provider's address; the state and binding cookies go in the jar. */
export async function start(app: TestApp, jar = new TalkJar(), purpose?: 'link' | 'confirm') {
  const response = await app.fastify.inject({
    method: 'GET',
    url: `/auth/oidc/start${purpose ? `?for=${purpose}` : ''}`,
    headers: { cookie: jar.header() },
  });
  expect(response.statusCode).toBe(303);
  const setCookie = [response.headers['set-cookie'] ?? []].flat().join('\n');
  jar.take(response.headers['set-cookie']);
  const cookie = /tg_oidc_state=[^;]+/.exec(setCookie)?.[0] ?? '';
  expect(setCookie).toMatch(/HttpOnly/);
  expect(setCookie).toMatch(/SameSite=Lax/);
  return { location: String(response.headers.location), cookie, jar };
}

/** The provider's redirect back, handed to /auth/oidc/callback: where Talkgroup sends the browser. */
export async function callback(app: TestApp, redirect: string, cookie: string) {
  const url = new URL(redirect);
  const response = await app.fastify.inject({
    method: 'GET',
    url: `${url.pathname}${url.search}`,
    headers: cookie ? { cookie } : {},
  });
  expect(response.statusCode).toBe(303);
  return String(response.headers.location);
}

/** A whole trip through the provider as `sub`; the landing address on Talkgroup (the jar holds the binding). */
export async function ssoLanding(app: TestApp, sub: string, options: { deny?: boolean; jar?: TalkJar } = {}) {
  const { location, jar } = await start(app, options.jar);
  expect(location.startsWith(`${app.config.oidc?.issuer}/`)).toBe(true);
  const authorization = new URL(location);
  expect(authorization.searchParams.get('code_challenge_method')).toBe('S256');
  expect(authorization.searchParams.get('state')).toBeTruthy();
  expect(authorization.searchParams.get('nonce')).toBeTruthy();
  expect(authorization.searchParams.get('redirect_uri')).toBe(REDIRECT_URI);
  const back = await throughProvider(location, REDIRECT_URI, { sub, ...(options.deny ? { deny: true } : {}) });
  return callback(app, back, jar.header());
}

/** The one-time code of a landing on /signin#sso=..., exchanged as the web app does (with this browser's cookies). */
export async function finish(app: TestApp, landing: string, jar: TalkJar, more: { otp?: string } = {}) {
  expect(landing).toMatch(/^\/signin#sso=[\w-]+$/);
  const code = landing.slice('/signin#sso='.length);
  const response = await app.fastify.inject({
    method: 'POST',
    url: '/user/api/finishOidcSignIn',
    headers: { cookie: jar.header(), 'accept-language': 'en' },
    payload: { code, ...more },
  });
  jar.take(response.headers['set-cookie']);
  return { status: response.statusCode, body: response.json() };
}

export async function ssoSignIn(app: TestApp, sub: string) {
  const jar = new TalkJar();
  const finished = await finish(app, await ssoLanding(app, sub, { jar }), jar);
  expect(finished.status).toBe(200);
  expectNoSecrets(finished.body);
  return finished.body.user as { id: number; role: string; authToken: string; email: string; firstName: string };
}

/**
 * A signed-in session's trip through the provider (startOidcLink / startOidcConfirm, then /auth/oidc/start?for=):
 * the landing address.
 */
export async function sessionTrip(
  app: TestApp,
  token: string,
  purpose: 'link' | 'confirm',
  sub: string,
  returnTo?: string,
) {
  const asked = await app.fastify.inject({
    method: 'POST',
    url: purpose === 'link' ? '/user/api/startOidcLink' : '/user/api/startOidcConfirm',
    headers: { 'x-access-token': token },
    payload: returnTo ? { returnTo } : {},
  });
  expect(asked.statusCode).toBe(200);
  expect(asked.json().res.url).toBe(`/auth/oidc/start?for=${purpose}`);
  const jar = new TalkJar();
  jar.take(asked.headers['set-cookie']);
  const { location } = await start(app, jar, purpose);
  const back = await throughProvider(location, REDIRECT_URI, { sub });
  return callback(app, back, jar.header());
}
