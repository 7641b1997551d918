/** The shell (spec section 2) and the languages (sections 1, 9). */
import { expect, test, useSession } from './fixtures.ts';

test.describe('shell', () => {
  test('shows the clock ticking, the navigation and the signed-in name', async ({ page, admin }) => {
    await page.setViewportSize({ width: 1600, height: 900 });
    await useSession(page, admin);
    await page.goto('/dashboard');
    await expect(page.getByRole('button', { name: /Account menu/ })).toContainText('Ada Lovelace');
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    await expect(nav.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('aria-current', 'page');
    await expect(nav.getByRole('link', { name: 'Users' })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Channels' })).toBeVisible();

    const clock = page.getByRole('timer', { name: 'Current time' }).locator('time');
    await expect(clock).toHaveText(/^\d\d:\d\d:\d\d$/);
    const first = await clock.textContent();
    await expect(clock).not.toHaveText(first ?? '');
  });

  test('the navigation links open their pages', async ({ page, admin }) => {
    await page.setViewportSize({ width: 1600, height: 900 });
    await useSession(page, admin);
    await page.goto('/dashboard');
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    await nav.getByRole('link', { name: 'Users' }).click();
    await expect(page).toHaveURL(/\/usersList$/);
    await nav.getByRole('link', { name: 'Channels' }).click();
    await expect(page).toHaveURL(/\/channelsList$/);
    await nav.getByRole('link', { name: 'Dashboard' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  test('the add icons open the users and channels pages asking for a new one', async ({ page, admin }) => {
    await page.setViewportSize({ width: 1600, height: 900 });
    await useSession(page, admin);
    await page.goto('/dashboard');
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    await nav.getByRole('button', { name: 'Add user' }).click();
    await expect(page).toHaveURL(/\/usersList(\?add=1)?$/);
    await page.goto('/dashboard');
    await nav.getByRole('button', { name: 'Add channel' }).click();
    await expect(page).toHaveURL(/\/channelsList(\?add=1)?$/);
  });

  test('from 1480px the sidebar stays open', async ({ page, admin }) => {
    await page.setViewportSize({ width: 1480, height: 900 });
    await useSession(page, admin);
    await page.goto('/dashboard');
    await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Open the menu' })).toHaveCount(0);
  });

  for (const viewport of [
    { width: 1479, height: 900 },
    { width: 390, height: 844 },
  ]) {
    test(`at ${viewport.width}px the sidebar is a drawer toggled from the top bar`, async ({ page, admin }) => {
      await page.setViewportSize(viewport);
      await useSession(page, admin);
      await page.goto('/dashboard');
      const nav = page.getByRole('navigation', { name: 'Main navigation' });
      await expect(nav).toBeHidden();

      await page.getByRole('button', { name: 'Open the menu' }).click();
      await expect(nav).toBeVisible();
      await page.getByRole('button', { name: 'Close the menu' }).click();
      await expect(nav).toBeHidden();

      await page.getByRole('button', { name: 'Open the menu' }).click();
      await nav.getByRole('link', { name: 'Channels' }).click();
      await expect(page).toHaveURL(/\/channelsList$/);
      await expect(nav).toBeHidden();
      await expect(page.getByRole('button', { name: /Account menu/ })).toContainText('Ada Lovelace');
    });
  }
});

test.describe('languages', () => {
  test.use({ language: null });

  test('French is the default', async ({ page }) => {
    await page.goto('/signin');
    await expect(page.getByRole('heading', { name: 'Connexion', level: 1 })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Se connecter', exact: true })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
  });

  test('the sign-in page switches language and keeps the choice', async ({ page }) => {
    await page.goto('/signin');
    await page.getByRole('group', { name: 'Langue' }).getByRole('button', { name: 'En' }).click();
    await expect(page.getByRole('heading', { name: 'Sign in', level: 1 })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await page.getByRole('button', { name: 'De' }).click();
    await expect(page.getByRole('button', { name: 'Anmelden', exact: true })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'de');
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Anmelden', level: 1 })).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('i18nextLng'))).toBe('de');
  });

  test('the shell menu switches language, and the choice survives a reload', async ({ page, admin }) => {
    await page.setViewportSize({ width: 1600, height: 900 });
    await useSession(page, admin);
    await page.goto('/activities');
    const nav = page.getByRole('navigation', { name: 'Navigation principale' });
    await expect(nav.getByRole('link', { name: 'Tableau de bord' })).toBeVisible();

    await page.getByRole('button', { name: /Menu du compte/ }).click();
    await page.getByRole('menuitemradio', { name: /English/ }).click();
    await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Dashboard' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');

    await page.getByRole('button', { name: /Account menu/ }).click();
    await expect(page.getByRole('menuitemradio', { name: /English/ })).toHaveAttribute('aria-checked', 'true');
    await page.getByRole('menuitemradio', { name: /Deutsch/ }).click();
    await expect(page.getByRole('link', { name: 'Übersicht' })).toBeVisible();
    await expect(page.getByRole('timer', { name: 'Aktuelle Uhrzeit' })).toContainText(
      /(Montag|Dienstag|Mittwoch|Donnerstag|Freitag|Samstag|Sonntag)/,
    );

    await page.reload();
    await expect(page.getByRole('link', { name: 'Benutzer' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'de');
    expect(await page.evaluate(() => localStorage.getItem('i18nextLng'))).toBe('de');
  });

  test('the language choice survives a logout', async ({ page, seed }) => {
    const member = await seed.member();
    await page.addInitScript(() => {
      if (!localStorage.getItem('i18nextLng')) localStorage.setItem('i18nextLng', 'de');
    });
    await useSession(page, member);
    await page.goto('/activities');
    await page.getByRole('button', { name: /Kontomenü/ }).click();
    await page.getByRole('menuitem', { name: 'Abmelden' }).click();
    await page.getByRole('button', { name: 'Ja, sicher' }).click();
    await expect(page.getByRole('heading', { name: 'Anmelden', level: 1 })).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('i18nextLng'))).toBe('de');
  });
});
