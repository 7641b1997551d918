/**
 * Spreadsheets (spec sections 2, 5 and 9): exports read back with ExcelJS, the import template, and imports of
 * .xlsx and .csv files built here, with duplicate, blank and existing rows, checked in the result's three groups.
 */
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import ExcelJS from 'exceljs';
import { type Account, expect, type TalkgroupServer, test, unique, useSession } from './fixtures.ts';

async function open(page: Page, admin: Account, path: '/usersList' | '/channelsList') {
  await useSession(page, admin);
  await page.goto(path);
  await expect(page.getByRole('main').locator('tbody tr').first()).toBeVisible({ timeout: 60_000 });
}

/** Clicks a button that downloads a file; returns the file's name and its first sheet. */
async function download(page: Page, button: string) {
  const [file] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('main').getByRole('button', { name: button }).click(),
  ]);
  const workbook = new ExcelJS.Workbook();
  // ExcelJS types its input as its own Buffer interface; a Node Buffer is what it reads.
  await workbook.xlsx.load((await readFile(await file.path())) as never);
  const sheet = workbook.worksheets[0];
  const rows: unknown[][] = [];
  sheet.eachRow((row) => {
    rows.push((row.values as unknown[]).slice(1));
  });
  return { name: file.suggestedFilename(), header: rows[0] as string[], body: rows.slice(1) };
}

async function xlsx(header: string[], rows: unknown[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Import');
  sheet.addRow(header);
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

async function chooseFile(page: Page, file: { name: string; mimeType: string; buffer: Buffer }) {
  const [chooser] = await Promise.all([
    page.waitForEvent('filechooser'),
    page.getByRole('main').getByRole('button', { name: 'Importer', exact: true }).click(),
  ]);
  await chooser.setFiles(file);
}

async function users(server: TalkgroupServer, admin: Account) {
  return (await server.call('/user/api/getAllUsers', {}, admin.token)).body.res as Array<Record<string, any>>;
}

const group = (page: Page, name: string) => page.getByRole('dialog').getByRole('region', { name });

test.describe('spreadsheets (French)', () => {
  test.use({ language: 'fr' });

  test('exports the users to Liste_coéquipiers.xlsx with their channels and never a password', async ({
    page,
    admin,
    seed,
  }) => {
    const channel = await seed.channel(unique('Export'));
    const member = await seed.member({ firstName: 'Théo', lastName: unique('Export'), mapRight: true });
    await seed.addToChannel(channel.id, [member.id]);
    await open(page, admin, '/usersList');

    const file = await download(page, 'Exporter');
    expect(file.name).toBe('Liste_coéquipiers.xlsx');
    expect(file.header).toEqual([
      'firstName',
      'lastName',
      'identifier',
      'pseudo',
      'mapRight',
      'canal',
      'role',
      'talkPriority',
      'createdAt',
    ]);
    const row = file.body.find((cells) => cells[2] === member.login);
    expect(row?.slice(0, 6)).toEqual(['Théo', member.lastName, member.login, expect.any(String), true, channel.name]);
    // A member whose talk priority nobody set: its role, and a blank priority (the role's default, issue 59).
    expect(row?.[6]).toBe('member');
    expect(row?.[7] ?? '').toBe('');
    const everything = JSON.stringify(file.body);
    expect(everything).not.toContain(member.password);
    expect(everything).not.toContain('scrypt$');
  });

  test('exports the channels to Liste_canaux.xlsx', async ({ page, admin, seed }) => {
    const channel = await seed.channel(unique('Canal exporté'));
    await open(page, admin, '/channelsList');
    const file = await download(page, 'Exporter');
    expect(file.name).toBe('Liste_canaux.xlsx');
    expect(file.header).toEqual(['name', 'createdAt']);
    expect(file.body.map((cells) => cells[0])).toContain(channel.name);
  });

  test("'Télécharger le modèle' gives model.xlsx with the import columns", async ({ page, admin }) => {
    await open(page, admin, '/usersList');
    const file = await download(page, 'Télécharger le modèle');
    expect(file.name).toBe('model.xlsx');
    expect(file.header).toEqual(['firstName', 'lastName', 'identifier', 'pseudo', 'password', 'mapRight', 'canal']);
    expect(file.body).toEqual([]);
  });

  test('imports users from .xlsx: preview with missing cells in red, then not added / already existing / added', async ({
    page,
    admin,
    server,
    seed,
  }) => {
    const channel = await seed.channel(unique('Import'));
    const existing = await seed.member({ firstName: 'Déjà', lastName: unique('Là') });
    const tag = unique('imp').split(' ')[1];
    const anna = [
      `Anna`,
      `Import${tag}`,
      `anna.${tag}@example.org`,
      `anna${tag}`,
      'anna-pw-1234',
      'vrai',
      channel.name,
    ];
    const bob = [`Bob`, `Import${tag}`, `bob.${tag}@example.org`, `bob${tag}`, 'bob-pw-5678', 'FAUX', ''];
    const blank = [`Carl`, '', `carl.${tag}@example.org`, `carl${tag}`, 'carl-pw-0000', 'true', ''];
    const known = ['Déjà', existing.lastName, existing.login, 'deja', 'deja-pw-9999', 'false', ''];
    // The channel column is named freely: any name containing 'canal' is the channel column.
    const header = ['firstName', 'lastName', 'identifier', 'pseudo', 'password', 'mapRight', 'Nom du canal'];
    const buffer = await xlsx(header, [anna, anna, blank, known, bob]);
    await open(page, admin, '/usersList');
    await chooseFile(page, { name: 'equipe.xlsx', mimeType: 'application/octet-stream', buffer });

    const dialog = page.getByRole('dialog', { name: 'Importer des coéquipiers' });
    await expect(dialog.getByText('5 lignes lues dans equipe.xlsx.')).toBeVisible();
    await expect(dialog.getByText('1 ligne en double sera ignorée.')).toBeVisible();
    const missing = dialog.locator('td[data-missing="true"]');
    await expect(missing).toHaveCount(1);
    await expect(missing).toHaveAttribute('title', 'Cellule manquante ou invalide');
    await expect(missing).toHaveCSS('background-color', 'rgba(179, 38, 30, 0.14)');
    await expect(dialog.getByRole('cell', { name: 'anna-pw-1234' })).toHaveCount(0);
    await dialog.getByRole('button', { name: 'Importer', exact: true }).click();

    const confirm = page.getByRole('alertdialog', { name: 'Êtes-vous sûr ?' });
    await expect(confirm).toContainText('Importer 4 lignes ?');
    await confirm.getByRole('button', { name: 'Confirmer' }).click();

    await expect(page.getByRole('dialog', { name: "Résultat de l'import" })).toBeVisible({ timeout: 60_000 });
    await expect(group(page, 'Non ajoutés')).toContainText(`carl.${tag}@example.org`);
    await expect(group(page, 'Non ajoutés').getByRole('listitem')).toHaveCount(1);
    await expect(group(page, 'Déjà existants')).toContainText(existing.login);
    await expect(group(page, 'Déjà existants').getByRole('listitem')).toHaveCount(1);
    await expect(group(page, 'Ajoutés avec succès').getByRole('listitem')).toHaveCount(2);
    await expect(group(page, 'Ajoutés avec succès')).toContainText(`anna.${tag}@example.org`);
    await expect(group(page, 'Ajoutés avec succès')).toContainText(`bob.${tag}@example.org`);

    const all = await users(server, admin);
    const annaUser = all.find((user) => user.identifier === `anna.${tag}@example.org`);
    expect(annaUser).toMatchObject({ mapRight: true, pseudo: `anna${tag}` });
    expect(annaUser?.channels.map((c: { name: string }) => c.name)).toEqual([channel.name]);
    expect(all.find((user) => user.identifier === `bob.${tag}@example.org`)?.mapRight).toBe(false);
    expect(all.some((user) => user.identifier === `carl.${tag}@example.org`)).toBe(false);

    await page.getByRole('dialog').getByRole('button', { name: 'Fermer' }).click();
    await page.getByRole('searchbox', { name: 'Rechercher un coéquipier' }).fill(`Import${tag}`);
    await expect(page.getByRole('main').locator('tbody tr')).toHaveCount(2);
  });

  test('imports a large file as a job on the server, with a progress bar the dialog may be closed on', async ({
    page,
    admin,
    server,
  }) => {
    // One row over IMPORT_JOB_ABOVE_DEFAULT (100): the page sends the file whole and the server makes it a job. Only
    // three rows are to add (each new user costs the server an OWASP scrypt hash, about 0.23 CPU-second); the other 98
    // lack their last name, which the server's checks settle before the job starts. A job of many rows (its
    // batches, its progress, every user created once) is packages/server/test/import-jobs.test.ts's.
    const tag = unique('bulk').split(' ')[1];
    const rows = Array.from({ length: 101 }, (_, i) => [
      `Bulk${i}`,
      i < 3 ? `Lot${tag}` : '',
      `bulk${i}.${tag}@example.org`,
      `b${i}`,
      'bulk-pw-1234',
      i % 2 ? 'TRUE' : 'faux',
      '',
    ]);
    const buffer = await xlsx(['firstName', 'lastName', 'identifier', 'pseudo', 'password', 'mapRight', 'canal'], rows);
    const calls: number[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/user/api/createMultipleUsers'))
        calls.push((request.postDataJSON() as { userData: unknown[] }).userData.length);
    });
    // The job's answers are held until the test has read the progress: three rows may be done before the first one.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/user/api/getImportJob', async (route) => {
      await held;
      await route.continue();
    });
    await open(page, admin, '/usersList');
    await chooseFile(page, { name: 'lot.xlsx', mimeType: 'application/octet-stream', buffer });
    const dialog = page.getByRole('dialog', { name: 'Importer des coéquipiers' });
    await expect(dialog.getByText('101 lignes lues dans lot.xlsx.')).toBeVisible();
    await dialog.getByRole('button', { name: 'Importer', exact: true }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Confirmer' }).click();
    // One call: the server makes it a job and answers at once; the dialog follows it (getImportJob).
    await expect(page.getByRole('progressbar', { name: "Progression de l'import" })).toBeVisible();
    await expect(dialog.getByText('98 / 101 lignes importées')).toBeVisible();
    await expect(dialog.getByText(/l'import se poursuit en arrière-plan/)).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Fermer' })).toBeEnabled();
    release();

    await expect(page.getByRole('dialog', { name: "Résultat de l'import" })).toBeVisible();
    const added = group(page, 'Ajoutés avec succès');
    await expect(added.getByRole('listitem')).toHaveCount(3);
    for (const i of [0, 1, 2]) await expect(added).toContainText(`bulk${i}.${tag}@example.org`);
    await expect(group(page, 'Non ajoutés')).toContainText(`bulk100.${tag}@example.org`);
    expect(calls).toEqual([101]);
    const imported = (await users(server, admin)).filter((user) => user.identifier.endsWith(`.${tag}@example.org`));
    expect(imported.map((user) => user.identifier).sort()).toEqual([0, 1, 2].map((i) => `bulk${i}.${tag}@example.org`));
  });

  test('imports channels from a semicolon .csv: duplicate, blank and existing names', async ({
    page,
    admin,
    server,
    seed,
  }) => {
    const existing = await seed.channel(unique('Existant'));
    const fresh = unique('Nouveau');
    const csv = `name;note\n${fresh};a\n${fresh};a\n;vide\n${existing.name};b\n`;
    await open(page, admin, '/channelsList');
    await chooseFile(page, { name: 'canaux.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    const dialog = page.getByRole('dialog', { name: 'Importer des canaux' });
    await expect(dialog.getByText('4 lignes lues dans canaux.csv.')).toBeVisible();
    await expect(dialog.locator('td[data-missing="true"]')).toHaveCount(1);
    await dialog.getByRole('button', { name: 'Importer', exact: true }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Confirmer' }).click();

    await expect(group(page, 'Non ajoutés').getByRole('listitem')).toHaveCount(1);
    await expect(group(page, 'Déjà existants')).toContainText(existing.name);
    await expect(group(page, 'Ajoutés avec succès')).toContainText(fresh);
    await expect(group(page, 'Ajoutés avec succès').getByRole('listitem')).toHaveCount(1);
    const names = (await server.call('/user/api/getAllChannels', {}, admin.token)).body.res.map(
      (c: { name: string }) => c.name,
    );
    expect(names.filter((name: string) => name === fresh)).toHaveLength(1);
  });

  test('says so when a file cannot be read', async ({ page, admin }) => {
    await open(page, admin, '/usersList');
    await chooseFile(page, { name: 'broken.xlsx', mimeType: 'application/octet-stream', buffer: Buffer.from('nope') });
    await expect(page.getByRole('dialog').getByText(/Ce fichier n'a pas pu être lu/)).toBeVisible();
  });
});

test.describe('spreadsheets (English)', () => {
  test.use({ language: 'en' });

  test('the import result names its three groups in English', async ({ page, admin }) => {
    const tag = unique('en').split(' ')[1];
    const buffer = await xlsx(
      ['firstName', 'lastName', 'identifier', 'pseudo', 'password', 'mapRight', 'canal'],
      [
        ['Eve', 'English', `eve.${tag}@example.org`, 'eve', 'eve-pw-1234', 'TRUE', ''],
        ['', 'Nobody', `nobody.${tag}@example.org`, 'no', 'nobody-pw-1234', 'FALSE', ''],
        ['Ada', 'Lovelace', admin.login, 'ada', 'ada-pw-1234', 'false', ''],
      ],
    );
    await useSession(page, admin);
    await page.goto('/usersList');
    const [chooser] = await Promise.all([
      page.waitForEvent('filechooser'),
      page.getByRole('main').getByRole('button', { name: 'Import', exact: true }).click(),
    ]);
    await chooser.setFiles({ name: 'team.xlsx', mimeType: 'application/octet-stream', buffer });
    await page
      .getByRole('dialog', { name: 'Import users' })
      .getByRole('button', { name: 'Import', exact: true })
      .click();
    await page.getByRole('alertdialog', { name: 'Are you sure?' }).getByRole('button', { name: 'Confirm' }).click();
    await expect(page.getByRole('dialog', { name: 'Import result' })).toBeVisible();
    await expect(group(page, 'Not added')).toContainText(`nobody.${tag}@example.org`);
    await expect(group(page, 'Already existing')).toContainText(admin.login);
    await expect(group(page, 'Added successfully')).toContainText(`eve.${tag}@example.org`);
  });
});

test.describe('an import an administrator can trust (English)', () => {
  test.use({ language: 'en' });

  test('says why each row was not added, names unknown channels, downloads the result with reasons, and updates on request', async ({
    page,
    admin,
    server,
    seed,
  }) => {
    const tag = unique('trust').split(' ')[1];
    const channel = await seed.channel(unique('Known'));
    const header = ['firstName', 'lastName', 'identifier', 'pseudo', 'password', 'mapRight', 'canal'];
    const first = await xlsx(header, [
      ['Ivy', 'Trust', `ivy.${tag}@example.org`, 'ivy', 'ivy-pw-12345', 'false', `${channel.name};Nowhere ${tag}`],
      ['Bad', 'Login', 'not-a-login', 'bad', 'bad-pw-12345', 'false', ''],
      ['Map', 'Wrong', `map.${tag}@example.org`, 'map', 'map-pw-12345', 'maybe', ''],
    ]);
    const importFile = async (name: string, buffer: Buffer, update: boolean) => {
      const [chooser] = await Promise.all([
        page.waitForEvent('filechooser'),
        page.getByRole('main').getByRole('button', { name: 'Import', exact: true }).click(),
      ]);
      await chooser.setFiles({ name, mimeType: 'application/octet-stream', buffer });
      const dialog = page.getByRole('dialog', { name: 'Import users' });
      if (update) await dialog.getByRole('checkbox', { name: /Update existing users/ }).check();
      await dialog.getByRole('button', { name: 'Import', exact: true }).click();
      await page.getByRole('alertdialog', { name: 'Are you sure?' }).getByRole('button', { name: 'Confirm' }).click();
      await expect(page.getByRole('dialog', { name: 'Import result' })).toBeVisible({ timeout: 60_000 });
    };
    await useSession(page, admin);
    await page.goto('/usersList');
    await importFile('first.xlsx', first, false);
    await expect(group(page, 'Not added')).toContainText('not-a-login · Bad Login — invalid login');
    await expect(group(page, 'Not added')).toContainText(`map.${tag}@example.org · Map Wrong — invalid mapRight`);
    await expect(page.getByRole('dialog').getByRole('alert')).toContainText(
      `This channel does not exist and was not created: Nowhere ${tag}`,
    );
    // The result offers to create it: Ivy is then in it.
    await page.getByRole('dialog').getByRole('button', { name: 'Create it and add the users' }).click();
    await expect(page.getByRole('dialog').getByText(`Channel created: Nowhere ${tag}`)).toBeVisible();
    const created = (await server.call('/user/api/getAllChannels', {}, admin.token)).body.res.find(
      (c: { name: string }) => c.name === `Nowhere ${tag}`,
    );
    expect(created.users.map((u: { identifier: string }) => u.identifier)).toEqual([`ivy.${tag}@example.org`]);

    // The result as a spreadsheet, with a reason column and never a password.
    const [file] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('dialog').getByRole('button', { name: 'Download the result' }).click(),
    ]);
    expect(file.suggestedFilename()).toBe('Import_result.xlsx');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await readFile(await file.path())) as never);
    const rows: unknown[][] = [];
    workbook.worksheets[0].eachRow((row) => {
      rows.push((row.values as unknown[]).slice(1));
    });
    expect(rows[0]).toEqual(['firstName', 'lastName', 'identifier', 'pseudo', 'mapRight', 'canal', 'result', 'reason']);
    expect(rows.find((row) => row[2] === 'not-a-login')?.slice(6)).toEqual([
      'Not added',
      'invalid login (an e-mail address of 2 to 50 characters)',
    ]);
    expect(JSON.stringify(rows)).not.toContain('pw-12345');
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();

    // Export, edit, re-import: the existing user is updated, its password kept when the cell is blank.
    const second = await xlsx(header, [['Ivy', 'Updated', `ivy.${tag}@example.org`, 'ivy2', '', 'true', '']]);
    await importFile('second.xlsx', second, true);
    await expect(group(page, 'Updated')).toContainText(`ivy.${tag}@example.org · Ivy Updated`);
    await expect(group(page, 'Not added').getByRole('listitem')).toHaveCount(0);
    const ivy = (
      (await server.call('/user/api/getAllUsers', {}, admin.token)).body.res as Array<Record<string, any>>
    ).find((user) => user.identifier === `ivy.${tag}@example.org`);
    expect(ivy).toMatchObject({ lastName: 'Updated', pseudo: 'ivy2', mapRight: true });
    const signIn = await server.call('/user/api/login', {
      user_email: `ivy.${tag}@example.org`,
      user_password: 'ivy-pw-12345',
    });
    expect(signIn.status).toBe(200);
  });
});
