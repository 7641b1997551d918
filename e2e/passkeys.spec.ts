/**
 * Passkeys and sessions in the browser (issue 38), with Chromium's virtual authenticator (DevTools protocol
 * `WebAuthn`): a member adds a passkey on /account (after "Confirm it's you", issue 47), signs out, signs in with
 * "Sign in with a passkey" (no login typed), sees where it is signed in and ends another session, then deletes
 * the passkey; a passkey that does not verify its user is one factor: refused where two are needed, marked as such.
 * The page is opened on `localhost` (the servers' PUBLIC_URL, e2e/fixtures.ts): a relying party must be a
 * domain, never an IP address.
 */
import type { Page } from '@playwright/test';
import { generate } from 'otplib';
import { openServerDatabase } from './database.ts';
import { expect, test, useSession } from './fixtures.ts';

/** The server's address under the name `localhost` (same port, same server). */
const onLocalhost = (baseURL: string) => baseURL.replace('127.0.0.1', 'localhost');

/** A platform authenticator; `verifies: false` is one without a PIN or biometrics (the UV flag never set). */
async function addVirtualAuthenticator(page: Page, { verifies = true } = {}) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: verifies,
      isUserVerified: verifies,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, authenticatorId };
}

/** A browser without conditional mediation: "Sign in with a passkey" asks, instead of the login field. */
async function withoutPasskeySuggestions(page: Page) {
  await page.context().addInitScript(() => {
    if (window.PublicKeyCredential) PublicKeyCredential.isConditionalMediationAvailable = async () => false;
  });
}

test('a member adds a passkey, signs in with it without a login, ends another session and deletes the passkey', async ({
  page,
  server,
  seed,
}) => {
  const mia = await seed.member({ firstName: 'Mia', lastName: 'Passkey' });
  const site = onLocalhost(server.baseURL);
  const { cdp, authenticatorId } = await addVirtualAuthenticator(page);

  await page.goto(`${site}/signin`);
  await page.getByRole('textbox', { name: 'Login', exact: true }).fill(mia.login);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(mia.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/talk$/);

  // The account page, from the account menu of /talk.
  await page.getByRole('button', { name: /Mia Passkey/ }).click();
  await page.getByRole('menuitem', { name: 'My account' }).click();
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByRole('heading', { name: 'My account', level: 1 })).toBeVisible();
  const passkeys = page.getByRole('region', { name: 'Passkeys' });
  await expect(passkeys.getByText('No passkey yet.')).toBeVisible();
  // The sign-in proved it was Mia long enough ago: adding a passkey asks again, then goes on by itself.
  const database = openServerDatabase(server);
  database.forgetConfirmations(mia.id);
  database.close();
  await passkeys.getByRole('button', { name: 'Add a passkey' }).click();
  const confirm = page.getByRole('dialog', { name: 'Confirm it’s you' });
  await confirm.getByLabel('Password').fill(mia.password);
  await confirm.getByRole('button', { name: 'Confirm' }).click();
  await expect(confirm).toBeHidden();
  await expect(passkeys.getByRole('status')).toHaveText(/Passkey “Chrome · Linux” added\./);
  await expect(passkeys.getByRole('listitem')).toHaveCount(1);
  await expect(passkeys.getByRole('listitem')).toContainText('never used');
  const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
  expect(credentials).toHaveLength(1);
  expect(credentials[0]?.isResidentCredential).toBe(true);

  const signOut = async () => {
    await page.getByRole('button', { name: /Mia Passkey/ }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.getByRole('button', { name: "I'm, Sure" }).click();
  };
  // Signed out, the sign-in page offers the passkey in the login field's suggestions (conditional mediation):
  // the virtual authenticator picks it at once, as a person would from the list, and no login is typed.
  await signOut();
  await expect(page).toHaveURL(/\/talk$/);
  await expect(page.getByRole('button', { name: /Mia Passkey/ })).toBeVisible();

  // A browser without conditional mediation: the button asks for the passkey.
  await withoutPasskeySuggestions(page);
  await page.goto(`${site}/talk`);
  await signOut();
  await expect(page).toHaveURL(/\/signin$/);
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page).toHaveURL(/\/talk$/);

  // Another session of Mia's, opened elsewhere (no browser named): ended from this page.
  await server.call('/user/api/login', { user_email: mia.login, user_password: mia.password });
  await page.goto(`${site}/account`);
  const sessions = page.getByRole('region', { name: 'Sessions' });
  await expect(sessions.getByRole('listitem').filter({ hasText: 'This device' })).toContainText('Passkey');
  const others = sessions.getByRole('button', { name: 'Sign out Unknown device' });
  const before = await others.count();
  expect(before).toBeGreaterThan(0);
  await others.first().click();
  await expect(others).toHaveCount(before - 1);

  await expect(passkeys.getByRole('listitem')).toContainText('last used on');
  await passkeys.getByRole('button', { name: 'Delete Chrome · Linux' }).click();
  await expect(passkeys.getByText('No passkey yet.')).toBeVisible();
});

test('a passkey that does not verify its user is one factor: refused where two are needed, marked where one is', async ({
  page,
  server,
  seed,
}) => {
  const mia = await seed.member({ firstName: 'Mia', lastName: 'Nopin' });
  const site = onLocalhost(server.baseURL);
  // A security key without a PIN: the browser never sets the UV flag. (One that can verify its user but fails to
  // is refused by Chromium itself, before the server sees anything; and Chromium finds no discoverable passkey
  // without user verification at sign-in: the server tests check that refusal with a software authenticator.)
  await addVirtualAuthenticator(page, { verifies: false });
  await useSession(page, mia);
  await page.goto(`${site}/account`);
  const passkeys = page.getByRole('region', { name: 'Passkeys' });
  await expect(passkeys.getByText('No passkey yet.')).toBeVisible();

  // Two-step verification goes on (from another device) while the browser makes the passkey: the server, asked
  // to keep it for an account that now needs two factors, refuses it and the page says why.
  let secret = '';
  await page.route('**/user/api/startPasskeyRegistration', async (route) => {
    const response = await route.fetch();
    secret = (await server.call('/user/api/startTotpSetup', {}, mia.token)).body.res.secret;
    const code = await generate({ secret });
    expect((await server.call('/user/api/confirmTotpSetup', { code }, mia.token)).status).toBe(200);
    await route.fulfill({ response });
  });
  await passkeys.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(passkeys.getByRole('alert')).toContainText(
    'Your account needs two factors and this passkey did not verify you (PIN, fingerprint or face)',
  );
  await expect(passkeys.getByText('No passkey yet.')).toBeVisible();
  await page.unroute('**/user/api/startPasskeyRegistration');

  // Two-step verification off again: one factor is all the account needs; the passkey is kept, marked as such.
  const nextCode = await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 });
  expect((await server.call('/user/api/disableTotp', { code: nextCode }, mia.token)).status).toBe(200);
  await passkeys.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(passkeys.getByRole('status')).toHaveText(/Passkey “.+” added\./);
  await expect(passkeys.getByRole('listitem')).toContainText(
    'does not check your PIN, fingerprint or face: one verification step only',
  );
});

test.describe('in French', () => {
  test.use({ language: 'fr' });
  test('the account page and the sign-in page name the passkeys in French', async ({ page, server, seed }) => {
    const mia = await seed.member({ firstName: 'Mia', lastName: 'Clé' });
    const site = onLocalhost(server.baseURL);
    await page.goto(`${site}/signin`);
    await expect(page.getByRole('button', { name: "Se connecter avec une clé d'accès" })).toBeVisible();
    await page.getByRole('textbox', { name: 'Identifiant', exact: true }).fill(mia.login);
    await page.getByRole('textbox', { name: 'Mot de passe', exact: true }).fill(mia.password);
    await page.getByRole('button', { name: 'Se connecter', exact: true }).click();
    await expect(page).toHaveURL(/\/talk$/);
    await page.goto(`${site}/account`);
    await expect(page.getByRole('heading', { name: 'Mon compte', level: 1 })).toBeVisible();
    await expect(
      page.getByRole('region', { name: "Clés d'accès" }).getByRole('button', { name: "Ajouter une clé d'accès" }),
    ).toBeVisible();
    await expect(page.getByRole('region', { name: 'Sessions' }).getByText('Cet appareil')).toBeVisible();
  });
});

test('an administrator sees a user’s sessions from its row and ends one', async ({ page, server, admin, seed }) => {
  const member = await seed.member();
  // A second session of the member's, opened elsewhere.
  await server.call('/user/api/login', { user_email: member.login, user_password: member.password });
  await useSession(page, admin);
  await page.goto('/usersList');
  await page.getByRole('searchbox', { name: 'Search users' }).fill(member.login);
  const name = `${member.firstName} ${member.lastName}`;
  await page.getByRole('button', { name: `Sessions of ${name}` }).click();
  const dialog = page.getByRole('dialog', { name: `Sessions of ${name}` });
  const rows = dialog.getByRole('listitem');
  await expect(rows).toHaveCount(2);
  // None of them is the administrator's own: each can be signed out.
  // (Exactly: each row's 'Disable this device' button says it too, issue 60.)
  await expect(dialog.getByText('This device', { exact: true })).toHaveCount(0);
  await dialog
    .getByRole('button', { name: /^Sign out/ })
    .first()
    .click();
  await expect(rows).toHaveCount(1);
  await expect
    .poll(async () => (await server.call('/user/api/getSessions', { userId: member.id }, admin.token)).body.res.length)
    .toBe(1);
});
