/**
 * Functional aliases (issue 59), in real Chromium: an administrator defines a function on /settings and lets
 * members take it (issue 69: the roles that may take each), a member takes it on /talk, where a function for the
 * desk only is not offered; the dispatch console shows it beside the member's name and calls it; the member's
 * phone rings for that function, accepts, and both are in the call.
 */
import { randomBytes } from 'node:crypto';
import { seriousViolations } from './axe.ts';
import { chromiumLaunchOptions } from './chromium.ts';
import { monitor, rowAction } from './dispatch-support.ts';
import { expect as baseExpect, test } from './fixtures.ts';
import { fakeMicrophoneArgs } from './room-audio.ts';
import { openAs, TONE_WAV } from './room-support.ts';

const expect = baseExpect.configure({ timeout: 60_000 });

test.use({ launchOptions: chromiumLaunchOptions(fakeMicrophoneArgs(TONE_WAV)) });
test.describe.configure({ timeout: 240_000 });

test('a function defined on /settings, taken on /talk, is called from the console and rings its holder', async ({
  browser,
  server,
  seed,
  admin,
}) => {
  const tag = randomBytes(2).toString('hex');
  const name = `Chef de quart ${tag}`;
  const deskOnly = `Régulateur ${tag}`;
  const north = await seed.channel();
  const desk = await seed.member({ firstName: 'Dana', lastName: 'Desk', role: 'dispatcher' });
  const mia = await seed.member({ firstName: 'Mia', lastName: 'Field' });
  await seed.addToChannel(north.id, [desk.id, mia.id]);
  const a = await openAs(browser, server.baseURL, admin);
  const m = await openAs(browser, server.baseURL, mia, { viewport: { width: 390, height: 844 } });
  const d = await openAs(browser, server.baseURL, desk);
  try {
    // The administrator defines the function, and lets members take it; another stays the desk's (the default).
    await a.page.goto('/settings');
    const functions = a.page.getByRole('region', { name: 'Functions' });
    const newRoles = functions.getByRole('group', { name: 'Who may take the new function' });
    await expect(newRoles.getByRole('checkbox', { name: 'Dispatchers' })).toBeChecked();
    await functions.getByRole('textbox', { name: 'New function' }).fill(name);
    await newRoles.getByRole('checkbox', { name: 'Members' }).check();
    await functions.getByRole('button', { name: 'Add the function' }).click();
    const row = functions.getByRole('group', { name: `Function ${name}` });
    await expect(row).toContainText('Nobody holds it');
    await expect(
      row.getByRole('group', { name: 'Who may take it' }).getByRole('checkbox', { name: 'Members' }),
    ).toBeChecked();
    await functions.getByRole('textbox', { name: 'New function' }).fill(deskOnly);
    await functions.getByRole('button', { name: 'Add the function' }).click();
    const deskRow = functions.getByRole('group', { name: `Function ${deskOnly}` });
    await expect(deskRow.getByRole('checkbox', { name: 'Members' })).not.toBeChecked();
    await expect(deskRow.getByRole('checkbox', { name: 'Administrators' })).toBeChecked();
    expect(await seriousViolations(a.page, 'section[aria-labelledby="settings-aliases"]')).toEqual([]);

    // The member takes it on /talk.
    await m.page.goto(`/talk/${north.id}`);
    await expect(m.page.getByRole('button', { name: 'Push to talk' })).toBeVisible();
    await m.page.getByRole('button', { name: 'Functions' }).click();
    await expect(m.page.getByRole('menuitem', { name: new RegExp(`^Take ${name}`) })).toBeVisible();
    await expect(m.page.getByRole('menuitem', { name: new RegExp(deskOnly) })).toHaveCount(0);
    await m.page.getByRole('menuitem', { name: new RegExp(`^Take ${name}`) }).click();
    await expect(m.page.getByRole('button', { name: 'Functions' })).toHaveText(name);
    await expect(functions.getByRole('group', { name: `Function ${name}` })).toContainText('Held by Mia Field');

    // The console shows it beside her name, and calls it.
    await d.page.goto('/dispatch');
    await monitor(d.page, [north.name]);
    const tile = d.page.getByRole('region', { name: `Channel ${north.name}` });
    await expect(tile.getByRole('img', { name: `Function: ${name}` })).toBeVisible();
    expect(await seriousViolations(d.page, `ul[aria-label="Members of ${north.name}"]`)).toEqual([]);
    // The desk sees which functions she holds on her row (and could give her another or take this one back).
    await (await rowAction(tile, 'Mia Field', 'Functions of Mia Field')).click();
    await expect(d.page.getByRole('menuitemcheckbox', { name: new RegExp(`^${name}`) })).toBeChecked();
    await d.page.keyboard.press('Escape');
    await d.page.getByRole('button', { name: 'Call a function' }).click();
    await d.page.getByRole('menuitem', { name: new RegExp(`^Call ${name}`) }).click();

    const ring = m.page.getByRole('dialog', { name: 'Private call' });
    await expect(ring).toContainText('Dana Desk is calling you');
    await expect(ring).toContainText(`For “${name}”`);
    expect(await seriousViolations(m.page, '[role="dialog"]')).toEqual([]);
    await ring.getByRole('button', { name: 'Accept' }).click();
    await expect(m.page.getByRole('region', { name: 'Private call with Dana Desk' })).toBeVisible();
    await expect(d.page.getByRole('region', { name: 'Private call with Mia Field' })).toBeVisible();
  } finally {
    await a.close();
    await m.close();
    await d.close();
  }
});
