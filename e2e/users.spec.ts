/**
 * The users list and its dialogs (spec sections 2, 4, 5 and 8): French by default, one block in English.
 * Each test makes its own users and channels (unique names): the worker's server is shared.
 */
import type { Locator, Page } from '@playwright/test';
import { io } from 'socket.io-client';
import { type Account, expect, type TalkgroupServer, test, unique, useSession } from './fixtures.ts';
import { openUsers } from './users-support.ts';

async function userByLogin(server: TalkgroupServer, admin: Account, login: string) {
  const answer = await server.call('/user/api/getAllUsers', {}, admin.token);
  return (answer.body.res as Array<Record<string, any>>).find((user) => user.identifier === login);
}

/** A form field by its label, required ('Nom *') or not. */
const field = (scope: Locator, label: string) =>
  scope.getByLabel(new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(\\s*\\*)?$`));

/** The snackbar that reports an action (title and message in one alert). */
const notice = (page: Page) => page.locator('.MuiSnackbar-root').getByRole('alert');

test.describe('users list (French)', () => {
  test.use({ language: 'fr' });

  test('creates a user with two channels, map access and left-trimmed texts, then finds it by the filter', async ({
    page,
    admin,
    server,
    seed,
  }) => {
    const alpha = await seed.channel(unique('Alpha'));
    const bravo = await seed.channel(unique('Bravo'));
    await seed.channel(unique('Charlie'));
    const tag = unique('x').split(' ')[1];
    const login = `jeanne.${tag}@example.org`;
    await openUsers(page, admin);

    await page.getByRole('main').getByRole('button', { name: 'Ajouter un coéquipier' }).click();
    const dialog = page.getByRole('dialog', { name: 'Ajouter un coéquipier' });
    await field(dialog, 'Prénom').fill('  Jeanne');
    await field(dialog, 'Nom').fill('  Dupont');
    await field(dialog, 'Identifiant (e-mail)').fill(`  ${login}`);
    await field(dialog, 'Pseudo').fill(`jd${tag}`);
    await field(dialog, 'Mot de passe').fill('secret-123');
    await field(dialog, 'Valider le mot de passe').fill('secret-123');
    const mapSwitch = dialog.getByRole('switch', { name: "Droit d'accès à la carte" });
    await expect(mapSwitch).not.toBeChecked();
    await mapSwitch.check();
    await dialog.getByRole('cell', { name: alpha.name, exact: true }).click();
    await dialog.getByRole('cell', { name: bravo.name, exact: true }).click();
    await expect(dialog.getByText('2 canaux sélectionnés')).toBeVisible();
    await dialog.getByRole('button', { name: 'Ajouter', exact: true }).click();

    await expect(notice(page)).toContainText('Coéquipier ajouté avec succès');
    await expect(dialog).toBeHidden();
    const created = await userByLogin(server, admin, login);
    expect(created).toMatchObject({ firstName: 'Jeanne', lastName: 'Dupont', pseudo: `jd${tag}`, mapRight: true });
    expect(created?.channels.map((c: { id: number }) => c.id).sort()).toEqual([alpha.id, bravo.id].sort());

    await page.getByRole('searchbox', { name: 'Rechercher un coéquipier' }).fill(tag.toUpperCase());
    const rows = page.getByRole('main').locator('tbody tr');
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText('Jeanne');
    await expect(rows.first()).toContainText(login);
    await expect(rows.first().getByRole('img', { name: 'Accès à la carte' })).toBeVisible();
    // The created-at date reads 'dd MMM yyyy HH:mm' in French.
    await expect(rows.first()).toContainText(/\d\d [a-zéû]+\.? \d{4} \d\d:\d\d/);
  });

  test("refuses blank required fields: 'Coéquipier non créé' and 'Vérifier que tous les champs sont remplis.'", async ({
    page,
    admin,
    server,
  }) => {
    await openUsers(page, admin);
    const before = (await server.call('/user/api/getAllUsers', {}, admin.token)).body.res.length;
    await page.getByRole('main').getByRole('button', { name: 'Ajouter un coéquipier' }).click();
    const dialog = page.getByRole('dialog', { name: 'Ajouter un coéquipier' });
    await field(dialog, 'Prénom').fill('   ');
    await field(dialog, 'Nom').fill('Blanc');
    await field(dialog, 'Identifiant (e-mail)').fill('blank@example.org');
    await dialog.getByRole('button', { name: 'Ajouter', exact: true }).click();

    await expect(dialog.getByRole('alert')).toContainText('Coéquipier non créé');
    await expect(dialog.getByRole('alert')).toContainText('Vérifier que tous les champs sont remplis.');
    await expect(dialog).toBeVisible();
    expect((await server.call('/user/api/getAllUsers', {}, admin.token)).body.res.length).toBe(before);
  });

  test('shows the password mismatch inline and blocks the creation', async ({ page, admin, server }) => {
    const login = `${unique('mismatch').replace(' ', '.')}@example.org`;
    await openUsers(page, admin);
    await page.getByRole('main').getByRole('button', { name: 'Ajouter un coéquipier' }).click();
    const dialog = page.getByRole('dialog', { name: 'Ajouter un coéquipier' });
    await field(dialog, 'Prénom').fill('Paul');
    await field(dialog, 'Nom').fill('Durand');
    await field(dialog, 'Identifiant (e-mail)').fill(login);
    await field(dialog, 'Mot de passe').fill('abc123');
    await field(dialog, 'Valider le mot de passe').fill('abc124');
    await expect(dialog.getByText('Les deux mots de passe doivent être identiques.')).toBeVisible();
    await dialog.getByRole('button', { name: 'Ajouter', exact: true }).click();

    await expect(dialog.getByRole('alert')).toContainText('Coéquipier non créé');
    await expect(dialog.getByRole('alert')).toContainText('Les deux mots de passe doivent être identiques.');
    expect(await userByLogin(server, admin, login)).toBeUndefined();
  });

  test('hints an invalid login and a too short password, and shows or hides the password', async ({ page, admin }) => {
    await openUsers(page, admin);
    await page.getByRole('main').getByRole('button', { name: 'Ajouter un coéquipier' }).click();
    const dialog = page.getByRole('dialog', { name: 'Ajouter un coéquipier' });
    await field(dialog, 'Identifiant (e-mail)').fill('not-an-email');
    await expect(dialog.getByText('E-mail invalide')).toBeVisible();
    const password = field(dialog, 'Mot de passe');
    // The server's rule (8 or more), never "too long" for a password it accepts (issue 58).
    await password.fill('waytoolongpassword');
    await expect(dialog.getByText(/Mot de passe trop/)).toHaveCount(0);
    await password.fill('court');
    await expect(dialog.getByText('Mot de passe trop court !')).toBeVisible();
    await expect(password).toHaveAttribute('type', 'password');
    await dialog.getByRole('button', { name: 'Afficher le mot de passe' }).first().click();
    await expect(password).toHaveAttribute('type', 'text');
  });

  test('asks for the administrator password before editing, then updates the user and its channels', async ({
    page,
    admin,
    server,
    seed,
  }) => {
    const alpha = await seed.channel(unique('Alpha'));
    const bravo = await seed.channel(unique('Bravo'));
    const member = await seed.member({ firstName: 'Hugo', lastName: unique('Lemoine') });
    await seed.addToChannel(alpha.id, [member.id]);
    await openUsers(page, admin);
    await page.getByRole('searchbox', { name: 'Rechercher un coéquipier' }).fill(member.login);
    await page.getByRole('button', { name: `Modifier Hugo ${member.lastName}` }).click();

    const gate = page.getByRole('dialog', { name: 'Vérifiez votre mot de passe' });
    await field(gate, 'Votre mot de passe').fill('not-my-password');
    await gate.getByRole('button', { name: 'Vérifier' }).click();
    await expect(gate.getByText('Mot de passe incorrect')).toBeVisible();
    await expect(page.getByRole('dialog', { name: 'Modifier le profil du coéquipier' })).toHaveCount(0);

    await field(gate, 'Votre mot de passe').fill(admin.password);
    await gate.getByRole('button', { name: 'Vérifier' }).click();
    const dialog = page.getByRole('dialog', { name: 'Modifier le profil du coéquipier' });
    await expect(dialog).toBeVisible();
    await expect(field(dialog, 'Identifiant (e-mail)')).toHaveValue(member.login);
    await expect(field(dialog, 'Identifiant (e-mail)')).toHaveAttribute('readonly');
    const rowOf = (name: string) => dialog.getByRole('row').filter({ hasText: name });
    await expect(rowOf(alpha.name).getByRole('checkbox')).toBeChecked();
    await expect(rowOf(bravo.name).getByRole('checkbox')).not.toBeChecked();
    // Rows per page: 5, 10, 25 and 50 (no ALL outside the dashboard).
    await dialog.getByRole('combobox', { name: 'Lignes par page' }).click();
    await expect(page.getByRole('option')).toHaveText(['5', '10', '25', '50']);
    await page.keyboard.press('Escape');

    await field(dialog, 'Nom').fill('Lemoine-Roy');
    await dialog.getByRole('cell', { name: alpha.name, exact: true }).click();
    await dialog.getByRole('cell', { name: bravo.name, exact: true }).click();
    await field(dialog, 'Nouveau mot de passe').fill('newpass1');
    await field(dialog, 'Valider le mot de passe').fill('newpass2');
    await dialog.getByRole('button', { name: 'Enregistrer' }).click();
    await expect(dialog.getByRole('alert')).toContainText('Coéquipier non modifié');
    await expect(dialog.getByRole('alert')).toContainText('Les deux mots de passe doivent être identiques.');

    await field(dialog, 'Valider le mot de passe').fill('newpass1');
    await dialog.getByRole('button', { name: 'Enregistrer' }).click();
    await expect(notice(page)).toContainText('Coéquipier modifié avec succès');
    await expect(dialog).toBeHidden();
    const updated = await userByLogin(server, admin, member.login);
    expect(updated?.lastName).toBe('Lemoine-Roy');
    expect(updated?.channels.map((c: { id: number }) => c.id)).toEqual([bravo.id]);
    const signIn = await server.call('/user/api/login', { user_email: member.login, user_password: 'newpass1' });
    expect(signIn.status).toBe(200);
  });

  test('disconnects a user from all devices', async ({ page, admin, server, seed }) => {
    const member = await seed.member({ firstName: 'Iris', lastName: unique('Morel') });
    await openUsers(page, admin);
    await page.getByRole('searchbox', { name: 'Rechercher un coéquipier' }).fill(member.login);
    await page.getByRole('button', { name: `Modifier Iris ${member.lastName}` }).click();
    const gate = page.getByRole('dialog', { name: 'Vérifiez votre mot de passe' });
    await field(gate, 'Votre mot de passe').fill(admin.password);
    await gate.getByRole('button', { name: 'Vérifier' }).click();
    const dialog = page.getByRole('dialog', { name: 'Modifier le profil du coéquipier' });
    await dialog.getByRole('button', { name: 'Déconnecter de tous les appareils' }).click();
    await expect(dialog.getByRole('alert')).toContainText('Le coéquipier a été déconnecté de tous les appareils');
    const check = await server.call('/user/api/isValidToken', { token: member.token });
    expect(check.status).toBe(401);
  });

  test('disables an account: its open page signs out, its sign-in is refused with a sentence; enabled, it signs in', async ({
    page,
    browser,
    admin,
    seed,
  }) => {
    const member = await seed.member({ firstName: 'Dora', lastName: unique('Arrêt') });
    const name = `Dora ${member.lastName}`;
    const phone = await browser.newPage();
    await useSession(phone, member);
    await phone.goto('/talk');
    await expect(phone.getByRole('heading', { level: 1, name: 'Talkgroup' })).toBeVisible();

    await openUsers(page, admin);
    await page.getByRole('searchbox', { name: 'Rechercher un coéquipier' }).fill(member.login);
    const row = page.getByRole('main').locator('tbody tr').filter({ hasText: member.login });
    await row.getByRole('button', { name: `Désactiver le compte de ${name}` }).click();
    const confirm = page.getByRole('alertdialog');
    await expect(confirm).toContainText('Rien n’est supprimé');
    await confirm.getByRole('button', { name: 'Désactiver', exact: true }).click();
    await expect(notice(page)).toContainText(`Le compte de ${name} est désactivé.`);
    await expect(row).toContainText('Désactivé');
    // The member's page was signed out at once, and the password no longer opens a session.
    await expect(phone).toHaveURL(/\/signin/);
    await phone.getByRole('textbox', { name: 'Identifiant', exact: true }).fill(member.login);
    await phone.getByRole('textbox', { name: 'Mot de passe', exact: true }).fill(member.password);
    await phone.getByRole('button', { name: 'Se connecter', exact: true }).click();
    await expect(phone.getByText('Ce compte est désactivé : contactez votre administrateur.')).toBeVisible();
    await expect(phone).toHaveURL(/\/signin/);

    await row.getByRole('button', { name: `Réactiver le compte de ${name}` }).click();
    await expect(notice(page)).toContainText(`Le compte de ${name} est réactivé.`);
    await expect(row).not.toContainText('Désactivé');
    await phone.getByRole('button', { name: 'Se connecter', exact: true }).click();
    await expect(phone).toHaveURL(/\/talk$/);
    await phone.close();
  });

  test("deletes a user after 'Voulez vous vraiment supprimer {name}'", async ({ page, admin, server, seed }) => {
    const member = await seed.member({ firstName: 'Léa', lastName: unique('Girard') });
    await openUsers(page, admin);
    await page.getByRole('searchbox', { name: 'Rechercher un coéquipier' }).fill(member.login);
    await page.getByRole('button', { name: `Supprimer Léa ${member.lastName}` }).click();
    const confirm = page.getByRole('alertdialog');
    await expect(confirm).toContainText(`Voulez vous vraiment supprimer Léa ${member.lastName}`);
    await confirm.getByRole('button', { name: 'Oui, supprimer !' }).click();
    await expect(notice(page)).toContainText('Le coéquipier a été supprimé');
    await expect(page.getByRole('cell', { name: member.login, exact: true })).toHaveCount(0);
    expect(await userByLogin(server, admin, member.login)).toBeUndefined();
  });

  test('a refused deletion gives Oops, Something went wrong, Please try again', async ({ page, admin }) => {
    await openUsers(page, admin);
    await page.getByRole('searchbox', { name: 'Rechercher un coéquipier' }).fill(admin.login);
    // The server refuses to delete the signed-in administrator.
    await page.getByRole('button', { name: 'Supprimer Ada Lovelace' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Oui, supprimer !' }).click();
    await expect(notice(page)).toContainText('Oups…');
    await expect(notice(page)).toContainText("Quelque chose s'est mal passé ! Veuillez réessayer");
    await expect(page.getByRole('main').getByText(admin.login)).toBeVisible();
  });

  test('sorts by a column, pages 5 rows by default and offers 5, 10 and 25', async ({ page, admin, seed }) => {
    const family = unique('Tri').split(' ')[1];
    for (const first of ['Edgar', 'Alice', 'Denis', 'Bruno', 'Chloé', 'Fanny']) {
      await seed.member({ firstName: first, lastName: `Fam${family}` });
    }
    await openUsers(page, admin);
    await page.getByRole('searchbox', { name: 'Rechercher un coéquipier' }).fill(`Fam${family}`);
    const rows = page.getByRole('main').locator('tbody tr');
    await expect(rows).toHaveCount(5);
    await expect(page.getByText('1-5 de 6')).toBeVisible();

    await page.getByRole('columnheader', { name: 'Prénom' }).click();
    await expect(rows.first()).toContainText('Alice');
    await page.getByRole('columnheader', { name: 'Prénom' }).click();
    await expect(rows.first()).toContainText('Fanny');

    await page.getByRole('combobox', { name: 'Lignes par page' }).click();
    await expect(page.getByRole('option')).toHaveText(['5', '10', '25', '50']);
    await page.getByRole('option', { name: '10' }).click();
    await expect(rows).toHaveCount(6);
  });

  test("shows 'Pas de coéquipiers' when there is none, and says when the filter matches nobody", async ({
    page,
    admin,
  }) => {
    await openUsers(page, admin);
    await page.getByRole('searchbox', { name: 'Rechercher un coéquipier' }).fill('zzz-nobody-zzz');
    await expect(page.getByText('Aucun coéquipier ne correspond à « zzz-nobody-zzz »')).toBeVisible();

    await page.route('**/user/api/getAllUsers', (route) => route.fulfill({ json: { success: true, res: [] } }));
    await page.reload();
    await expect(page.getByText('Pas de coéquipiers')).toBeVisible();
  });

  test('the dashboard variant shows five columns and its edit dialog offers ALL rows', async ({
    page,
    admin,
    seed,
  }) => {
    const member = await seed.member({ firstName: 'Wanda', lastName: unique('Tableau') });
    await page.setViewportSize({ width: 1600, height: 900 });
    await useSession(page, admin);
    await page.goto('/dashboard');
    const table = page.getByRole('table').filter({ has: page.getByRole('columnheader', { name: 'Identifiant' }) });
    // A sortable header also holds its sort badge: compare the start of each header.
    await expect(table.getByRole('columnheader')).toHaveText(
      [/^Prénom/, /^Nom/, /^Identifiant/, /^Pseudo/, /^Action/],
      {
        timeout: 60_000,
      },
    );
    await page.getByRole('searchbox', { name: 'Rechercher un coéquipier' }).fill(member.login);
    await page.getByRole('button', { name: `Modifier Wanda ${member.lastName}` }).click();
    const gate = page.getByRole('dialog', { name: 'Vérifiez votre mot de passe' });
    await field(gate, 'Votre mot de passe').fill(admin.password);
    await gate.getByRole('button', { name: 'Vérifier' }).click();
    const dialog = page.getByRole('dialog', { name: 'Modifier le profil du coéquipier' });
    await dialog.getByRole('combobox', { name: 'Lignes par page' }).click();
    await expect(page.getByRole('option')).toHaveText(['5', '10', '25', '50', 'Tous']);
  });

  test("a user's last activity follows the server's pushes", async ({ page, admin, server, seed }) => {
    const member = await seed.member({ firstName: 'Xavier', lastName: unique('Direct') });
    const channel = await seed.channel(unique('Live'));
    await seed.addToChannel(channel.id, [member.id]);
    await openUsers(page, admin);
    await page.getByRole('searchbox', { name: 'Rechercher un coéquipier' }).fill(member.login);
    const row = page.getByRole('row').filter({ hasText: member.login });
    await expect(row).toContainText(`Connexion de Xavier ${member.lastName}`);

    const socket = io(server.baseURL, { query: { token: member.token }, transports: ['websocket'] });
    try {
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', resolve);
        socket.once('connect_error', reject);
      });
      socket.emit('join_room', { room: channel.rtcSession, name: 'Xavier' });
      await expect(row).toContainText(`Xavier ${member.lastName} a rejoint le canal ${channel.name}`);
    } finally {
      socket.disconnect();
    }
  });

  test("the sidebar's add-user icon opens the Add User dialog", async ({ page, admin }) => {
    await page.setViewportSize({ width: 1600, height: 900 });
    await useSession(page, admin);
    await page.goto('/dashboard');
    await page.getByRole('navigation').getByRole('button', { name: 'Ajouter un coéquipier' }).click();
    await expect(page.getByRole('dialog', { name: 'Ajouter un coéquipier' })).toBeVisible();
  });
});

test.describe('users list (English)', () => {
  test.use({ language: 'en' });

  test('speaks English: columns, validation texts and the success message', async ({ page, admin, server }) => {
    const login = `${unique('english').replace(' ', '.')}@example.org`;
    await openUsers(page, admin);
    await expect(page.getByRole('heading', { name: 'Users List' })).toBeVisible();
    for (const header of ['Firstname', 'Lastname', 'Login', 'Pseudo', 'Map access', 'Created at', 'Last activity']) {
      await expect(page.getByRole('columnheader', { name: header })).toBeVisible();
    }
    await page.getByRole('main').getByRole('button', { name: 'Add User' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add User' });
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();
    await expect(dialog.getByRole('alert')).toContainText('User not created');
    await expect(dialog.getByRole('alert')).toContainText('Check all fields are not empty.');

    await field(dialog, 'First name').fill('Grace');
    await field(dialog, 'Last name').fill('Hopper');
    await field(dialog, 'Login (e-mail)').fill(login);
    await field(dialog, 'Password').fill('cobol-1959');
    await field(dialog, 'Validate password').fill('cobol-1960');
    await expect(dialog.getByText('The two passwords must be identical')).toBeVisible();
    await field(dialog, 'Validate password').fill('cobol-1959');
    await expect(dialog.getByRole('switch', { name: 'Map access right' })).not.toBeChecked();
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();
    await expect(notice(page)).toContainText('User added successfully');
    expect(await userByLogin(server, admin, login)).toMatchObject({ firstName: 'Grace', mapRight: false });

    await page.getByRole('searchbox', { name: 'Search users' }).fill(login);
    await page.getByRole('button', { name: 'Edit Grace Hopper' }).click();
    const gate = page.getByRole('dialog', { name: 'Verify your password' });
    await field(gate, 'Your password').fill('wrong-password');
    await gate.getByRole('button', { name: 'Verify' }).click();
    await expect(gate.getByText('Incorrect password')).toBeVisible();
    await gate.getByRole('button', { name: 'Cancel' }).click();

    await page.getByRole('button', { name: 'Delete Grace Hopper' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Yes, delete it!' }).click();
    await expect(notice(page)).toContainText('the User has been deleted');
  });

  test("shows 'No users' for an empty list", async ({ page, admin }) => {
    await page.route('**/user/api/getAllUsers', (route) => route.fulfill({ json: { success: true, res: [] } }));
    await openUsers(page, admin);
    await expect(page.getByText('No users')).toBeVisible();
  });
});
