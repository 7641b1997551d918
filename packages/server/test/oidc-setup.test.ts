/**
 * Single sign-on's settings (OIDC_*: read, refused with the variable named) and a provider that is not there:
 * /signin says so, the starts one address makes are limited, and without OIDC_ISSUER no provider is offered.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config/config.ts';
import { startApp, type TestApp } from './harness.ts';
import { REDIRECT_URI, ssoConfig, ssoEnv } from './oidc-flow.ts';
import { startTestProvider, TEST_CLIENT } from './oidc-provider.ts';

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
    expect((await app.call('/user/api/getSignInOptions')).body).toMatchObject({
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
