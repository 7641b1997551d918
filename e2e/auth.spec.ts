/** Sign-in, sign-up, Remember me and logout (spec sections 2, 4, 5, 8). */
import { expect, signIn, startIn, test, useSession } from './fixtures.ts';

test.describe('sign-in', () => {
  test('shows the version and the mode at the bottom', async ({ page }) => {
    await page.goto('/signin');
    const footer = page.getByRole('contentinfo');
    await expect(footer).toContainText('version 2.0.2');
    await expect(footer).toContainText('production');
  });

  test('checks the login as an e-mail of 2 to 50 characters and blocks the form', async ({ page }) => {
    await page.goto('/signin');
    const loginField = page.getByRole('textbox', { name: 'Login', exact: true });
    await loginField.fill('ada');
    await loginField.blur();
    await expect(page.getByText('Invalid email')).toBeVisible();
    await loginField.fill(`${'a'.repeat(45)}@example.org`);
    await expect(page.getByText('login is Too Long!')).toBeVisible();
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill('whatever');
    let called = false;
    page.on('request', (request) => {
      if (request.url().endsWith('/user/api/login')) called = true;
    });
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(loginField).toBeFocused();
    expect(called).toBe(false);
  });

  test('hints at the password length', async ({ page }) => {
    await page.goto('/signin');
    const password = page.getByRole('textbox', { name: 'Password', exact: true });
    // As the server applies it (issue 58): too short below its minimum of 8, too long only past 1,024.
    await password.fill('short');
    await expect(page.getByText('password is Too Short!')).toBeVisible();
    await password.fill('a-long-password');
    await expect(page.getByText(/password is Too/)).toHaveCount(0);
    await password.fill('x'.repeat(1025));
    await expect(page.getByText('password is Too Long!')).toBeVisible();
    await password.fill('fine-password');
    await expect(page.getByText(/password is Too/)).toHaveCount(0);
  });

  test('a wrong password shows the server message', async ({ page, admin }) => {
    await page.goto('/signin');
    await page.getByRole('textbox', { name: 'Login', exact: true }).fill(admin.login);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill('wrong-password');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page.getByRole('alert')).toHaveText('Invalid login or password.');
    await expect(page).toHaveURL(/\/signin$/);
  });

  test.describe('in French', () => {
    test.use({ language: 'fr' });
    test("says a wrong password in the reader's language and offers no sign-up that cannot work", async ({
      page,
      admin,
    }) => {
      await page.goto('/signin');
      await expect(page.getByRole('button', { name: 'Se connecter', exact: true })).toBeVisible();
      await expect(page.getByRole('link', { name: "S'inscrire" })).toHaveCount(0);
      await page.getByRole('textbox', { name: 'Identifiant', exact: true }).fill(admin.login);
      await page.getByRole('textbox', { name: 'Mot de passe', exact: true }).fill('wrong-password');
      await page.getByRole('button', { name: 'Se connecter', exact: true }).click();
      await expect(page.getByRole('alert')).toHaveText('Identifiant ou mot de passe incorrect.');
    });
  });

  test("an unreachable server shows 'Error while login'", async ({ page, admin }) => {
    await page.route('**/user/api/login', (route) => route.abort('connectionrefused'));
    await page.goto('/signin');
    await page.getByRole('textbox', { name: 'Login', exact: true }).fill(admin.login);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(admin.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page.getByRole('alert')).toHaveText('Error while login');
  });

  test('success stores the user and the token and opens /channelsList', async ({ page, admin }) => {
    await signIn(page, admin);
    await expect(page.getByRole('button', { name: /Account menu/ })).toContainText('Ada Lovelace');
    const stored = await page.evaluate(() => ({
      sessionToken: sessionStorage.getItem('TOKEN_KEY'),
      localToken: localStorage.getItem('TOKEN_KEY'),
      id: localStorage.getItem('id'),
      email: localStorage.getItem('email'),
      firstName: localStorage.getItem('firstName'),
      lastName: localStorage.getItem('lastName'),
      role: localStorage.getItem('role'),
    }));
    expect(stored).toMatchObject({
      localToken: null,
      id: String(admin.id),
      email: admin.login,
      firstName: 'Ada',
      lastName: 'Lovelace',
      role: 'admin',
    });
    expect(stored.sessionToken).toMatch(/.{20,}/);
  });

  test('a long password signs in with no length warning', async ({ page, seed }) => {
    const member = await seed.member({ password: 'a-very-long-password' });
    await page.goto('/signin');
    await page.getByRole('textbox', { name: 'Login', exact: true }).fill(member.login);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(member.password);
    await expect(page.getByText(/password is Too/)).toHaveCount(0);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    // A member lands in its own app.
    await expect(page).toHaveURL(/\/talk$/);
  });

  test('the password can be shown and hidden', async ({ page }) => {
    await page.goto('/signin');
    const password = page.getByRole('textbox', { name: 'Password', exact: true });
    await password.fill('secret');
    await expect(password).toHaveAttribute('type', 'password');
    await page.getByRole('button', { name: 'Show the password' }).click();
    await expect(password).toHaveAttribute('type', 'text');
    await page.getByRole('button', { name: 'Hide the password' }).click();
    await expect(password).toHaveAttribute('type', 'password');
  });
});

test.describe('Remember me', () => {
  test('keeps the session across a browser restart when ticked', async ({ browser, admin, server }) => {
    const first = await browser.newContext({ baseURL: server.baseURL });
    await startIn(first, 'en');
    const page = await first.newPage();
    await signIn(page, admin, { remember: true });
    expect(await page.evaluate(() => localStorage.getItem('TOKEN_KEY'))).toMatch(/.{20,}/);
    const storage = await first.storageState();
    await first.close();

    // A restarted browser keeps localStorage and loses sessionStorage.
    const restarted = await browser.newContext({ baseURL: server.baseURL, storageState: storage });
    const again = await restarted.newPage();
    await again.goto('/dashboard');
    await expect(again).toHaveURL(/\/dashboard$/);
    await expect(again.getByRole('button', { name: /Account menu/ })).toContainText('Ada Lovelace');
    await restarted.close();
  });

  test('does not keep it when not ticked', async ({ browser, admin, server }) => {
    const first = await browser.newContext({ baseURL: server.baseURL });
    await startIn(first, 'en');
    const page = await first.newPage();
    await signIn(page, admin);
    const storage = await first.storageState();
    await first.close();

    const restarted = await browser.newContext({ baseURL: server.baseURL, storageState: storage });
    const again = await restarted.newPage();
    await again.goto('/dashboard');
    await expect(again).toHaveURL(/\/signin$/);
    await restarted.close();
  });
});

test.describe('logout', () => {
  test('asks for confirmation, then signs out on the server and in the browser', async ({ page, server, seed }) => {
    const member = await seed.member({ firstName: 'Mia', lastName: 'Leaving' });
    await signIn(page, member, { remember: true });
    const token = await page.evaluate(() => sessionStorage.getItem('TOKEN_KEY'));

    await page.getByRole('button', { name: /Account menu/ }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Are you sure?' });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Let me back' }).click();
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(/\/talk$/);

    await page.getByRole('button', { name: /Account menu/ }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.getByRole('button', { name: "I'm, Sure" }).click();
    await expect(page).toHaveURL(/\/signin$/);

    const stored = await page.evaluate(() => [
      sessionStorage.getItem('TOKEN_KEY'),
      localStorage.getItem('TOKEN_KEY'),
      localStorage.getItem('id'),
      localStorage.getItem('email'),
      localStorage.getItem('firstName'),
    ]);
    expect(stored).toEqual([null, null, null, null, null]);
    const check = await server.call('/user/api/isValidToken', { token }, token ?? undefined);
    expect(check.status).toBe(401);

    await page.goto('/dashboard');
    await expect(page).toHaveURL(/\/signin$/);
  });
});

test.describe('sign-up', () => {
  test('on an empty database creates the administrator, then refuses the next one', async ({ page, freshServer }) => {
    // No account yet: sign-in offers sign-up.
    await page.goto(`${freshServer.baseURL}/signin`);
    await page.getByRole('link', { name: 'Sign up' }).click();
    await expect(page).toHaveURL(/\/signup$/);
    await page.getByLabel('First name').fill('Grace');
    await page.getByLabel('Last name').fill('Hopper');
    await page.getByLabel('Login (e-mail)').fill('grace@example.org');
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill('hopper12');
    await page.getByLabel('Phone number').fill('+33 6 12 34 56 78');
    await page.getByRole('button', { name: 'Sign up' }).click();

    await expect(page).toHaveURL(/\/signin$/);
    await expect(page.getByRole('alert')).toHaveText('Register successfully');
    // No PUBLIC_URL on this server: no passkey is offered (issue 47); the options were read on the first visit.
    await expect(page.getByRole('button', { name: 'Sign in with a passkey' })).toHaveCount(0);
    await expect(page.getByRole('textbox', { name: 'Login', exact: true })).toHaveValue('grace@example.org');
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill('hopper12');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page).toHaveURL(/\/channelsList$/);
    expect(await page.evaluate(() => localStorage.getItem('role'))).toBe('admin');
    await page.goto(`${freshServer.baseURL}/account`);
    await expect(page.getByRole('region', { name: 'Passkeys' })).toContainText(
      'Passkeys are not available on this server',
    );

    // Public sign-up is closed once an account exists: the server's sentence is shown.
    const other = await page.context().browser()!.newContext();
    await startIn(other, 'en');
    const second = await other.newPage();
    await second.goto(`${freshServer.baseURL}/signup`);
    await second.getByLabel('First name').fill('Eve');
    await second.getByLabel('Last name').fill('Late');
    await second.getByLabel('Login (e-mail)').fill('eve@example.org');
    await second.getByRole('textbox', { name: 'Password', exact: true }).fill('evepass1');
    await second.getByRole('button', { name: 'Sign up' }).click();
    const refusal = second.getByRole('alert');
    await expect(refusal).toContainText('Sign-up refused');
    await expect(refusal).toContainText('Sign-up is closed: an administrator must create your account.');
    await expect(second).toHaveURL(/\/signup$/);
    await other.close();
  });

  test('requires the names and a valid login before calling the server', async ({ page }) => {
    await page.goto('/signup');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await expect(page.getByText('Required')).toHaveCount(4); // names, login, password
    await expect(page.getByLabel('First name')).toBeFocused();
    await page.getByLabel('Login (e-mail)').fill('not an email');
    await expect(page.getByText('Invalid email')).toBeVisible();
  });

  test("an unreachable server shows 'Error while signup'", async ({ page }) => {
    await page.route('**/user/api/signUpUser', (route) => route.abort('connectionrefused'));
    await page.goto('/signup');
    await page.getByLabel('First name').fill('Net');
    await page.getByLabel('Last name').fill('Down');
    await page.getByLabel('Login (e-mail)').fill('net.down@example.org');
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill('password');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await expect(page.getByRole('alert')).toContainText('Error while signup');
  });
});

test('a signed-in page survives a reload in the same tab', async ({ page, admin }) => {
  await useSession(page, admin);
  await page.goto('/usersList');
  await page.reload();
  await expect(page).toHaveURL(/\/usersList$/);
});
