/** Steps shared by the users specs. */
import type { Page } from '@playwright/test';
import { type Account, expect, useSession } from './fixtures.ts';

export async function openUsers(page: Page, admin: Account) {
  await useSession(page, admin);
  await page.goto('/usersList');
  // The first page of a worker also waits for the server's first answers.
  await expect(page.getByRole('main').locator('tbody tr').first()).toBeVisible({ timeout: 60_000 });
}
