/**
 * The audit log page (issue 16): an administrator's change appears with its author, action, target and
 * changed fields, the nav leads there, and the target filter narrows the list. Runs under the server's
 * Content-Security-Policy like every page.
 */
import { expect, test, unique, useSession } from './fixtures.ts';

test('an administrator finds its channel change in the audit log, in French', async ({ page, admin, seed, server }) => {
  const name = unique('Audit');
  const channel = await seed.channel(name);
  await server.call('/user/api/updateChannel', { channelId: channel.id, channelName: `${name} bis` }, admin.token);
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  await page.context().addInitScript(() => localStorage.setItem('i18nextLng', 'fr'));
  await useSession(page, admin);
  await page.goto('/dashboard');
  await page.getByRole('button', { name: 'Ouvrir le menu' }).click();
  await page.getByRole('link', { name: 'Journal d’audit' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Journal d’audit' })).toBeVisible({ timeout: 60_000 });
  const row = page
    .getByRole('row')
    .filter({ hasText: `${name} bis` })
    .filter({ hasText: 'Modification d’un canal' });
  await expect(row).toBeVisible();
  await expect(row).toContainText(`${name} → ${name} bis`);

  await page.getByRole('combobox', { name: 'Cible' }).click();
  await page.getByRole('option', { name: 'Coéquipier' }).click();
  await expect(page.getByRole('row').filter({ hasText: 'Modification d’un canal' })).toHaveCount(0);
  expect(violations).toEqual([]);
});
