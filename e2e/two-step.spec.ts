/**
 * Two-step verification (issue 38) as a browser shows it: set up on /account from the QR code's secret (the
 * test computes the code as an authenticator app would, with otplib), then a sign-in asks for the
 * verification code after the password; and a member whose role the security policy covers (switched on at
 * /settings) reaches only the setup until it is done. English and French texts.
 */
import { generate } from 'otplib';
import { type Account, expect, type TalkgroupServer, test, useSession } from './fixtures.ts';

/** The code an authenticator app shows `steps` 30-second steps from now. */
const codeOf = (secret: string, steps = 0) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });

test('a member sets up two-step verification, signs out, and signs in with the password and the code', async ({
  page,
  seed,
}) => {
  const member = await seed.member();
  await useSession(page, member);
  await page.goto('/account');
  const section = page.getByRole('region', { name: 'Two-step verification' });
  await expect(section).toContainText('Two-step verification is off');
  await section.getByRole('button', { name: 'Set up two-step verification' }).click();
  await expect(section.getByRole('img', { name: 'QR code to scan with your authenticator app' })).toBeVisible();
  const secret = (await section.getByTestId('totp-secret').textContent())?.trim() ?? '';
  expect(secret).toMatch(/^[A-Z2-7]{26,}$/);
  // A wrong code is refused with a sentence, the setup stays.
  await section.getByRole('textbox', { name: '6-digit code' }).fill('000000');
  await section.getByRole('button', { name: 'Confirm' }).click();
  await expect(section.getByRole('alert')).toContainText('This code is wrong');
  await section.getByRole('textbox', { name: '6-digit code' }).fill(await codeOf(secret));
  await section.getByRole('button', { name: 'Confirm' }).click();
  const codes = section.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
  await expect(codes).toHaveCount(10);
  await expect(codes.first()).toHaveText(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
  await section.getByRole('button', { name: 'I have kept them' }).click();
  await expect(section).toContainText('10 recovery codes left');
  await expect(codes).toHaveCount(0);

  await page.getByRole('button', { name: /Account menu/ }).click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await page.getByRole('button', { name: "I'm, Sure" }).click();
  await expect(page.getByRole('heading', { name: 'Sign in', level: 1 })).toBeVisible();

  await page.getByRole('textbox', { name: 'Login', exact: true }).fill(member.login);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(member.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  const otp = page.getByRole('textbox', { name: 'Verification code' });
  await expect(otp).toBeVisible();
  await expect(page.getByText('Two-step verification is on for this account')).toBeVisible();
  // The confirmation used the current step: the app's next code is the one not used yet.
  await otp.fill(await codeOf(secret, 1));
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/talk$/);
});

/** Sets the policy back (the worker's server serves the next tests). */
async function clearPolicy(server: TalkgroupServer, admin: Account) {
  await server.call('/user/api/setSecurityPolicy', { requireSecondFactor: [] }, admin.token);
}

test.describe('in French', () => {
  test.use({ language: 'fr' });

  test('the policy set at /settings takes a member to the setup, and nowhere else until it is done', async ({
    page,
    browser,
    server,
    admin,
    seed,
  }) => {
    const member = await seed.member();
    try {
      await useSession(page, admin);
      await page.goto('/dashboard');
      await page.getByRole('button', { name: 'Ouvrir le menu' }).click();
      await page.getByRole('link', { name: 'Paramètres' }).click();
      await expect(page.getByRole('heading', { level: 1, name: 'Paramètres' })).toBeVisible({ timeout: 60_000 });
      const policy = page.getByRole('region', { name: 'Sécurité : second facteur' });
      const forMembers = policy.getByRole('switch', { name: 'Exiger un second facteur pour les membres' });
      await forMembers.check();
      await expect(policy.getByRole('status')).toHaveText('Paramètres de sécurité enregistrés.');
      await expect(forMembers).toBeChecked();
      expect((await server.call('/user/api/getSecurityPolicy', {}, admin.token)).body.res).toEqual({
        requireSecondFactor: ['member'],
      });

      const context = await browser.newContext({ baseURL: server.baseURL });
      await context.addInitScript(() => localStorage.setItem('i18nextLng', 'fr'));
      const memberPage = await context.newPage();
      await memberPage.goto('/signin');
      await memberPage.getByRole('textbox', { name: 'Identifiant', exact: true }).fill(member.login);
      await memberPage.getByRole('textbox', { name: 'Mot de passe', exact: true }).fill(member.password);
      await memberPage.getByRole('button', { name: 'Se connecter', exact: true }).click();
      await expect(memberPage).toHaveURL(/\/account$/);
      const section = memberPage.getByRole('region', { name: 'Validation en deux étapes' });
      await expect(section).toContainText('Votre organisation exige un second facteur pour votre rôle');
      // Nothing else until it is done.
      await memberPage.goto('/talk');
      await expect(memberPage).toHaveURL(/\/account$/);

      await section.getByRole('button', { name: 'Configurer la validation en deux étapes' }).click();
      await expect(section.getByRole('img', { name: /QR code à scanner/ })).toBeVisible();
      const secret = (await section.getByTestId('totp-secret').textContent())?.trim() ?? '';
      await section.getByRole('textbox', { name: 'Code à 6 chiffres' }).fill(await codeOf(secret));
      await section.getByRole('button', { name: 'Confirmer' }).click();
      await expect(section.getByRole('list', { name: 'Codes de récupération' }).getByRole('listitem')).toHaveCount(10);
      await expect(section).not.toContainText('Votre organisation exige');
      await memberPage.goto('/talk');
      await expect(memberPage).toHaveURL(/\/talk$/);
      await context.close();
    } finally {
      await clearPolicy(server, admin);
    }
  });
});

test('an administrator resets the second factor of a user who lost a phone, from the user’s row', async ({
  page,
  server,
  admin,
  seed,
}) => {
  const member = await seed.member();
  const started = await server.call('/user/api/startTotpSetup', {}, member.token);
  const confirmed = await server.call(
    '/user/api/confirmTotpSetup',
    { code: await codeOf(started.body.res.secret) },
    member.token,
  );
  expect(confirmed.status).toBe(200);
  const withPassword = { user_email: member.login, user_password: member.password };
  expect((await server.call('/user/api/login', withPassword)).body.code).toBe('second_factor_required');

  await useSession(page, admin);
  await page.goto('/usersList');
  await page.getByRole('searchbox', { name: 'Search users' }).fill(member.login);
  const name = `${member.firstName} ${member.lastName}`;
  await page.getByRole('button', { name: `Reset second factor of ${name}` }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Reset second factor' }).click();
  await expect(page.getByText(`The second factor of ${name} was reset.`)).toBeVisible();
  expect((await server.call('/user/api/login', withPassword)).status).toBe(200);
});
