/**
 * Members' statuses shown live (issue 49), in French: a member sets its status over HTTP and the dispatcher's
 * tile on /dispatch and the administrator's users list show it at once with its age; the dispatcher sets another
 * member's from its tile ("Statut de {name}"), which the users list follows; "Filtrer par statut" keeps the
 * members with one status, or those without. Who may set what and who hears of it is
 * packages/server/test/statuses.test.ts's.
 */
import type { Locator } from '@playwright/test';
import { rowAction } from './dispatch-support.ts';
import { test, unique } from './fixtures.ts';
import { openAs } from './room-support.ts';
import { expect } from './talk-support.ts';

test.describe.configure({ timeout: 240_000 });

interface Status {
  id: number;
  label: { fr: string; en: string; de: string };
}

test('a status set over HTTP shows live on /dispatch and the users list, and the list filters by it', async ({
  browser,
  server,
  admin,
  seed,
}) => {
  // One word in both members' last names: the users list's search keeps them alone.
  const tag = unique('Stat').split(' ')[1];
  const channel = await seed.channel(unique('Quai'));
  const desk = await seed.member({ firstName: 'Dana', lastName: 'Desk', role: 'dispatcher' });
  const mia = await seed.member({ firstName: 'Mia', lastName: `Field${tag}` });
  const noe = await seed.member({ firstName: 'Noé', lastName: `Bay${tag}` });
  await seed.addToChannel(channel.id, [desk.id, mia.id, noe.id]);
  await server.call(
    '/user/api/setMonitorList',
    { channels: [{ channelId: channel.id, volume: 100, muted: false }], unselectedVolume: 40 },
    desk.token,
  );
  const statuses = (await server.call<{ res: Status[] }>('/user/api/listStatuses', {}, admin.token)).body.res;
  const byLabel = (fr: string) => statuses.find((status) => status.label.fr === fr) as Status;
  const [miaName, noeName] = [`Mia Field${tag}`, `Noé Bay${tag}`];

  const d = await openAs(browser, server.baseURL, desk, { language: 'fr' });
  const a = await openAs(browser, server.baseURL, admin, { language: 'fr' });
  try {
    await d.page.goto('/dispatch');
    const tile = d.page.getByRole('region', { name: `Canal ${channel.name}` });
    const people = tile.getByRole('list', { name: `Membres de ${channel.name}` });
    // A first visit on a busy machine may take long (the page and its language load).
    await expect(people.getByRole('listitem').filter({ hasText: miaName })).toBeVisible({ timeout: 90_000 });

    await a.page.goto('/usersList');
    await a.page.getByRole('searchbox', { name: 'Rechercher un coéquipier' }).fill(tag);
    const rowOf = (name: string): Locator => a.page.getByRole('row').filter({ hasText: name });
    await expect(rowOf(miaName)).toBeVisible({ timeout: 90_000 });
    await expect(rowOf(noeName)).toBeVisible();

    // The member sets its own status: both pages show it, with its age, without a reload.
    const onScene = byLabel('Sur place');
    expect((await server.call('/user/api/setMyStatus', { statusId: onScene.id }, mia.token)).status).toBe(200);
    const miaAtDesk = people.getByRole('listitem').filter({ hasText: miaName });
    await expect(miaAtDesk.getByRole('img', { name: 'Sur place · < 1 min' })).toBeVisible();
    await expect(rowOf(miaName).getByRole('img', { name: 'Sur place · < 1 min' })).toBeVisible();

    // The dispatcher sets Noé's from its tile; the administrator's list follows, naming who set it.
    await (await rowAction(people, noeName, `Statut de ${noeName}`, { language: 'fr' })).click();
    await expect(d.page.getByRole('menuitemradio', { name: 'Aucun' })).toHaveAttribute('aria-checked', 'true');
    await d.page.getByRole('menuitemradio', { name: 'En route' }).click();
    await expect(
      people.getByRole('listitem').filter({ hasText: noeName }).getByText('En route · < 1 min'),
    ).toBeVisible();
    await expect(rowOf(noeName).getByRole('img', { name: 'En route · < 1 min (Défini par Dana Desk)' })).toBeVisible();
    const noeNow = await server.call('/user/api/getMemberStatuses', { userIds: [noe.id] }, admin.token);
    expect(noeNow.body.res).toEqual([expect.objectContaining({ userId: noe.id, statusId: byLabel('En route').id })]);

    // The filter: one status, then the members without one.
    const filter = a.page.getByRole('combobox', { name: 'Filtrer par statut' });
    await filter.click();
    await a.page.getByRole('option', { name: 'Sur place' }).click();
    await expect(rowOf(miaName)).toBeVisible();
    await expect(rowOf(noeName)).toHaveCount(0);
    await filter.click();
    await a.page.getByRole('option', { name: 'Sans statut' }).click();
    await expect(rowOf(miaName)).toHaveCount(0);
    await expect(rowOf(noeName)).toHaveCount(0);
    // Mia's status cleared on her side: the filtered list takes her in at once.
    await server.call('/user/api/setMyStatus', { statusId: null }, mia.token);
    await expect(rowOf(miaName)).toBeVisible();
    await expect(miaAtDesk.getByRole('img', { name: /Sur place/ })).toHaveCount(0);
  } finally {
    await d.close();
    await a.close();
  }
});
