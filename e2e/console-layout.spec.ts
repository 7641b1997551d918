/**
 * A console that keeps its shape (issue 58), checked by bounding boxes at the sizes a control room uses:
 * the dispatch console with five members in a channel (sockets, as their phones) and an SOS at 1280x720,
 * 1366x850 and 1920x1080: each tile's controls whole, inside the tile and the screen, apart, their texts
 * uncut, the members' list scrolling inside the tile, the title, state and talk button on screen (nothing
 * fixed covers them); the page's own controls not under the SOS band. Then the users table (fits its card
 * from 1280 px, scrolls inside it below, a role column that sorts and filters), the add-user dialog's
 * actions in view at 1366x850, and the whole brand on /talk at 390 px.
 */
import { type ConsoleScene, consoleScene, hangUp } from './console-scene.ts';
import { expect as baseExpect, test, unique } from './fixtures.ts';
import { boxProblems, nextFrames, onScreen, uncovered } from './layout-checks.ts';
import { openAs, roomUrl } from './room-support.ts';

const expect = baseExpect.configure({ timeout: 60_000 });
test.describe.configure({ timeout: 300_000 });

const SIZES = [
  { width: 1280, height: 720 },
  { width: 1366, height: 850 },
  { width: 1920, height: 1080 },
];

test('the dispatch console keeps its shape at three sizes with five in a channel and an SOS', async ({
  browser,
  server,
  admin,
  seed,
}) => {
  let scene: ConsoleScene | undefined;
  try {
    scene = await consoleScene(server, admin, seed);
    const { dana, quai, channels } = scene;
    for (const viewport of SIZES) {
      const desk = await openAs(browser, server.baseURL, dana, { language: 'fr', viewport });
      try {
        const { page } = desk;
        await page.goto('/dispatch');
        const quaiTile = page.getByRole('region', { name: `Canal ${quai.name}` });
        const members = quaiTile.getByRole('list', { name: `Membres de ${quai.name}` });
        // The five phones and the desk itself in the channel, and the SOS on the tile.
        await expect(members.locator('[data-presence="inChannel"]')).toHaveCount(6);
        await expect(quaiTile.getByLabel(`SOS ouvert dans ${quai.name} d’Alex Martin`)).toBeVisible();
        for (const channel of channels) {
          const tile = page.getByRole('region', { name: `Canal ${channel.name}` });
          await expect(tile.getByRole('button', { name: `Parler sur ${channel.name}` })).toBeVisible();
          expect(await boxProblems(tile), `${channel.name} at ${viewport.width}x${viewport.height}`).toEqual([]);
        }
        // The members' list scrolls inside the tile rather than push the tile's end down.
        const list = await members.evaluate((element) => ({
          overflow: getComputedStyle(element).overflowY,
          scrolls: element.scrollHeight > element.clientHeight,
        }));
        expect(list.overflow).toBe('auto');
        expect(list.scrolls).toBe(true);

        // The page's own controls, at the top, are not under the SOS band.
        await page.evaluate(() => window.scrollTo(0, 0));
        await nextFrames(page);
        await expect(page.getByTestId('sos-banner')).toBeVisible();
        for (const control of [
          page.getByRole('heading', { level: 1, name: 'Console de répartition' }),
          page.getByRole('button', { name: /^Canaux écoutés/ }),
          page.getByRole('button', { name: 'Appel général' }),
        ])
          expect(await uncovered(control), `${control} at ${viewport.width}`).toBe(true);
        // At every size, the first row's title, state and talk button are on screen from the start (1280x720: what
        // is above the tiles tightens).
        const talk = quaiTile.getByRole('button', { name: `Parler sur ${quai.name}` });
        for (const control of [
          quaiTile.getByRole('heading', { level: 2 }),
          quaiTile.getByRole('status', { name: `${quai.name} : qui parle` }),
          talk,
        ])
          expect(await onScreen(control), `${control} at ${viewport.width}x${viewport.height}`).toBe(true);
        // Scrolled to, the title, the state and the talk button are on screen together and nothing covers them.
        await talk.evaluate((element) => element.scrollIntoView({ block: 'end' }));
        await nextFrames(page);
        for (const control of [
          quaiTile.getByRole('heading', { level: 2 }),
          quaiTile.getByRole('status', { name: `${quai.name} : qui parle` }),
          quaiTile.getByRole('button', { name: `Sélectionner ${quai.name}` }),
          talk,
        ])
          expect(await uncovered(control), `${control} at ${viewport.width}`).toBe(true);
      } finally {
        await desk.close();
      }
    }
  } finally {
    await hangUp(scene);
  }
});

test('the users table fits its card, scrolls inside it when narrower, and sorts and filters by role', async ({
  browser,
  server,
  admin,
  seed,
}) => {
  // The worker's server holds the users of its other tests too (dispatchers among them): the two of this test
  // share a family name of their own, which the search narrows the table to before the role filter.
  const family = `Rôle${unique('x').split(' ')[1]}`;
  const dana = await seed.member({ firstName: 'Dana', lastName: family, role: 'dispatcher' });
  await seed.member({ firstName: 'Mia', lastName: family });
  const office = await openAs(browser, server.baseURL, admin, {
    language: 'fr',
    viewport: { width: 1280, height: 720 },
  });
  try {
    const { page } = office;
    await page.goto('/usersList');
    const table = page.getByRole('table');
    // Named with the family name: the worker's other tests have their own Danas.
    await expect(table.getByRole('row', { name: new RegExp(`${dana.firstName} ${family}`) })).toBeVisible();
    const measure = () =>
      table.evaluate((element) => {
        const container = element.parentElement as HTMLElement;
        const card = container.getBoundingClientRect();
        const last = element.querySelector('tbody tr td:last-child')?.getBoundingClientRect();
        return {
          table: element.scrollWidth,
          container: container.clientWidth,
          lastInside: last !== undefined && last.right <= card.right + 1,
          pageFits: document.documentElement.scrollWidth <= window.innerWidth,
        };
      });
    const wide = await measure();
    expect(wide.table).toBeLessThanOrEqual(wide.container);
    expect(wide.lastInside).toBe(true);
    await expect(table.getByRole('button', { name: /Appel privé|Appeler/ }).first()).toBeVisible();

    // The role column: sorted, then filtered.
    const roles = () => table.locator('tbody tr').evaluateAll((rows) => rows.map((row) => row.textContent ?? ''));
    await table.getByRole('columnheader', { name: /Rôle/ }).getByRole('button').first().click();
    await expect.poll(async () => (await roles())[0]).toContain('Administrateur');
    await page.getByRole('searchbox', { name: 'Rechercher un coéquipier' }).fill(family);
    await expect(table.locator('tbody tr')).toHaveCount(2);
    await page.getByRole('combobox', { name: 'Filtrer par rôle' }).click();
    await page.getByRole('option', { name: 'Répartiteur' }).click();
    await expect(table.locator('tbody tr')).toHaveCount(1);
    await expect(table.getByRole('row', { name: new RegExp(`${dana.firstName} ${family}`) })).toBeVisible();
    await page.getByRole('searchbox', { name: 'Rechercher un coéquipier' }).fill('');

    // Narrower than the columns: the table scrolls inside its card, the page does not.
    await page.setViewportSize({ width: 1000, height: 720 });
    await page.getByRole('combobox', { name: 'Filtrer par rôle' }).click();
    await page.getByRole('option', { name: 'Tous les rôles' }).click();
    await nextFrames(page);
    const narrow = await measure();
    expect(narrow.pageFits).toBe(true);
    expect(await table.evaluate((element) => getComputedStyle(element.parentElement as Element).overflowX)).toMatch(
      /auto|scroll/,
    );

    // The add dialog at 1366x850: its body scrolls, "Ajouter" stays on screen.
    await page.setViewportSize({ width: 1366, height: 850 });
    await page.getByRole('main').getByRole('button', { name: 'Ajouter un coéquipier' }).click();
    const dialog = page.getByRole('dialog', { name: 'Ajouter un coéquipier' });
    const submit = dialog.getByRole('button', { name: 'Ajouter', exact: true });
    await expect(submit).toBeVisible();
    expect(await onScreen(submit)).toBe(true);
    expect(await uncovered(submit)).toBe(true);
  } finally {
    await office.close();
  }
});

test('/talk shows the whole brand at 390 px', async ({ browser, server, seed }) => {
  const member = await seed.member();
  const phone = await openAs(browser, server.baseURL, member, {
    language: 'fr',
    viewport: { width: 390, height: 844 },
  });
  try {
    await phone.page.goto('/talk');
    const brand = phone.page.getByRole('heading', { level: 1, name: 'Talkgroup' });
    await expect(brand).toBeVisible();
    expect(await brand.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
    expect(await onScreen(brand)).toBe(true);
  } finally {
    await phone.close();
  }
});

test('a channel room at 1366x850 has no floating button over its controls', async ({
  browser,
  server,
  admin,
  seed,
}) => {
  const channel = await seed.channel();
  const desk = await openAs(browser, server.baseURL, admin, { language: 'fr', viewport: { width: 1366, height: 850 } });
  try {
    const { page } = desk;
    await page.goto(roomUrl(channel.rtcSession));
    const trail = page.getByRole('combobox', { name: 'Trace de' });
    await expect(trail).toBeAttached();
    // The map is below the fold, and yet no "Carte" floats over the room (it covered the SOS button and
    // "Trace de"): on a console's screen, the page scrolls to it.
    await expect(page.getByRole('button', { name: 'Carte', exact: true })).toHaveCount(0);
    await trail.scrollIntoViewIfNeeded();
    await nextFrames(page);
    expect(await uncovered(trail)).toBe(true);
    await expect(page.getByRole('button', { name: 'Carte', exact: true })).toHaveCount(0);
  } finally {
    await desk.close();
  }
});
