/**
 * A console that reads at a glance (issue 70 item 7), at 1366x850: a closed alert's band goes by itself after
 * 10 s; a dispatcher signs in onto its dispatch console ("Console de répartition" in the French menu), whose first
 * desk shows the channels it dispatches; "Appel général" is disabled with no tile; a member's row keeps its actions
 * in a named "Actions" menu that names each; the mute switch is named, on screen too; both talk buttons show a plain
 * microphone at rest. The console with a row's actions open goes into docs/images/ when E2E_DOCS_SCREENSHOTS is set.
 * (Lone work's live states: lone-worker-console.spec.ts; the full view's capture: video-live.spec.ts.)
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { closeAllAlerts } from './alerts.ts';
import { seriousViolations } from './axe.ts';
import { expect as baseExpect, signIn, startIn, test } from './fixtures.ts';
import { openAs } from './room-support.ts';

const expect = baseExpect.configure({ timeout: 30_000 });
test.describe.configure({ timeout: 240_000 });

const DESK = { width: 1366, height: 850 };
/** Material's plain microphone (its "Mic" icon's path; the crossed-out "MicOff" starts "M19 11h-1.7"). */
const MICROPHONE = /^M12 14c1\.66 0 2\.99-1\.34 2\.99-3L15 5/;

test("a closed alert's band says how it ended, then goes by itself after 10 s", async ({
  browser,
  server,
  admin,
  seed,
}) => {
  const channel = await seed.channel();
  const max = await seed.member({ firstName: 'Max', lastName: 'Banded' });
  await seed.addToChannel(channel.id, [max.id]);
  const desk = await openAs(browser, server.baseURL, admin, { viewport: DESK });
  try {
    // The page runs on Playwright's clock (installed before it loads, running on by itself): the test moves it on
    // to the band's end instead of waiting 10 s.
    await desk.page.clock.install();
    await desk.page.goto('/usersList');
    await expect(desk.page.getByRole('heading', { level: 1 })).toBeVisible();
    const sent = await server.call('/user/api/sendEmergencyAlert', { channelId: channel.id }, max.token);
    expect(sent.status).toBe(200);
    await expect(desk.page.getByTestId('sos-banner').filter({ hasText: 'Max Banded needs help' })).toBeVisible();
    // When the band shows and when it goes, on the page's clock.
    await desk.page.evaluate((text) => {
      const seen: { shown?: number; gone?: number } = {};
      (window as { __band?: typeof seen }).__band = seen;
      const present = () => (document.body.textContent ?? '').includes(text);
      new MutationObserver(() => {
        if (seen.shown === undefined) {
          if (present()) seen.shown = Date.now();
        } else if (seen.gone === undefined && !present()) seen.gone = Date.now();
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    }, "Max Banded's alert was closed by");
    const closed = await server.call(
      '/user/api/closeEmergencyAlert',
      { alertId: sent.body.res.id, outcome: 'false' },
      admin.token,
    );
    expect(closed.status).toBe(200);

    const band = desk.page.getByText("Max Banded's alert was closed by", { exact: false });
    await expect(band).toHaveText(/Max Banded's alert was closed by .+: false alarm\./);
    // Ten seconds of its clock on (each timer at its time): it goes with no click, and it stayed those 10 s, long
    // enough to be read (how soon after them it went depends on how busy the machine is).
    await desk.page.clock.runFor(10_500);
    await expect(band).toHaveCount(0);
    const { shown = 0, gone = 0 } = (await desk.page.evaluate(() => (window as { __band?: object }).__band)) as {
      shown?: number;
      gone?: number;
    };
    expect(shown).toBeGreaterThan(0);
    expect(gone - shown).toBeGreaterThanOrEqual(9_900);
  } finally {
    await closeAllAlerts(server, admin);
    await desk.close();
  }
});

test('a dispatcher signs in onto its dispatch console, which shows the channels it dispatches', async ({
  browser,
  server,
  seed,
}, testInfo) => {
  const quai = await seed.channel();
  const depot = await seed.channel();
  const elsewhere = await seed.channel();
  const dana = await seed.member({ firstName: 'Dana', lastName: 'Glance', role: 'dispatcher' });
  const mia = await seed.member({ firstName: 'Mia', lastName: 'Row' });
  await seed.addToChannel(quai.id, [dana.id, mia.id]);
  await seed.addToChannel(depot.id, [dana.id]);

  const context = await browser.newContext({ baseURL: server.baseURL, viewport: DESK });
  await startIn(context, 'en');
  try {
    const page = await context.newPage();
    // The sign-in form leads it to /dispatch (signIn waits for it), whose first desk is its channels.
    await signIn(page, dana);
    await expect(page.getByRole('heading', { level: 1, name: 'Dispatch console' })).toBeVisible();
    await expect(page.getByRole('region', { name: `Channel ${quai.name}` })).toBeVisible();
    await expect(page.getByRole('region', { name: `Channel ${depot.name}` })).toBeVisible();
    await expect(page.getByRole('region', { name: `Channel ${elsewhere.name}` })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'All call' })).toBeEnabled();
  } finally {
    await context.close();
  }

  const desk = await openAs(browser, server.baseURL, dana, { language: 'fr', viewport: DESK });
  const phone = await openAs(browser, server.baseURL, mia, { viewport: { width: 390, height: 844 } });
  try {
    const page = desk.page;
    await page.goto('/');
    await expect(page).toHaveURL(/\/dispatch$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Console de répartition' })).toBeVisible();
    // Below 1480 px the navigation is a drawer.
    await page.getByRole('button', { name: 'Ouvrir le menu' }).click();
    await expect(
      page.getByRole('navigation', { name: 'Navigation principale' }).getByRole('link', {
        name: 'Console de répartition',
      }),
    ).toHaveAttribute('href', '/dispatch');
    await page.keyboard.press('Escape');

    // A member's row: its actions in one named menu, each action named in full.
    const tile = page.getByRole('region', { name: `Canal ${quai.name}` });
    const row = tile
      .getByRole('list', { name: `Membres de ${quai.name}` })
      .getByRole('listitem')
      .filter({
        hasText: 'Mia Row',
      });
    await expect(row.getByRole('button')).toHaveCount(1);
    await row.getByRole('button', { name: 'Actions pour Mia Row', exact: true }).click();
    const menu = page.getByRole('menu', { name: 'Actions pour Mia Row', exact: true });
    for (const action of [
      'Statut de Mia Row',
      `Changer de canal : basculer Mia Row sur ${quai.name}`,
      /^État du terminal de Mia Row/,
      'Demander la vidéo de Mia Row',
      'Déclencher un SOS pour Mia Row',
    ])
      await expect(menu.getByRole('menuitem', { name: action })).toBeVisible();
    await expect(menu.getByText('Déclencher un SOS pour Mia Row')).toBeVisible();
    expect(await seriousViolations(page, '[role="menu"]')).toEqual([]);
    const shot = testInfo.outputPath('dispatch-row-actions.png');
    await page.screenshot({ path: shot });
    if (process.env.E2E_DOCS_SCREENSHOTS) {
      mkdirSync(path.resolve('docs/images'), { recursive: true });
      copyFileSync(shot, path.resolve('docs/images/dispatch-row-actions.png'));
    }
    // An action opens from the menu: the member's statuses.
    await menu.getByRole('menuitem', { name: 'Statut de Mia Row' }).click();
    await expect(page.getByRole('menuitemradio', { name: 'Aucun' })).toBeVisible();
    await page.keyboard.press('Escape');
    expect(await seriousViolations(page, `ul[aria-label="Membres de ${quai.name}"]`)).toEqual([]);

    // The mute switch has its name, and its word on screen.
    const mute = tile.getByRole('switch', { name: `Couper ${quai.name}` });
    await expect(mute).not.toBeChecked();
    await expect(tile.getByText('Couper', { exact: true })).toBeVisible();

    // Both talk buttons at rest: a plain microphone, not a crossed-out one.
    const talk = tile.getByRole('button', { name: `Parler sur ${quai.name}` });
    await expect(talk.locator('svg path')).toHaveAttribute('d', MICROPHONE);
    await phone.page.goto(`/talk/${quai.id}`);
    const push = phone.page.getByRole('button', { name: 'Push to talk' });
    await expect(push).toBeVisible();
    await expect(push.locator('svg path')).toHaveAttribute('d', MICROPHONE);
  } finally {
    await desk.close();
    await phone.close();
  }
});

test('"Appel général" is disabled while no channel is monitored', async ({ browser, server, seed }) => {
  const alone = await seed.member({ firstName: 'Noa', lastName: 'Nochannel', role: 'dispatcher' });
  const desk = await openAs(browser, server.baseURL, alone, { language: 'fr', viewport: DESK });
  try {
    await desk.page.goto('/dispatch');
    await expect(desk.page.getByText("Aucun canal n'est écouté : choisissez les canaux à écouter.")).toBeVisible();
    await expect(desk.page.getByRole('button', { name: 'Appel général' })).toBeDisabled();
  } finally {
    await desk.close();
  }
});
