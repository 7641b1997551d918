/**
 * Single sign-on in the browser (issue 38): "Sign in with {name}" on /signin goes through a real OpenID Connect
 * provider (oidc-provider, its own login and consent pages) and lands signed in; a refusal at the provider is a
 * sentence on /signin in the reader's language. The flow's checks are the server's tests (oidc.test.ts).
 */
import { startTestProvider, type TestProvider } from '../packages/server/test/oidc-provider.ts';
import { expect, freePort, startIn, startServer, type TalkgroupServer, test } from './fixtures.ts';

let provider: TestProvider;
let talk: TalkgroupServer;

test.beforeAll(async () => {
  const port = await freePort();
  const publicUrl = `http://127.0.0.1:${port}`;
  provider = await startTestProvider(`${publicUrl}/auth/oidc/callback`);
  provider.identities.set('nina', {
    email: 'nina.sso@example.org',
    email_verified: true,
    given_name: 'Nina',
    family_name: 'Berg',
    groups: ['tg-dispatch'],
  });
  talk = await startServer({
    PORT: String(port),
    PUBLIC_URL: publicUrl,
    OIDC_ISSUER: provider.issuer,
    OIDC_CLIENT_ID: 'talkgroup',
    OIDC_CLIENT_SECRET: 'a-client-secret-for-the-tests-only-0123456789',
    OIDC_NAME: 'Example ID',
    OIDC_SCOPES: 'openid email profile groups',
    OIDC_ROLE_CLAIM: 'groups',
    OIDC_ROLE_MAP: 'tg-admins:admin,tg-dispatch:dispatcher',
    OIDC_ALLOW_HTTP: 'true',
  });
  // An administrator exists already: the SSO account is not the first one.
  await talk.call('/user/api/signUpUser', {
    firstName: 'Ada',
    lastName: 'Admin',
    email: 'admin.sso@example.org',
    password: 'admin-secret-1',
  });
});

test.afterAll(async () => {
  await talk?.stop();
  await provider?.close();
});

test('"Sign in with Example ID" goes through the provider and lands in the console', async ({ page }) => {
  await page.goto(`${talk.baseURL}/signin`);
  await page.getByRole('button', { name: 'Sign in with Example ID' }).click();
  // The provider's own pages (oidc-provider's development interactions).
  await page.locator('input[name="login"]').fill('nina');
  await page.locator('input[name="password"]').fill('anything');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
  // A dispatcher lands where a password sign-in lands: the console.
  await expect(page).toHaveURL(/\/channelsList$/);
  const stored = await page.evaluate(() => ({
    email: localStorage.getItem('email'),
    role: localStorage.getItem('role'),
    token: Boolean(sessionStorage.getItem('TOKEN_KEY')),
  }));
  expect(stored).toEqual({ email: 'nina.sso@example.org', role: 'dispatcher', token: true });
});

test.describe('in French', () => {
  test('says a refusal at the provider on /signin', async ({ browser }) => {
    const context = await browser.newContext();
    await startIn(context, 'fr');
    const page = await context.newPage();
    await page.goto(`${talk.baseURL}/signin?sso_error=denied`);
    await expect(page.getByRole('alert')).toHaveText('La connexion a été refusée par le fournisseur d’identité.');
    await expect(page.getByRole('button', { name: 'Se connecter avec Example ID' })).toBeVisible();
    await context.close();
  });
});
