/**
 * /reports (issue 50), what only a page shows: a dispatcher's report of its channel in French and English, each
 * measure's section with its heading, chart and table; a period change asks getReport again; the whole report's
 * workbook read back with ExcelJS (a sheet per measure, the same figures as the tables); the menu's entry, and a
 * member's not-found page. Every figure of getReport is the server's tests' (reports*.test.ts); the data here is
 * what the HTTP API makes quickly: SOS alerts (one taken and closed as a false alarm) and a dispatch request taken.
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';
import ExcelJS from 'exceljs';
import { type Account, expect as baseExpect, type TalkgroupServer, test, unique, useSession } from './fixtures.ts';

const expect = baseExpect.configure({ timeout: 60_000 });
/** The reports' chunk (the charts) loads with the page: on a machine busy with other suites it may take longer. */
const FIRST_PAINT = { timeout: 90_000 };

test.describe.configure({ timeout: 180_000 });

const MEASURES = {
  fr: [
    'Temps de parole par canal',
    'Temps de parole par coéquipier',
    'Heures chargées',
    'Alertes SOS',
    "File d'attente du dispatch",
    "File d'attente par répartiteur",
    'Transmissions manquées par coéquipier',
    'Le plus de personnes connectées à la fois, par jour',
  ],
  en: [
    'Talk time per channel',
    'Talk time per member',
    'Busy hours',
    'SOS alerts',
    'Dispatch queue',
    'Dispatch queue by dispatcher',
    'Missed transmissions per member',
    'Most people connected at once, per day',
  ],
};

async function ok(server: TalkgroupServer, path: string, body: unknown, account: Account) {
  const answer = await server.call(path, body, account.token);
  expect(answer.status, `${path}: ${JSON.stringify(answer.body)}`).toBe(200);
  return answer.body.res;
}

/**
 * Two SOS alerts in the channel, by two members (one may send one every 30 s): the first taken, then closed as a
 * false alarm, the second closed as real; and a dispatch request taken.
 */
async function seedActivity(server: TalkgroupServer, channelId: number, members: Account[], desk: Account) {
  const [member, other] = members as [Account, Account];
  const first = await ok(server, '/user/api/sendEmergencyAlert', { channelId }, member);
  await ok(server, '/user/api/acknowledgeEmergencyAlert', { alertId: first.id }, desk);
  await ok(server, '/user/api/closeEmergencyAlert', { alertId: first.id, outcome: 'false' }, desk);
  // The second is closed at once as real (which takes it too): no banner stays over the pages.
  const second = await ok(server, '/user/api/sendEmergencyAlert', { channelId }, other);
  await ok(server, '/user/api/closeEmergencyAlert', { alertId: second.id, outcome: 'real' }, desk);
  const request = await ok(server, '/user/api/requestDispatchCall', { channelId }, member);
  await ok(server, '/user/api/takeDispatchCall', { requestId: request.requestId, answer: 'channel' }, desk);
}

/** The text of each cell of a table's row whose header cell is `name`. */
async function rowOf(page: Page, table: string, name: string): Promise<string[]> {
  const row = page
    .getByRole('table', { name: table, exact: true })
    .getByRole('row')
    .filter({
      has: page.getByRole('rowheader', { name, exact: true }),
    });
  return row.getByRole('cell').allInnerTexts();
}

/** The values of a sheet's row (1: the header). */
function cellsOf(sheet: ExcelJS.Worksheet | undefined, row: number): unknown[] {
  if (!sheet) throw new Error('no such sheet');
  return (sheet.getRow(row).values as unknown[]).slice(1);
}

/** axe-core's serious and critical violations in the page's main region (as dispatch-queue.spec.ts checks its panel). */
async function violations(page: Page): Promise<string[]> {
  // Evaluated, not added as a <script>: the page's Content-Security-Policy refuses inline scripts.
  await page.evaluate(readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8'));
  const found = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: unknown) => Promise<{ violations: any[] }> } }).axe;
    return (await axe.run({ include: [['main']] })).violations;
  });
  return found
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node: { target: string[] }) => node.target).join()}`);
}

/** Follows the menu's entry (the menu is a drawer below the wide layout's width). */
async function openFromMenu(page: Page, menu: { open: string; label: string }, entry: string) {
  const openMenu = page.getByRole('button', { name: menu.open });
  if (await openMenu.isVisible()) await openMenu.click();
  await page.getByRole('navigation', { name: menu.label }).getByRole('link', { name: entry }).click();
}

async function expectSections(page: Page, titles: string[], chart: (name: string) => string) {
  for (const title of titles) {
    const section = page.getByRole('region', { name: title, exact: true });
    await expect(section.getByRole('heading', { level: 2, name: title })).toBeVisible();
    await expect(section.getByRole('figure', { name: chart(title) })).toBeVisible();
    await expect(section.getByRole('table', { name: title, exact: true })).toBeVisible();
    await expect(section.getByRole('button', { name: new RegExp(`${title}.*(CSV)`) })).toBeVisible();
  }
}

test('a dispatcher reads its channel in French and English, changes the period and exports the report', async ({
  browser,
  server,
  seed,
}) => {
  const channel = await seed.channel(unique('Quai'));
  const dora = await seed.member({ firstName: 'Dora', lastName: 'Desk', role: 'dispatcher' });
  const mia = await seed.member({ firstName: 'Mia', lastName: 'Martin' });
  const leo = await seed.member({ firstName: 'Léo', lastName: 'Petit' });
  await seed.addToChannel(channel.id, [dora.id, mia.id, leo.id]);
  await seedActivity(server, channel.id, [mia, leo], dora);

  const context = await browser.newContext({ baseURL: server.baseURL, acceptDownloads: true });
  await context.addInitScript(() => {
    if (!localStorage.getItem('i18nextLng')) localStorage.setItem('i18nextLng', 'fr');
  });
  const page = await context.newPage();
  await useSession(page, dora);
  try {
    const asked: Array<{ from: string; to: string }> = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/user/api/getReport')) asked.push(request.postDataJSON());
    });
    await page.goto('/reports');
    await expect(page.getByRole('heading', { level: 1, name: 'Rapports' })).toBeVisible(FIRST_PAINT);
    await expect(page.getByRole('button', { name: '7 jours' })).toHaveAttribute('aria-pressed', 'true');
    await expectSections(page, MEASURES.fr, (name) => `Graphique : ${name}`);

    // Her channel only: two alerts, both taken and closed, one a false alarm; a request, taken.
    const sos = await rowOf(page, 'Alertes SOS', channel.name);
    expect(sos.slice(0, 4)).toEqual(['2', '2', '2', '1']);
    expect(await rowOf(page, 'Alertes SOS', 'Total')).toEqual(sos);
    const queueRow = await rowOf(page, "File d'attente du dispatch", channel.name);
    expect(queueRow.slice(0, 4)).toEqual(['1', '1', '0', '0']);
    // One channel: its row carries every column of the total, the same figures (issue 58).
    expect(await rowOf(page, "File d'attente du dispatch", 'Total')).toEqual(queueRow);
    // Dora's steps: one take, nothing sent back, transferred or closed yet.
    expect((await rowOf(page, "File d'attente par répartiteur", 'Dora Desk')).slice(0, 4)).toEqual([
      '1',
      '0',
      '0',
      '0',
    ]);
    await expect(page.getByRole('region', { name: 'Temps de parole par canal' })).toContainText(
      'Aucune transmission sur la période.',
    );
    await expect(page.getByRole('img', { name: /^lundi 09 h : 0 transmission$/ })).toBeVisible();
    expect(await violations(page)).toEqual([]);

    // Another period: the report is asked for again, from today's start.
    const before = asked.length;
    await page.getByRole('button', { name: "Aujourd'hui" }).click();
    await expect.poll(() => asked.length).toBeGreaterThan(before);
    const today = asked.at(-1);
    expect(Date.parse(today?.to ?? '') - Date.parse(today?.from ?? '')).toBeLessThanOrEqual(25 * 3_600_000);
    await expect(page.getByRole('button', { name: "Aujourd'hui" })).toHaveAttribute('aria-pressed', 'true');
    await expect.poll(() => rowOf(page, 'Alertes SOS', channel.name).then((row) => row[0])).toBe('2');

    // The whole report: a sheet per measure, with the tables' figures.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Exporter le rapport (Excel)' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^rapport-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.xlsx$/);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await readFile(await download.path())) as never);
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual(MEASURES.fr.map((title) => title.slice(0, 31)));
    const sosSheet = workbook.getWorksheet('Alertes SOS');
    const header = cellsOf(sosSheet, 1);
    expect(header.slice(0, 5)).toEqual(['Canal', 'Alertes', 'Prises en charge', 'Closes', 'Fausses alertes']);
    // Issue 60: the alerts a fall and a missed lone-worker check raised, then the time to take an alert.
    expect(header.slice(5, 8)).toEqual(['Homme à terre', 'Sans réponse', 'Prise en charge, médiane (min)']);
    const sheetRows = [2, 3].map((index) => cellsOf(sosSheet, index));
    const channelRow = sheetRows.find((row) => row[0] === channel.name);
    expect(channelRow?.slice(1, 5)).toEqual(sos.slice(0, 4).map(Number));
    expect(typeof channelRow?.[7]).toBe('number');
    const queueSheet = workbook.getWorksheet("File d'attente du dispatch");
    expect(cellsOf(queueSheet, 3).slice(0, 5)).toEqual([channel.name, 1, 1, 0, 0]);
    expect(cellsOf(workbook.getWorksheet("File d'attente par répartiteur"), 2).slice(0, 5)).toEqual([
      'Dora Desk',
      1,
      0,
      0,
      0,
    ]);

    // In English.
    await page.evaluate(() => localStorage.setItem('i18nextLng', 'en'));
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'Reports' })).toBeVisible(FIRST_PAINT);
    await expectSections(page, MEASURES.en, (name) => `Chart: ${name}`);
    expect((await rowOf(page, 'SOS alerts', channel.name)).slice(0, 4)).toEqual(['2', '2', '2', '1']);
    await expect(page.getByRole('button', { name: 'Export “SOS alerts” as Excel' })).toBeEnabled();
  } finally {
    await context.close();
  }
});

test('a member gets the not-found page at /reports; an administrator finds the reports in the menu', async ({
  page,
  browser,
  server,
  seed,
  admin,
}) => {
  const member = await seed.member();
  await useSession(page, member);
  await page.goto('/reports');
  await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible(FIRST_PAINT);
  await expect(page.getByRole('heading', { name: 'Reports' })).toBeHidden();

  const context = await browser.newContext({ baseURL: server.baseURL });
  const adminPage = await context.newPage();
  await context.addInitScript(() => localStorage.setItem('i18nextLng', 'en'));
  await useSession(adminPage, admin);
  try {
    await adminPage.goto('/channelsList');
    await expect(adminPage.getByRole('heading', { level: 1 })).toBeVisible(FIRST_PAINT);
    await openFromMenu(adminPage, { open: 'Open the menu', label: 'Main navigation' }, 'Reports');
    await expect(adminPage.getByRole('heading', { level: 1, name: 'Reports' })).toBeVisible(FIRST_PAINT);
    await expect(adminPage.getByRole('combobox', { name: 'Channels' })).toContainText('All channels');
  } finally {
    await context.close();
  }
});
