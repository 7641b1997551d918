/**
 * The channels list and its dialogs (spec sections 2, 4, 5 and 8): French by default, one block in English.
 * Live counts: a member's own Socket.IO client (token in the handshake query) joins the channel's room.
 */
import type { Locator, Page } from '@playwright/test';
import { io } from 'socket.io-client';
import { type Account, expect, type TalkgroupServer, test, unique, useSession } from './fixtures.ts';

async function openChannels(page: Page, admin: Account) {
  await useSession(page, admin);
  await page.goto('/channelsList');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible({ timeout: 60_000 });
}

async function channelByName(server: TalkgroupServer, admin: Account, name: string) {
  const answer = await server.call('/user/api/getAllChannels', {}, admin.token);
  return (answer.body.res as Array<Record<string, any>>).find((channel) => channel.name === name);
}

const field = (scope: Locator, label: string) => scope.getByLabel(new RegExp(`^${label}(\\s*\\*)?$`));
const notice = (page: Page) => page.locator('.MuiSnackbar-root').getByRole('alert');
const search = (page: Page) => page.getByRole('searchbox', { name: 'Rechercher un canal' });

test.describe('channels list (French)', () => {
  test.use({ language: 'fr' });

  test('creates a channel with users, after refusing a blank name', async ({ page, admin, server, seed }) => {
    const first = await seed.member({ firstName: 'Nora', lastName: unique('Petit') });
    const second = await seed.member({ firstName: 'Omar', lastName: unique('Roux') });
    const name = unique('Secours');
    await openChannels(page, admin);

    await page.getByRole('main').getByRole('button', { name: 'Ajouter un canal' }).click();
    const dialog = page.getByRole('dialog', { name: 'Ajouter un canal' });
    await field(dialog, 'Nom du canal').fill('   ');
    await dialog.getByRole('button', { name: 'Créer' }).click();
    await expect(dialog.getByRole('alert')).toContainText('Canal non créé');
    await expect(dialog.getByRole('alert')).toContainText('Vérifier que tous les champs sont remplis.');

    await field(dialog, 'Nom du canal').fill(name);
    await dialog.getByRole('searchbox').fill(first.login);
    await dialog.getByRole('cell', { name: first.login, exact: true }).click();
    await dialog.getByRole('searchbox').fill(second.login);
    await dialog.getByRole('cell', { name: second.login, exact: true }).click();
    await expect(dialog.getByText('2 coéquipiers sélectionnés')).toBeVisible();
    await dialog.getByRole('button', { name: 'Créer' }).click();

    await expect(notice(page)).toContainText('Canal créé avec succès');
    const created = await channelByName(server, admin, name);
    expect(created?.rtcSession).toBe(name.replace(/\s+/g, ''));
    expect(created?.users.map((u: { id: number }) => u.id).sort()).toEqual([first.id, second.id].sort());
    await search(page).fill(name);
    const row = page.getByRole('row', { name: `Entrer dans le canal ${name}` });
    await expect(row).toContainText(/\d\d [a-zéû]+\.? \d{4} \d\d:\d\d/);
    await expect(row.getByRole('img', { name: '0 connectés sur 2' })).toBeVisible();
  });

  test('updates the name and the users of a channel, and refuses a name that exists', async ({
    page,
    admin,
    server,
    seed,
  }) => {
    const member = await seed.member({ firstName: 'Paule', lastName: unique('Faure') });
    const other = await seed.member({ firstName: 'Quentin', lastName: unique('Blanc') });
    const taken = await seed.channel(unique('Pris'));
    const channel = await seed.channel(unique('Relais'));
    await seed.addToChannel(channel.id, [member.id]);
    const renamed = unique('Relais renommé');
    await openChannels(page, admin);
    await search(page).fill(channel.name);
    await page.getByRole('button', { name: `Modifier ${channel.name}` }).click();

    const dialog = page.getByRole('dialog', { name: 'Modifier le canal' });
    await expect(field(dialog, 'Nom du canal')).toHaveValue(channel.name);
    await expect(dialog.getByText('1 coéquipier sélectionné')).toBeVisible();
    await field(dialog, 'Nom du canal').fill(taken.name);
    await dialog.getByRole('button', { name: 'Enregistrer' }).click();
    await expect(dialog.getByRole('alert')).toContainText('Canal non modifié');
    await expect(dialog.getByRole('alert')).toContainText('Ce nom de canal existe déjà');

    await field(dialog, 'Nom du canal').fill(renamed);
    await dialog.getByRole('searchbox').fill(member.login);
    await dialog.getByRole('cell', { name: member.login, exact: true }).click();
    await dialog.getByRole('searchbox').fill(other.login);
    await dialog.getByRole('cell', { name: other.login, exact: true }).click();
    await dialog.getByRole('button', { name: 'Enregistrer' }).click();
    await expect(notice(page)).toContainText('Canal modifié avec succès');

    const updated = await channelByName(server, admin, renamed);
    expect(updated?.id).toBe(channel.id);
    expect(updated?.users.map((u: { id: number }) => u.id)).toEqual([other.id]);
    await search(page).fill(renamed);
    await expect(page.getByRole('row', { name: `Entrer dans le canal ${renamed}` })).toBeVisible();
  });

  test('deletes a channel after confirming', async ({ page, admin, server, seed }) => {
    const channel = await seed.channel(unique('Éphémère'));
    await openChannels(page, admin);
    await search(page).fill(channel.name);
    await page.getByRole('button', { name: `Supprimer ${channel.name}` }).click();
    const confirm = page.getByRole('alertdialog');
    await expect(confirm).toContainText(`Voulez vous vraiment supprimer ${channel.name}`);
    await confirm.getByRole('button', { name: 'Oui, supprimer !' }).click();
    await expect(notice(page)).toContainText('Le canal a été supprimé');
    await expect(page.getByRole('row', { name: `Entrer dans le canal ${channel.name}` })).toHaveCount(0);
    expect(await channelByName(server, admin, channel.name)).toBeUndefined();
  });

  test('counts connected users live as a member joins and leaves the room', async ({ page, admin, server, seed }) => {
    const member = await seed.member({ firstName: 'Rémi', lastName: unique('Vidal') });
    const idle = await seed.member({ firstName: 'Sarah', lastName: unique('Noël') });
    const channel = await seed.channel(unique('Direct'));
    await seed.addToChannel(channel.id, [member.id, idle.id]);
    await openChannels(page, admin);
    await search(page).fill(channel.name);
    const row = page.getByRole('row', { name: `Entrer dans le canal ${channel.name}` });
    await expect(row.getByRole('img', { name: '0 connectés sur 2' })).toBeVisible();

    const socket = io(server.baseURL, { query: { token: member.token }, transports: ['websocket'] });
    try {
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', resolve);
        socket.once('connect_error', reject);
      });
      socket.emit('join_room', { room: channel.rtcSession, name: 'Rémi' });
      await expect(row.getByRole('img', { name: '1 connectés sur 2' })).toBeVisible();
    } finally {
      socket.disconnect();
    }
    await expect(row.getByRole('img', { name: '0 connectés sur 2' })).toBeVisible();
  });

  test('a row click keeps the channel in localStorage and opens its room', async ({ page, admin, seed }) => {
    const channel = await seed.channel(unique('Salle Une'));
    await openChannels(page, admin);
    await search(page).fill(channel.name);
    await page.getByRole('cell', { name: channel.name, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/groupCallView/${channel.rtcSession}$`));
    expect(await page.evaluate(() => [localStorage.getItem('channelName'), localStorage.getItem('channelId')])).toEqual(
      [channel.name, String(channel.id)],
    );
  });

  test("the room's Search User dialog adds and removes members after 'Êtes-vous sûr ?'", async ({
    page,
    admin,
    server,
    seed,
  }) => {
    const inside = await seed.member({ firstName: 'Tina', lastName: unique('Dedans') });
    const outside = await seed.member({ firstName: 'Ugo', lastName: unique('Dehors') });
    const channel = await seed.channel(unique('Gestion'));
    await seed.addToChannel(channel.id, [inside.id]);
    const memberIds = async () =>
      ((await channelByName(server, admin, channel.name))?.users ?? []).map((u: { id: number }) => u.id);
    await page.setViewportSize({ width: 1600, height: 900 });
    await useSession(page, admin);
    await page.addInitScript(
      ({ id, name }) => {
        localStorage.setItem('channelId', String(id));
        localStorage.setItem('channelName', name);
      },
      { id: channel.id, name: channel.name },
    );
    await page.goto(`/groupCallView/${channel.rtcSession}`);
    await page.getByRole('button', { name: 'Ajouter ou retirer des utilisateurs' }).click();

    const dialog = page.getByRole('dialog', { name: `Coéquipiers du canal ${channel.name}` });
    await dialog.getByRole('searchbox').fill(outside.login);
    await dialog.getByRole('button', { name: `Ajouter Ugo ${outside.lastName} au canal` }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Êtes-vous sûr ?' });
    await expect(confirm).toContainText(`Ajouter Ugo ${outside.lastName} au canal ${channel.name} ?`);
    await confirm.getByRole('button', { name: 'Ajouter' }).click();
    await expect(dialog.getByRole('alert')).toContainText('Coéquipier ajouté au canal');
    await expect(dialog.getByRole('button', { name: `Retirer Ugo ${outside.lastName} du canal` })).toBeVisible();
    expect((await memberIds()).sort()).toEqual([inside.id, outside.id].sort());

    await dialog.getByRole('searchbox').fill(inside.login);
    await dialog.getByRole('button', { name: `Retirer Tina ${inside.lastName} du canal` }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Retirer' }).click();
    await expect(dialog.getByRole('alert')).toContainText('Coéquipier retiré du canal');
    expect(await memberIds()).toEqual([outside.id]);
  });

  test("shows 'Pas de canaux' for an empty list and opens Add Channel from the sidebar", async ({ page, admin }) => {
    await page.setViewportSize({ width: 1600, height: 900 });
    await page.route('**/user/api/getChannelOverviews', (route) => route.fulfill({ json: { success: true, res: [] } }));
    await openChannels(page, admin);
    await expect(page.getByText('Pas de canaux')).toBeVisible();
    await page.getByRole('navigation').getByRole('button', { name: 'Ajouter un canal' }).click();
    await expect(page.getByRole('dialog', { name: 'Ajouter un canal' })).toBeVisible();
  });
});

test.describe('channels list (English)', () => {
  test.use({ language: 'en' });

  test('speaks English: columns, create and delete messages; with a media server, a channel made peer to peer', async ({
    page,
    admin,
    server,
  }) => {
    const name = unique('Night Shift');
    // The server says a media server carries the voice (as with JANUS_URL: client-config.test.ts): the dialog offers
    // "Voice through the media server", on by default. What createChannel keeps of it is channel-voice-mode.test.ts's.
    await page.route('**/user/api/getClientConfig', async (route) => {
      const response = await route.fetch();
      const json = await response.json();
      await route.fulfill({ response, json: { ...json, res: { ...json.res, mediaServer: true } } });
    });
    await openChannels(page, admin);
    await expect(page.getByRole('heading', { name: 'Channels List' })).toBeVisible();
    for (const header of ['Channel Name', 'Users', 'Created at', 'Action']) {
      await expect(page.getByRole('columnheader', { name: header })).toBeVisible();
    }
    await page.getByRole('main').getByRole('button', { name: 'Add Channel' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Channel' });
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expect(dialog.getByRole('alert')).toContainText('Channel not created');
    await expect(dialog.getByRole('alert')).toContainText('Check all fields are not empty.');
    await field(dialog, 'Channel Name').fill(name);
    const throughServer = dialog.getByRole('switch', {
      name: 'Voice through the media server (off: always peer to peer)',
    });
    await expect(throughServer).toBeChecked();
    await throughServer.uncheck();
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expect(notice(page)).toContainText('Channel created successfully');
    expect((await channelByName(server, admin, name))?.voiceMode).toBe('mesh');

    await page.getByRole('searchbox', { name: 'Search channels' }).fill(name);
    await page.getByRole('button', { name: `Delete ${name}` }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Yes, delete it!' }).click();
    await expect(notice(page)).toContainText('Channel has been deleted');
  });

  test("the Search User dialog says 'User Added To Channel' and 'User Deleted from Channel'", async ({
    page,
    admin,
    seed,
  }) => {
    const member = await seed.member({ firstName: 'Vic', lastName: unique('Toggle') });
    const channel = await seed.channel(unique('Toggle'));
    await page.setViewportSize({ width: 1600, height: 900 });
    await useSession(page, admin);
    await page.addInitScript(
      ({ id, name }) => {
        localStorage.setItem('channelId', String(id));
        localStorage.setItem('channelName', name);
      },
      { id: channel.id, name: channel.name },
    );
    await page.goto(`/groupCallView/${channel.rtcSession}`);
    await page.getByRole('button', { name: 'Add or remove users' }).click();
    const dialog = page.getByRole('dialog', { name: `Users of the channel ${channel.name}` });
    await dialog.getByRole('searchbox').fill(member.login);
    await dialog.getByRole('button', { name: `Add Vic ${member.lastName} to the channel` }).click();
    await page.getByRole('alertdialog', { name: 'Are you sure?' }).getByRole('button', { name: 'Add' }).click();
    await expect(dialog.getByRole('alert')).toContainText('User Added To Channel');
    await dialog.getByRole('button', { name: `Remove Vic ${member.lastName} from the channel` }).click();
    await page.getByRole('alertdialog', { name: 'Are you sure?' }).getByRole('button', { name: 'Remove' }).click();
    await expect(dialog.getByRole('alert')).toContainText('User Deleted from Channel');
  });

  test("shows 'No channels' for an empty list", async ({ page, admin }) => {
    await page.route('**/user/api/getChannelOverviews', (route) => route.fulfill({ json: { success: true, res: [] } }));
    await openChannels(page, admin);
    await expect(page.getByText('No channels')).toBeVisible();
  });
});
