/**
 * Members' statuses (issue 49): an administrator edits the list on /settings (in French: a refused save shows the
 * server's sentence, then a renamed, a deleted, an added and moved status are saved), and a member sets its own
 * on /talk (in English), which follows it to a channel page and reaches the administrator's activity log.
 * What the server keeps and who hears of it is packages/server/test/statuses.test.ts's.
 */
import { test, unique } from './fixtures.ts';
import { openAs } from './room-support.ts';
import { expect, PHONE } from './talk-support.ts';

test.describe.configure({ timeout: 240_000 });

test('an administrator edits the statuses on /settings', async ({ browser, server, admin }) => {
  const a = await openAs(browser, server.baseURL, admin, { language: 'fr' });
  const before = (await server.call('/user/api/listStatuses', {}, admin.token)).body.res;
  try {
    const { page } = a;
    await page.goto('/settings');
    const section = page.getByRole('region', { name: 'Statuts' });
    const row = (label: string) => section.getByRole('group', { name: `Statut ${label}` });
    // A first visit on a busy machine may take long (the page and its language load).
    await expect(row('Disponible')).toBeVisible({ timeout: 90_000 });
    await expect(section.getByRole('group')).toHaveCount(4);

    // A new row left empty: the server's refusal is shown, nothing is saved.
    await section.getByRole('button', { name: 'Ajouter un statut' }).click();
    await section.getByRole('button', { name: 'Enregistrer' }).click();
    await expect(section.getByRole('alert')).toContainText('must not be empty');

    const added = row('nouveau statut');
    await expect(added.getByLabel('Libellé (français)')).toHaveAttribute('aria-invalid', 'true');
    await added.getByLabel('Libellé (français)').fill('Au dépôt');
    await row('Au dépôt').getByLabel('Libellé (anglais)').fill('At the depot');
    await row('Au dépôt').getByLabel('Libellé (allemand)').fill('Im Depot');
    await row('Au dépôt').getByLabel('Couleur').fill('#6a1b9a');
    await section.getByRole('button', { name: 'Monter Au dépôt' }).click();
    await row('En route').getByLabel('Libellé (français)').fill('En chemin');
    await section.getByRole('button', { name: 'Supprimer En pause' }).click();
    await section.getByRole('button', { name: 'Enregistrer' }).click();
    await expect(page.getByText('Statuts enregistrés.')).toBeVisible();

    const saved = await server.call<{ res: Array<{ label: { fr: string; en: string }; color: string }> }>(
      '/user/api/listStatuses',
      {},
      admin.token,
    );
    expect(saved.body.res.map((status) => status.label.fr)).toEqual([
      'Disponible',
      'En chemin',
      'Sur place',
      'Au dépôt',
    ]);
    expect(saved.body.res[3]).toMatchObject({ label: { en: 'At the depot' }, color: '#6a1b9a' });

    await page.reload();
    await expect(section.getByRole('group')).toHaveCount(4);
    await expect(row('Au dépôt').getByLabel('Libellé (anglais)')).toHaveValue('At the depot');
  } finally {
    await a.close();
    // The worker's other tests find the list as the server starts it.
    const restored = before.map(({ label, color }: { label: object; color: string }) => ({ label, color }));
    await server.call('/user/api/setStatuses', { statuses: restored }, admin.token);
  }
});

test('a member sets its status on /talk and the administrator sees it', async ({ browser, server, admin, seed }) => {
  const channel = await seed.channel(unique('Quai'));
  const mia = await seed.member({ firstName: 'Mia', lastName: 'Field' });
  await seed.addToChannel(channel.id, [mia.id]);
  const m = await openAs(browser, server.baseURL, mia, { viewport: PHONE });
  const a = await openAs(browser, server.baseURL, admin, { language: 'fr' });
  try {
    // The administrator's log opens meanwhile (a first visit on a busy machine takes a while).
    const log = a.page.goto('/activities');
    await m.page.goto('/talk');
    const mine = m.page.getByRole('button', { name: 'My status' });
    await expect(mine).toHaveText('My status', { timeout: 90_000 });
    await mine.click();
    await expect(m.page.getByRole('menuitemradio', { name: 'None' })).toHaveAttribute('aria-checked', 'true');
    await m.page.getByRole('menuitemradio', { name: 'On scene' }).click();
    await expect(mine).toHaveText('On scene');

    // From a channel page too, as it is.
    await m.page.getByRole('link', { name: new RegExp(channel.name) }).click();
    await expect(m.page.getByRole('heading', { level: 1, name: channel.name })).toBeVisible();
    await expect(m.page.getByRole('button', { name: 'My status' })).toHaveText('On scene');

    await log;
    await a.page.reload();
    await expect(a.page.getByText(/Mia Field\s?: statut Sur place/).first()).toBeVisible({ timeout: 90_000 });

    // Set from elsewhere (a dispatcher, another device): the member's page follows.
    const statuses = await server.call<{ res: Array<{ id: number; label: { en: string } }> }>(
      '/user/api/listStatuses',
      {},
      admin.token,
    );
    const enRoute = statuses.body.res.find((status) => status.label.en === 'En route');
    await server.call('/user/api/setUserStatus', { userId: mia.id, statusId: enRoute?.id }, admin.token);
    await expect(m.page.getByRole('button', { name: 'My status' })).toHaveText('En route');
  } finally {
    await m.close();
    await a.close();
  }
});
