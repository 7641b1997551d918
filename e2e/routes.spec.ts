/** Routes and guards of spec section 2, and the session check on load (section 4). */
import { expect, test, useSession } from './fixtures.ts';

const GUARDED = ['/', '/dashboard', '/usersList', '/channelsList', '/activities', '/groupCallView/Alpha'];

test.describe('without a session', () => {
  for (const path of GUARDED) {
    test(`${path} goes to /signin`, async ({ page }) => {
      await page.goto(path);
      await expect(page).toHaveURL(/\/signin$/);
      await expect(page.getByRole('heading', { name: 'Sign in', level: 1 })).toBeVisible();
    });
  }

  for (const path of ['/signin', '/Signin', '/signup']) {
    test(`${path} shows its form`, async ({ page }) => {
      await page.goto(path);
      await expect(page).toHaveURL(new RegExp(`${path}$`));
      const name = path === '/signup' ? 'Sign up' : 'Sign in';
      await expect(page.getByRole('button', { name, exact: true })).toBeVisible();
    });
  }

  for (const path of [
    '/mobileCallView/Alpha',
    '/join/Alpha',
    `/userCallView/${encodeURIComponent('{"channelId":1}')}`,
  ]) {
    test(`${path} opens without a guard`, async ({ page }) => {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      expect(new URL(page.url()).pathname).toBe(path.split('?')[0]);
      await expect(page.getByText('The page you are looking for does not exist.')).toHaveCount(0);
    });
  }
});

test.describe('with a session', () => {
  test('/ goes to /dashboard', async ({ page, admin }) => {
    await useSession(page, admin);
    await page.goto('/');
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  for (const path of ['/signin', '/Signin', '/signup']) {
    test(`${path} goes to /dashboard`, async ({ page, admin }) => {
      await useSession(page, admin);
      await page.goto(path);
      await expect(page).toHaveURL(/\/dashboard$/);
    });
  }

  for (const path of ['/dashboard', '/usersList', '/channelsList', '/activities', '/groupCallView/Alpha']) {
    test(`${path} opens inside the shell`, async ({ page, admin }) => {
      await useSession(page, admin);
      await page.goto(path);
      await expect(page).toHaveURL(new RegExp(`${path}$`));
      await expect(page.getByRole('button', { name: /Account menu/ })).toBeVisible();
      // The page itself (another feature's code and data) may take a moment more on a busy machine.
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible({ timeout: 60_000 });
    });
  }

  test('an invalid token is cleared on load and the user goes to /signin', async ({ page, admin }) => {
    await useSession(page, { ...admin, token: 'not-a-real-token' }, { remember: true });
    await page.goto('/dashboard');
    await expect(page).toHaveURL(/\/signin$/);
    const stored = await page.evaluate(() => ({
      session: Object.keys(sessionStorage),
      local: Object.keys(localStorage),
    }));
    expect(stored.session).toEqual([]);
    expect(stored.local).toEqual(['i18nextLng']);
  });

  test('a session revoked on the server sends the user to /signin on the next call', async ({ page, server, seed }) => {
    const member = await seed.member();
    await useSession(page, member);
    await page.goto('/dashboard');
    await expect(page.getByRole('button', { name: /Account menu/ })).toBeVisible();
    await server.call('/user/api/logout', { userId: member.id }, member.token);
    await page.reload();
    await expect(page).toHaveURL(/\/signin$/);
    expect(await page.evaluate(() => sessionStorage.getItem('TOKEN_KEY'))).toBeNull();
  });
});

test.describe('404', () => {
  for (const path of ['/notFound', '/no/such/page', '/usersList/42']) {
    test(`${path} shows the 404 page`, async ({ page }) => {
      await page.goto(path);
      await expect(page.getByText('The page you are looking for does not exist.')).toBeVisible();
      expect(new URL(page.url()).pathname).toBe(path);
    });
  }

  test('the 404 page leads back home', async ({ page }) => {
    await page.goto('/no/such/page');
    await page.getByRole('link', { name: 'Back to home' }).click();
    await expect(page).toHaveURL(/\/signin$/);
  });
});
