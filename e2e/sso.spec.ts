/**
 * Single sign-on in the browser (issue 38): "Sign in with {name}" on /signin goes through a real OpenID Connect
 * provider (oidc-provider, its own login and consent pages) and lands signed in; a refusal at the provider is a
 * sentence on /signin in the reader's language. The flow's checks are the server's tests (oidc.test.ts).
 */

import type { Page } from '@playwright/test';
import { startTestProvider, type TestProvider } from '../packages/server/test/oidc-provider.ts';
import { openServerDatabase } from './database.ts';
import { expect, freePort, login, startIn, startServer, type TalkgroupServer, test } from './fixtures.ts';

// One server and one provider for the file's tests, in one worker, one after the other: under the config's fullyParallel, each worker
// that ran one of them would start its own (beforeAll runs once per worker).
test.describe.configure({ mode: 'default' });
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
  // A dispatcher lands where a password sign-in lands: the dispatch console (issue 70).
  await expect(page).toHaveURL(/\/dispatch$/);
  const stored = await page.evaluate(() => ({
    email: localStorage.getItem('email'),
    role: localStorage.getItem('role'),
    token: Boolean(sessionStorage.getItem('TOKEN_KEY')),
  }));
  expect(stored).toEqual({ email: 'nina.sso@example.org', role: 'dispatcher', token: true });
});

/** Through oidc-provider's own login and consent pages as `sub`. */
async function atProvider(page: Page, sub: string) {
  await page.locator('input[name="login"]').fill(sub);
  await page.locator('input[name="password"]').fill('anything');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
}

test('an account with the same email is not joined: the owner links it from /account after confirming it is them', async ({
  page,
}) => {
  const admin = await login(talk, 'admin.sso@example.org', 'admin-secret-1');
  const created = await talk.call(
    '/user/api/signUpUser',
    { firstName: 'Omar', lastName: 'Diallo', email: 'omar@example.org', password: 'omar-password-1' },
    admin.token,
  );
  expect(created.status).toBe(200);
  provider.identities.set('omar', { email: 'omar@example.org', email_verified: true, given_name: 'Omar' });

  // Through the provider first: refused, with how to link.
  await page.goto(`${talk.baseURL}/signin`);
  await page.getByRole('button', { name: 'Sign in with Example ID' }).click();
  await atProvider(page, 'omar');
  await expect(page.getByRole('alert')).toContainText(
    'An account with this email already exists here and is not linked to Example ID',
  );

  // Signed in with the password; the session's proof is old by the time Omar links.
  await page.getByRole('textbox', { name: 'Login', exact: true }).fill('omar@example.org');
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill('omar-password-1');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/talk$/);
  const database = openServerDatabase(talk);
  database.forgetConfirmations(created.body.user.id);
  database.close();
  await page.goto(`${talk.baseURL}/account`);
  await page.getByRole('button', { name: 'Link Example ID' }).click();
  const confirm = page.getByRole('dialog', { name: 'Confirm it’s you' });
  await confirm.getByLabel('Password').fill('omar-password-1');
  await confirm.getByRole('button', { name: 'Confirm' }).click();
  // The provider still knows Omar from the first trip: it sends the browser straight back.
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByRole('status')).toHaveText(
    'Your account is linked to Example ID: you can sign in through it.',
  );
  await expect(page.getByRole('button', { name: 'Unlink Example ID' })).toBeVisible();
});

test('an administrator sees a pending sign-in on /settings and links it', async ({ browser }) => {
  const admin = await login(talk, 'admin.sso@example.org', 'admin-secret-1');
  await talk.call(
    '/user/api/signUpUser',
    { firstName: 'Pia', lastName: 'Lund', email: 'pia@example.org', password: 'pia-password-1' },
    admin.token,
  );
  provider.identities.set('pia', {
    email: 'pia@example.org',
    email_verified: true,
    given_name: 'Pia',
    family_name: 'Lund',
  });
  const person = await browser.newContext();
  await startIn(person, 'en');
  const page = await person.newPage();
  await page.goto(`${talk.baseURL}/signin`);
  await page.getByRole('button', { name: 'Sign in with Example ID' }).click();
  await atProvider(page, 'pia');
  await expect(page.getByRole('alert')).toContainText('not linked to Example ID');

  const console = await browser.newContext();
  await startIn(console, 'en');
  const settings = await console.newPage();
  await settings.goto(`${talk.baseURL}/signin`);
  await settings.getByRole('textbox', { name: 'Login', exact: true }).fill('admin.sso@example.org');
  await settings.getByRole('textbox', { name: 'Password', exact: true }).fill('admin-secret-1');
  await settings.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(settings).toHaveURL(/\/channelsList$/);
  await settings.goto(`${talk.baseURL}/settings`);
  const pending = settings.getByRole('list', { name: 'Pending sign-ins' });
  await expect(pending).toContainText('Pia Lund (pia@example.org) through Example ID');
  await pending.getByRole('button', { name: 'Link to pia@example.org' }).click();
  await expect(settings.getByRole('status').filter({ hasText: 'linked' })).toHaveText(
    'The identity was linked to the account: it signs in with the provider from now on.',
  );
  await expect(settings.getByText('No pending sign-in.')).toBeVisible();

  // Pia signs in through the provider now (the provider remembers her: straight back, signed in).
  await page.getByRole('button', { name: 'Sign in with Example ID' }).click();
  await expect(page).toHaveURL(/\/talk$/);
  await person.close();
  await console.close();
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
