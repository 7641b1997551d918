/**
 * SIP gateways on /settings (issue 51), what only a page shows: an administrator adds a gateway (a login already
 * taken is refused with the server's sentence), sees its secret once with the SIP address to dial for its
 * channel, changes it to DTMF with more simultaneous calls, sees no number on the channel's page while it runs peer to peer, asks for a new secret
 * (confirmed first), deletes it (confirmed), and finds its creation in the audit log; in French on a phone's
 * window, in English on a wide one, with no serious accessibility violation (axe) in the section and its dialogs.
 * The calls themselves, their audit and their refusals are packages/server/test/gateways*.test.ts's.
 */
import type { Page } from '@playwright/test';
import { seriousViolations } from './axe.ts';
import { expect as baseExpect, test, unique } from './fixtures.ts';
import { openAs, roomUrl } from './room-support.ts';

const expect = baseExpect.configure({ timeout: 60_000 });
/** A first visit on a busy machine may take long (the page and its language load). */
const FIRST_PAINT = { timeout: 90_000 };

test.describe.configure({ timeout: 240_000 });

const TEXTS = {
  fr: {
    section: 'Passerelles',
    add: 'Ajouter une passerelle',
    name: 'Nom',
    login: 'Identifiant',
    channels: 'Canaux',
    create: 'Ajouter',
    taken: (login: string) => `Une autre passerelle utilise déjà l’identifiant ${login}`,
    secret: 'Secret',
    once: 'Ce secret ne sera plus affiché',
    done: 'J’ai noté le secret',
    edit: (name: string) => `Modifier ${name}`,
    floorMode: 'Mode de prise de parole',
    dtmf: 'DTMF',
    simultaneousCalls: 'Appels simultanés',
    oneCallPerChannel: '1 (un par canal)',
    save: 'Enregistrer',
    number: (number: string) => `Numéro : ${number}`,
    reset: (name: string) => `Nouveau secret pour ${name}`,
    resetConfirm: 'Nouveau secret',
    remove: (name: string) => `Supprimer ${name}`,
    removeConfirm: 'Supprimer',
    audit: 'Création d’une passerelle',
  },
  en: {
    section: 'Gateways',
    add: 'Add a gateway',
    name: 'Name',
    login: 'Login',
    channels: 'Channels',
    create: 'Add',
    taken: (login: string) => `Another gateway already uses the login ${login}`,
    secret: 'Secret',
    once: 'This secret will not be shown again',
    done: 'I have noted the secret',
    edit: (name: string) => `Edit ${name}`,
    floorMode: 'Floor mode',
    dtmf: 'DTMF',
    simultaneousCalls: 'Simultaneous calls',
    oneCallPerChannel: '1 (one per channel)',
    save: 'Save',
    number: (number: string) => `Number: ${number}`,
    reset: (name: string) => `New secret for ${name}`,
    resetConfirm: 'New secret',
    remove: (name: string) => `Delete ${name}`,
    removeConfirm: 'Delete',
    audit: 'Gateway added',
  },
} as const;

const RUNS = [
  { language: 'fr', size: 'narrow', viewport: { width: 390, height: 844 } },
  { language: 'en', size: 'wide', viewport: { width: 1400, height: 900 } },
] as const;

/** Screenshots to look at (not checked): E2E_SCREENSHOTS=1. */
async function shot(page: Page, name: string) {
  if (process.env.E2E_SCREENSHOTS) await page.screenshot({ path: test.info().outputPath(`${name}.png`) });
}

for (const { language, size, viewport } of RUNS) {
  test(`an administrator adds, changes, re-keys and deletes a gateway on /settings (${language}, ${size})`, async ({
    browser,
    server,
    admin,
    seed,
  }) => {
    const texts = TEXTS[language];
    const channel = await seed.channel(unique('Quai'));
    const number = String(1000 + channel.id);
    // A gateway made beforehand, whose login the form first repeats.
    const takenLogin = unique('radio-taken').replace(' ', '-');
    const first = await server.call(
      '/user/api/createGateway',
      { name: unique('Taken'), login: takenLogin },
      admin.token,
    );
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const name = unique('Radio Quai');
    const login = unique('radio-quai').replace(' ', '-');
    const a = await openAs(browser, server.baseURL, admin, { language, viewport });
    try {
      const { page } = a;
      await page.goto('/settings');
      const section = page.getByRole('region', { name: texts.section });
      await expect(section.getByRole('button', { name: texts.add })).toBeEnabled(FIRST_PAINT);

      await section.getByRole('button', { name: texts.add }).click();
      const form = page.getByRole('dialog', { name: texts.add });
      await form.getByRole('textbox', { name: texts.name }).fill(name);
      await form.getByRole('textbox', { name: texts.login }).fill(takenLogin);
      await form.getByRole('combobox', { name: texts.channels }).click();
      await page.getByRole('option', { name: `${number} · ${channel.name}` }).click();
      await page.keyboard.press('Escape');
      await expect(form.getByRole('button', { name: `${number} · ${channel.name}` })).toBeVisible();
      await shot(page, `${language}-${size}-dialog`);
      expect(await seriousViolations(page, '[role="dialog"]')).toEqual([]);
      await form.getByRole('button', { name: texts.create, exact: true }).click();
      await expect(form.getByRole('alert')).toContainText(texts.taken(takenLogin));

      // The secret, once, beside what to program in the gateway.
      await form.getByRole('textbox', { name: texts.login }).fill(login);
      await form.getByRole('button', { name: texts.create, exact: true }).click();
      const shown = page.getByRole('dialog').filter({ hasText: texts.once });
      const secretField = shown.getByRole('textbox', { name: texts.secret, exact: true });
      await expect(secretField).toHaveValue(/^[A-Za-z0-9]{24}$/);
      const secret = await secretField.inputValue();
      const host = new URL(server.baseURL).hostname;
      await expect(shown).toContainText(`sip:${number}@${host}`);
      await expect(shown).toContainText(login);
      await shot(page, `${language}-${size}-secret`);
      expect(await seriousViolations(page, '[role="dialog"]')).toEqual([]);
      await shown.getByRole('button', { name: texts.done }).click();
      await expect(shown).toBeHidden();
      const item = section.getByRole('listitem', { name, exact: true });
      await expect(item).toContainText(login);
      await expect(item).toContainText(`${number} · ${channel.name}`);
      await expect(item).toContainText(texts.oneCallPerChannel);
      await expect(page.getByText(secret)).toHaveCount(0);
      await shot(page, `${language}-${size}-settings`);
      expect(await seriousViolations(page, 'main')).toEqual([]);

      // Changed to DTMF, with three simultaneous calls.
      await item.getByRole('button', { name: texts.edit(name) }).click();
      const edit = page.getByRole('dialog', { name: texts.edit(name) });
      await expect(edit.getByRole('textbox', { name: texts.login })).toHaveValue(login);
      await edit.getByRole('radiogroup', { name: texts.floorMode }).getByRole('radio', { name: texts.dtmf }).check();
      await edit.getByRole('textbox', { name: texts.simultaneousCalls }).fill('3');
      await edit.getByRole('button', { name: texts.save }).click();
      await expect(edit).toBeHidden();
      await expect(item).toContainText(texts.dtmf);
      const listed = await server.call('/user/api/listGateways', {}, admin.token);
      expect(listed.body.res.find((gateway: { login: string }) => gateway.login === login)).toMatchObject({
        name,
        floorMode: 'dtmf',
        channelIds: [channel.id],
        simultaneousCalls: 3,
      });

      // The number a gateway dials shows on the channel's page only while its voice goes through the media
      // server (issue 58): this server has none, the room runs peer to peer, and no number is offered.
      await page.goto(roomUrl(channel.rtcSession));
      await expect(page.getByRole('heading', { level: 1, name: channel.name })).toBeVisible(FIRST_PAINT);
      await expect(page.getByTestId('voice-transport')).toBeVisible();
      await expect(page.getByText(texts.number(number))).toHaveCount(0);

      // A new secret, confirmed first, shown once.
      await page.goto('/settings');
      await item.getByRole('button', { name: texts.reset(name) }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: texts.resetConfirm, exact: true }).click();
      await expect(secretField).toHaveValue(/^[A-Za-z0-9]{24}$/);
      expect(await secretField.inputValue()).not.toBe(secret);
      await shown.getByRole('button', { name: texts.done }).click();
      await expect(shown).toBeHidden();

      // Deleted, confirmed first.
      await item.getByRole('button', { name: texts.remove(name) }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: texts.removeConfirm, exact: true }).click();
      await expect(item).toHaveCount(0);

      // Its creation in the audit log.
      await page.goto('/auditLog');
      await expect(page.getByRole('row').filter({ hasText: texts.audit }).filter({ hasText: name })).toBeVisible(
        FIRST_PAINT,
      );
    } finally {
      await a.close();
      await server.call('/user/api/deleteGateway', { id: first.body.res.id }, admin.token);
    }
  });
}
