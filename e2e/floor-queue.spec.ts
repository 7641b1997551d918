/**
 * The floor queue and pre-emption on the pages (issue 59), in real browsers; what only a page shows (the
 * order, offers, expiry and removal are the server's tests):
 * - a press on a busy floor reads "Queued (1st)" on /talk, the next one "Queued (2nd)" in the room, and
 *   releasing the button keeps the place; the dispatch console's tile lists who waits and "Remove … from
 *   queue" takes one out (its page goes back to "Hold to talk"); "Cancel" leaves the queue;
 * - when the talker lets go, the first in line, still holding, reads "Your turn" and talks at once;
 * - a member whose talk priority is 8 interrupts a talker, who reads "Interrompu par …" (French);
 * - issue 70: while queued the hint says letting go keeps the place; an offered turn has its own look (green,
 *   pulsing, a plain microphone) and counts its seconds down; a lapsed one reads "Turn missed";
 * - the user's dialog sets a talk priority, the channel's its queue and pre-emption (French).
 */
import type { Page } from '@playwright/test';
import { chromiumLaunchOptions } from './chromium.ts';
import { hold, monitor } from './dispatch-support.ts';
import { expect as baseExpect, test, unique } from './fixtures.ts';
import { fakeMicrophoneArgs } from './room-audio.ts';
import { openAs, type RoomPage, roomUrl, TONE_WAV } from './room-support.ts';
import { openUsers } from './users-support.ts';

const expect = baseExpect.configure({ timeout: 60_000 });

test.use({ launchOptions: chromiumLaunchOptions(fakeMicrophoneArgs(TONE_WAV)) });
test.describe.configure({ timeout: 240_000 });

/**
 * Watches, in the page itself, for a text that may show only a moment (an offer confirmed at once by a held
 * button); the returned function waits until it was seen.
 */
async function watchForText(page: Page, text: string): Promise<() => Promise<void>> {
  await page.evaluate((wanted) => {
    const holder = window as { __textsSeen?: Record<string, boolean> };
    if (!holder.__textsSeen) holder.__textsSeen = {};
    const seen = holder.__textsSeen;
    seen[wanted] = false;
    const look = () => {
      if (!(document.body.textContent ?? '').includes(wanted)) return false;
      seen[wanted] = true;
      return true;
    };
    if (look()) return;
    const observer = new MutationObserver(() => {
      if (look()) observer.disconnect();
    });
    observer.observe(document.body, { subtree: true, childList: true, characterData: true });
  }, text);
  return () =>
    expect
      .poll(() =>
        page.evaluate((wanted) => (window as { __textsSeen?: Record<string, boolean> }).__textsSeen?.[wanted], text),
      )
      .toBe(true);
}

test('a busy floor queues presses in order, a dispatcher removes one, and the first in line talks when it frees', async ({
  browser,
  server,
  seed,
}) => {
  const channel = await seed.channel();
  const mia = await seed.member({ firstName: 'Mia', lastName: 'Talker' });
  const noe = await seed.member({ firstName: 'Noe', lastName: 'Waiting' });
  const leo = await seed.member({ firstName: 'Leo', lastName: 'Second' });
  const dora = await seed.member({ firstName: 'Dora', lastName: 'Desk', role: 'dispatcher' });
  await seed.addToChannel(channel.id, [mia.id, noe.id, leo.id, dora.id]);

  const m = await openAs(browser, server.baseURL, mia);
  const n = await openAs(browser, server.baseURL, noe, { viewport: { width: 390, height: 844 } });
  const l = await openAs(browser, server.baseURL, leo);
  const d = await openAs(browser, server.baseURL, dora, { viewport: { width: 1400, height: 900 } });
  const pages: RoomPage[] = [m, n, l, d];
  try {
    await d.page.goto('/dispatch');
    await monitor(d.page, [channel.name]);
    const tile = d.page.getByRole('region', { name: `Channel ${channel.name}` });
    await m.page.goto(roomUrl(channel.rtcSession));
    await l.page.goto(roomUrl(channel.rtcSession));
    await n.page.goto(`/talk/${channel.id}`);
    const miaPtt = m.page.getByRole('button', { name: 'Push to talk' });
    const noePtt = n.page.getByRole('button', { name: 'Push to talk' });
    const leoPtt = l.page.getByRole('button', { name: 'Push to talk' });
    for (const button of [miaPtt, noePtt, leoPtt]) await expect(button).toBeEnabled();

    // Mia talks.
    const releaseMia = await hold(m.page, miaPtt);
    await expect(miaPtt).toHaveAttribute('aria-pressed', 'true');

    // Noe presses on /talk and keeps holding: first in line, behind Mia, with Cancel.
    const releaseNoe = await hold(n.page, noePtt);
    await expect(n.page.getByText('Queued (1st)')).toBeVisible();
    await expect(n.page.getByText('Mia Talker is talking: you talk when your turn comes.')).toBeVisible();
    await expect(n.page.getByRole('button', { name: 'Cancel' })).toBeVisible();
    await expect(noePtt).toHaveAttribute('data-mic', 'off');

    // Leo presses in the room and lets go: second in line, and still there after the release.
    const releaseLeo = await hold(l.page, leoPtt);
    await expect(l.page.getByText('Queued (2nd)')).toBeVisible();
    await releaseLeo();
    await expect(l.page.getByText('Queued (2nd)')).toBeVisible();

    // The console's tile lists who waits, first first; the dispatcher takes Leo out of the queue.
    const queue = tile.getByRole('region', { name: 'Floor queue' });
    await expect(queue.getByRole('listitem')).toHaveText([/Noe Waiting/, /Leo Second/]);
    await queue.getByRole('button', { name: 'Remove Leo Second from queue' }).click();
    await expect(queue.getByRole('listitem')).toHaveText([/Noe Waiting/]);
    await expect(l.page.getByText('Queued (2nd)')).toBeHidden();
    await expect(l.page.getByText('Hold to talk')).toBeVisible();

    // Leo queues again, then leaves the queue with Cancel.
    const releaseLeoAgain = await hold(l.page, leoPtt);
    await expect(l.page.getByText('Queued (2nd)')).toBeVisible();
    await releaseLeoAgain();
    await l.page.getByRole('button', { name: 'Cancel' }).click();
    await expect(l.page.getByText('Hold to talk')).toBeVisible();
    await expect(queue.getByRole('listitem')).toHaveText([/Noe Waiting/]);

    // Mia lets go: the floor is offered to Noe, who still holds the button, reads "Your turn" and talks.
    const yourTurn = await watchForText(n.page, 'Your turn');
    await releaseMia();
    await yourTurn();
    await expect(noePtt).toHaveAttribute('aria-pressed', 'true');
    await expect(n.page.getByText('On air', { exact: true })).toBeVisible();
    await expect(queue).toBeHidden();
    await releaseNoe();
    await expect(noePtt).toHaveAttribute('aria-pressed', 'false');
  } finally {
    for (const { close } of pages) await close();
  }
});

test('an offered turn looks its own and counts down; left untaken it reads "Turn missed"', async ({
  browser,
  server,
  seed,
}) => {
  const channel = await seed.channel();
  const mia = await seed.member({ firstName: 'Mia', lastName: 'Talker' });
  const noe = await seed.member({ firstName: 'Noe', lastName: 'Waiting' });
  await seed.addToChannel(channel.id, [mia.id, noe.id]);

  const m = await openAs(browser, server.baseURL, mia);
  const n = await openAs(browser, server.baseURL, noe, { viewport: { width: 390, height: 844 } });
  const pages: RoomPage[] = [m, n];
  try {
    await m.page.goto(roomUrl(channel.rtcSession));
    await n.page.goto(`/talk/${channel.id}`);
    const miaPtt = m.page.getByRole('button', { name: 'Push to talk' });
    const noePtt = n.page.getByRole('button', { name: 'Push to talk' });
    const releaseMia = await hold(m.page, miaPtt);
    await expect(miaPtt).toHaveAttribute('aria-pressed', 'true');

    // Noe presses and lets go: still first in line, and the hint says that letting go keeps the place.
    const releaseNoe = await hold(n.page, noePtt);
    await expect(n.page.getByText('Queued (1st)')).toBeVisible();
    await releaseNoe();
    await expect(n.page.getByText('Queued (1st)')).toBeVisible();
    await expect(n.page.getByText('You may let go of the button: you keep your place.')).toBeVisible();
    await expect(noePtt).not.toHaveAttribute('data-turn', 'offered');

    // Mia lets go: Noe's turn, green with a plain microphone, its seconds counted down.
    await releaseMia();
    await expect(noePtt).toHaveAttribute('data-turn', 'offered');
    await expect(n.page.getByText('Your turn', { exact: true })).toBeVisible();
    await expect(noePtt.locator('[data-icon="mic"]')).toBeVisible();
    await expect
      .poll(() => noePtt.evaluate((button) => getComputedStyle(button).backgroundColor))
      .toBe('rgb(46, 125, 50)');
    const countdown = n.page.getByTestId('ptt-turn-countdown');
    await expect(countdown).toHaveText(/^[123] s to talk$/);
    await expect(countdown).toHaveText('1 s to talk');

    // Not taken: the page says so, then goes back to its rest.
    await expect(n.page.getByText('Turn missed', { exact: true })).toBeVisible();
    await expect(countdown).toBeHidden();
    await expect(noePtt).not.toHaveAttribute('data-turn', 'offered');
    await expect(n.page.getByText('Hold to talk')).toBeVisible({ timeout: 20_000 });
  } finally {
    for (const { close } of pages) await close();
  }
});

test('a higher talk priority interrupts the talker, who reads who did it', async ({ browser, server, admin, seed }) => {
  const channel = await seed.channel();
  const mia = await seed.member({ firstName: 'Mia', lastName: 'Talker' });
  const theo = await seed.member({ firstName: 'Théo', lastName: 'Lead' });
  await seed.addToChannel(channel.id, [mia.id, theo.id]);
  // A team leader above the team (a member's default is 3).
  const set = await server.call(
    '/user/api/updateUserData',
    { id: theo.id, firstName: 'Théo', lastName: 'Lead', talkPriority: 8 },
    admin.token,
  );
  expect(set.status).toBe(200);

  const m = await openAs(browser, server.baseURL, mia, { language: 'fr' });
  const t = await openAs(browser, server.baseURL, theo);
  const pages: RoomPage[] = [m, t];
  try {
    await m.page.goto(roomUrl(channel.rtcSession));
    await t.page.goto(roomUrl(channel.rtcSession));
    const miaPtt = m.page.getByRole('button', { name: 'Appuyer pour parler' });
    const theoPtt = t.page.getByRole('button', { name: 'Push to talk' });
    await expect(miaPtt).toBeEnabled();
    await expect(theoPtt).toBeEnabled();

    const releaseMia = await hold(m.page, miaPtt);
    await expect(miaPtt).toHaveAttribute('aria-pressed', 'true');
    const releaseTheo = await hold(t.page, theoPtt);
    await expect(theoPtt).toHaveAttribute('aria-pressed', 'true');
    await expect(miaPtt).toHaveAttribute('aria-pressed', 'false');
    await expect(m.page.getByText('Interrompu par Théo Lead')).toBeVisible();
    await releaseTheo();
    await releaseMia();
  } finally {
    for (const { close } of pages) await close();
  }
});

test.describe('the dialogs (French)', () => {
  test.use({ language: 'fr' });

  test("sets a user's talk priority and a channel's queue and pre-emption", async ({ page, server, admin, seed }) => {
    const member = await seed.member({ firstName: 'Hugo', lastName: unique('Chef') });
    const channel = await seed.channel(unique('Relais'));
    await openUsers(page, admin);
    await page.getByRole('searchbox', { name: 'Rechercher un coéquipier' }).fill(member.login);
    await page.getByRole('button', { name: `Modifier Hugo ${member.lastName}` }).click();
    const gate = page.getByRole('dialog', { name: 'Vérifiez votre mot de passe' });
    await gate.getByRole('textbox', { name: 'Votre mot de passe' }).fill(admin.password);
    await gate.getByRole('button', { name: 'Vérifier' }).click();
    const dialog = page.getByRole('dialog', { name: 'Modifier le profil du coéquipier' });
    // A member's default, named as the role's; then 8, a team leader's.
    const priority = dialog.getByRole('combobox', { name: /^Priorité de parole/ });
    await expect(priority).toHaveText('Celle du rôle (3)');
    await priority.click();
    await page.getByRole('option', { name: '8', exact: true }).click();
    await expect(priority).toHaveText('8');
    await dialog.getByRole('button', { name: 'Enregistrer' }).click();
    await expect(dialog).toBeHidden();
    const user = await server.call('/user/api/getUserById/', { userId: member.id }, admin.token);
    expect(user.body.res).toMatchObject({ talkPriority: 8, talkPriorityFromRole: false });

    await page.goto('/channelsList');
    await page.getByRole('searchbox', { name: 'Rechercher un canal' }).fill(channel.name);
    await page.getByRole('button', { name: `Modifier ${channel.name}` }).click();
    const channelDialog = page.getByRole('dialog', { name: 'Modifier le canal' });
    const queue = channelDialog.getByRole('switch', { name: "File d'attente" });
    await expect(queue).toBeChecked();
    const preemption = channelDialog.getByRole('combobox', { name: /^Priorité plus haute/ });
    await expect(preemption).toHaveText('Interrompre');
    await preemption.click();
    await page.getByRole('option', { name: "File d'attente prioritaire" }).click();
    await queue.uncheck();
    await channelDialog.getByRole('button', { name: 'Enregistrer' }).click();
    await expect(channelDialog).toBeHidden();
    const channels = (await server.call('/user/api/getAllChannels', {}, admin.token)).body.res;
    expect(channels.find((row: { id: number }) => row.id === channel.id)).toMatchObject({
      floorQueue: false,
      preemption: 'queue',
    });
    // Without floor control, neither applies: the dialog hides them.
    await page.getByRole('button', { name: `Modifier ${channel.name}` }).click();
    await channelDialog.getByRole('switch', { name: /^Un seul à parler/ }).uncheck();
    await expect(channelDialog.getByRole('switch', { name: "File d'attente" })).toBeHidden();
  });
});
