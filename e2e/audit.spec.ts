/**
 * The audit log page (issue 16): an administrator's change appears with its author, action, target and
 * changed fields, the nav leads there, and the target filter narrows the list. Runs under the server's
 * Content-Security-Policy like every page.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
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

test('the audit log names its actions and the people its changes hold, under "Auteur" / "By" (issue 70)', async ({
  page,
  admin,
  seed,
  server,
}, testInfo) => {
  const channel = await seed.channel(unique('Chantier'));
  const ines = await seed.member({ firstName: 'Inès', lastName: unique('Roux') });
  const leo = await seed.member({ firstName: 'Léo', lastName: unique('Garnier') });
  await seed.addToChannel(channel.id, [ines.id, leo.id]);
  // A safety save that changes nothing: audited as 'settings.safety', the organisation's settings as they were.
  const safety = (await server.call('/user/api/getSafetySettings', {}, admin.token)).body.res;
  const saved = await server.call(
    '/user/api/setSafetySettings',
    { manDown: { stillSeconds: safety.manDown.stillSeconds } },
    admin.token,
  );
  expect(saved.status).toBe(200);
  const [inesName, leoName] = [`${ines.firstName} ${ines.lastName}`, `${leo.firstName} ${leo.lastName}`];

  for (const [language, words] of [
    [
      'fr',
      { title: 'Journal d’audit', by: 'Auteur', members: 'Membres modifiés', safety: 'Sécurité des travailleurs' },
    ],
    ['en', { title: 'Audit log', by: 'By', members: 'Members changed', safety: 'Worker safety' }],
  ] as const) {
    await page.context().addInitScript((lng) => localStorage.setItem('i18nextLng', lng), language);
    await useSession(page, admin);
    await page.goto('/auditLog');
    await expect(page.getByRole('heading', { level: 1, name: words.title })).toBeVisible({ timeout: 60_000 });
    await expect(page.getByRole('columnheader', { name: words.by, exact: true })).toBeVisible();
    const membership = page.getByRole('row').filter({ hasText: channel.name }).filter({ hasText: words.members });
    await expect(membership).toBeVisible();
    // The members by their names, never their ids.
    await expect(membership).toContainText(`${inesName}, ${leoName}`);
    await expect(membership).not.toContainText(`${ines.id}, ${leo.id}`);
    await expect(page.getByRole('row').filter({ hasText: words.safety }).first()).toBeVisible();
    await expect(page.getByRole('table')).not.toContainText(/[«“]\s?safety\s?[»”]/);
    // No action shows as its raw key.
    await expect(page.getByRole('table')).not.toContainText(/\b(settings|membership|user|channel)\.[a-z_]+/i);
    if (language === 'fr') {
      await page.setViewportSize({ width: 1366, height: 850 });
      const shot = testInfo.outputPath('audit-log.png');
      await page.screenshot({ path: shot });
      if (process.env.E2E_DOCS_SCREENSHOTS) {
        mkdirSync(path.resolve('docs/images'), { recursive: true });
        copyFileSync(shot, path.resolve('docs/images/audit-log.png'));
      }
    }
  }
});
