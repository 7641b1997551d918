/**
 * The call queue on /dispatch (issue 49), what only a page shows: a member asks over HTTP and the request
 * appears live on two dispatchers' pages; one takes it on the channel (its tile is added and selected), the
 * other sees who holds it; send back, close (it moves to the day's ended requests); a transfer offered to the
 * second dispatcher, accepted in its alert dialog; a take by private call shows the desk's call, and rings the
 * member's phone with "Réponse à votre demande" and its note; closing asks how it ended and "Terminées" says it
 * with who took and closed it (issue 58); the panel's
 * heading in French, English and German. The queue's rules (the race, the timers, who sees what) are the
 * server's tests (dispatch-queue*.test.ts).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';
import { io, type Socket } from 'socket.io-client';
import { type Account, expect as baseExpect, type TalkgroupServer, test, unique } from './fixtures.ts';
import { openAs } from './room-support.ts';

const expect = baseExpect.configure({ timeout: 60_000 });
/** The console's first paint loads its chunks: on a machine busy with other suites it may take longer. */
const FIRST_PAINT = { timeout: 90_000 };

test.describe.configure({ timeout: 180_000 });

async function theirRequest(server: TalkgroupServer, member: Account) {
  const { body } = await server.call('/user/api/listDispatchCalls', {}, member.token);
  const request = body.res[0];
  return request
    ? { state: request.state, heldBy: request.heldBy?.name ?? null, answer: request.answer ?? null }
    : null;
}

/** The member stays connected (as its phone would): a request of a member offline 2 minutes is abandoned. */
async function online(server: TalkgroupServer, member: Account): Promise<Socket> {
  const socket = io(server.baseURL, { query: { token: member.token }, transports: ['websocket'] });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  return socket;
}

/** axe-core's serious and critical violations inside the queue panel (as talk-app.spec.ts checks the pages). */
async function queueViolations(page: Page, title: string): Promise<string[]> {
  // Evaluated, not added as a <script>: the page's Content-Security-Policy refuses inline scripts.
  await page.evaluate(readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8'));
  const violations = await page.evaluate(async (selector) => {
    const axe = (window as unknown as { axe: { run: (context: unknown) => Promise<{ violations: any[] }> } }).axe;
    return (await axe.run({ include: [[selector]] })).violations;
  }, `section[aria-label="${title}"]`);
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node: { target: string[] }) => node.target).join()}`);
}

function queueOf(page: Page, title: string) {
  return page.getByRole('region', { name: title, exact: true });
}

test('a request appears live on two desks; one takes it on the channel, sends it back and closes it (fr)', async ({
  browser,
  server,
  seed,
}) => {
  const quai = await seed.channel(unique('Quai'));
  const dana = await seed.member({ firstName: 'Dana', lastName: 'Desk', role: 'dispatcher' });
  const sam = await seed.member({ firstName: 'Sam', lastName: 'Second', role: 'dispatcher' });
  const alex = await seed.member({ firstName: 'Alex', lastName: 'Martin' });
  await seed.addToChannel(quai.id, [dana.id, sam.id, alex.id]);

  const phone = await online(server, alex);
  const d = await openAs(browser, server.baseURL, dana, { language: 'fr' });
  const s = await openAs(browser, server.baseURL, sam, { language: 'fr' });
  try {
    await d.page.goto('/dispatch');
    await s.page.goto('/dispatch');
    const queue = queueOf(d.page, "File d'attente");
    await expect(queue.getByRole('heading', { name: /^File d'attente/ })).toBeVisible(FIRST_PAINT);
    await expect(queue.getByText("Personne n'attend.")).toBeVisible();
    await expect(queueOf(s.page, "File d'attente").getByText("Personne n'attend.")).toBeVisible(FIRST_PAINT);

    const asked = await server.call(
      '/user/api/requestDispatchCall',
      { channelId: quai.id, priority: 'high', note: 'Palette tombée quai 3' },
      alex.token,
    );
    expect(asked.status).toBe(200);

    // Live on both desks, with its priority, note, place and a waiting time that ticks.
    const row = queue.getByRole('listitem').filter({ hasText: 'Alex Martin' });
    await expect(row).toContainText('Urgent');
    await expect(row).toContainText('« Palette tombée quai 3 »');
    await expect(row).toContainText(quai.name);
    await expect(row.getByRole('img', { name: 'Place 1 dans la file' })).toBeVisible();
    await expect(row).toContainText(/Attend depuis \d+ s/);
    const waited = await row.textContent();
    await expect(row).not.toHaveText(waited ?? '');
    await expect(queue.getByRole('heading', { name: /^File d'attente/ })).toContainText('1');
    expect(await queueViolations(d.page, "File d'attente")).toEqual([]);
    const samRow = queueOf(s.page, "File d'attente").getByRole('listitem').filter({ hasText: 'Alex Martin' });
    await expect(samRow.getByRole('button', { name: 'Prendre Alex Martin' })).toBeVisible();

    // Dana takes it on the channel: the channel's tile is added and selected, no call rings.
    await d.page.getByRole('button', { name: 'Sur le canal' }).click();
    await expect(d.page.getByRole('button', { name: 'Sur le canal' })).toHaveAttribute('aria-pressed', 'true');
    await row.getByRole('button', { name: 'Prendre Alex Martin' }).click();
    await expect(row).toContainText('Pris par Dana Desk · sur le canal');
    const tile = d.page.getByRole('region', { name: `Canal ${quai.name}` });
    await expect(tile).toBeVisible();
    await expect(tile.getByRole('button', { name: `Sélectionner ${quai.name}` })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    expect(await theirRequest(server, alex)).toEqual({ state: 'taken', heldBy: 'Dana Desk', answer: 'channel' });

    // Sam's desk shows who holds it, and offers it no action.
    await expect(samRow).toContainText('Pris par Dana Desk');
    await expect(samRow.getByRole('button')).toHaveCount(0);

    // Sent back: waiting again, in its place; then taken again and closed.
    await row.getByRole('button', { name: 'Renvoyer Alex Martin dans la file' }).click();
    await expect(row).toContainText(/Attend depuis \d+ s/);
    await expect(samRow.getByRole('button', { name: 'Prendre Alex Martin' })).toBeVisible();
    expect((await theirRequest(server, alex))?.state).toBe('waiting');
    await row.getByRole('button', { name: 'Prendre Alex Martin' }).click();
    // Closing asks how it ended (issue 58): an outcome, a note and an incident reference.
    await row.getByRole('button', { name: 'Terminer Alex Martin' }).click();
    const closing = d.page.getByRole('dialog', { name: 'Clore la demande' });
    const outcomes = closing.getByRole('radiogroup', {
      name: 'Comment la demande d’Alex Martin s’est-elle terminée ?',
    });
    await expect(outcomes.getByRole('radio', { name: 'Résolue' })).toBeChecked();
    await expect(outcomes.getByRole('radio', { name: 'Sans suite' })).toBeVisible();
    await outcomes.getByRole('radio', { name: 'Orientée' }).check();
    await closing.getByRole('textbox', { name: 'Note' }).fill('Confiée aux pompiers');
    await closing.getByRole('textbox', { name: 'Référence' }).fill('INC-2026-0042');
    await closing.getByRole('button', { name: 'Clore', exact: true }).click();
    await expect(closing).toBeHidden();
    await expect(row).toHaveCount(0);
    await expect(queue.getByText("Personne n'attend.")).toBeVisible();
    const ended = queue.getByRole('button', { name: "Terminées aujourd'hui (1)" });
    await ended.click();
    // "Terminées" says how it ended, who took it, who closed it, the reference and the close note.
    const endedRow = queue.getByRole('list', { name: "Terminées aujourd'hui (1)" }).getByRole('listitem');
    await expect(endedRow).toContainText(
      'Terminée · Orientée · prise par Dana Desk · close par Dana Desk · Réf. INC-2026-0042',
    );
    await expect(endedRow).toContainText('Note de clôture : Confiée aux pompiers');
    await expect(endedRow).toContainText('« Palette tombée quai 3 »');
    await expect(queueOf(s.page, "File d'attente").getByText("Terminées aujourd'hui (1)")).toBeVisible();
    const closed = (await server.call('/user/api/listDispatchCalls', {}, alex.token)).body.res[0];
    expect(closed).toMatchObject({ state: 'closed', outcome: 'referred', reference: 'INC-2026-0042' });
  } finally {
    phone.disconnect();
    await d.close();
    await s.close();
  }
});

test('a request taken by private call rings from the desk; a transfer is offered to the other desk, which accepts it (en, de)', async ({
  browser,
  server,
  seed,
}) => {
  const dock = await seed.channel(unique('Dock'));
  const dana = await seed.member({ firstName: 'Dana', lastName: 'Desk', role: 'dispatcher' });
  const sam = await seed.member({ firstName: 'Sam', lastName: 'Second', role: 'dispatcher' });
  const alex = await seed.member({ firstName: 'Alex', lastName: 'Martin' });
  await seed.addToChannel(dock.id, [dana.id, sam.id, alex.id]);

  const phone = await online(server, alex);
  const d = await openAs(browser, server.baseURL, dana, { language: 'en' });
  const s = await openAs(browser, server.baseURL, sam, { language: 'de' });
  try {
    await d.page.goto('/dispatch');
    await s.page.goto('/dispatch');
    const queue = queueOf(d.page, 'Call queue');
    await expect(queue.getByRole('heading', { name: /^Call queue/ })).toBeVisible(FIRST_PAINT);
    await expect(queue.getByRole('group', { name: 'Answer by' })).toBeVisible();
    const samQueue = queueOf(s.page, 'Warteschlange');
    await expect(samQueue.getByRole('heading', { name: /^Warteschlange/ })).toBeVisible(FIRST_PAINT);
    await expect(samQueue.getByText('Niemand wartet.')).toBeVisible();

    await server.call('/user/api/requestDispatchCall', { channelId: dock.id }, alex.token);
    const row = queue.getByRole('listitem').filter({ hasText: 'Alex Martin' });
    // Taken by a private call (the default answer): the server rings the member, and this desk shows the call.
    await row.getByRole('button', { name: 'Take Alex Martin' }).click();
    // (The call rings 30 s: the call is checked first, the row after.)
    const calling = d.page.getByRole('dialog', { name: 'Private call' });
    await expect(calling.getByRole('status')).toHaveText('Calling Alex Martin…');
    await calling.getByRole('button', { name: 'Cancel the call' }).click();
    await expect(calling).toBeHidden();
    await expect(row).toContainText('Taken by Dana Desk · private call');

    await row.getByRole('button', { name: 'Transfer Alex Martin' }).click();
    const picker = d.page.getByRole('dialog', { name: "Transfer Alex Martin's request" });
    await picker.getByRole('button', { name: 'Transfer to Sam Second' }).click();
    await expect(picker).toBeHidden();
    await expect(row).toContainText('Dana Desk transfers to Sam Second');

    const offer = s.page.getByRole('alertdialog', {
      name: 'Dana Desk leitet Ihnen die Anfrage von Alex Martin weiter',
    });
    await expect(offer).toBeVisible();
    await expect(offer.getByRole('timer')).toContainText(/\d+ s zum Antworten/);
    await offer.getByRole('button', { name: 'Annehmen' }).click();
    await expect(offer).toBeHidden();
    await expect(row).toContainText('Taken by Sam Second');
    await expect(samQueue.getByRole('button', { name: 'Alex Martin abschließen' })).toBeVisible();
    expect((await theirRequest(server, alex))?.heldBy).toBe('Sam Second');
  } finally {
    phone.disconnect();
    await d.close();
    await s.close();
  }
});

test('a request taken by private call rings the member’s phone with "Réponse à votre demande" and its note (fr)', async ({
  browser,
  server,
  seed,
}) => {
  const quai = await seed.channel(unique('Quai'));
  const dana = await seed.member({ firstName: 'Dana', lastName: 'Desk', role: 'dispatcher' });
  const alex = await seed.member({ firstName: 'Alex', lastName: 'Martin' });
  await seed.addToChannel(quai.id, [dana.id, alex.id]);

  const d = await openAs(browser, server.baseURL, dana, { language: 'fr' });
  const a = await openAs(browser, server.baseURL, alex, { language: 'fr', viewport: { width: 390, height: 844 } });
  try {
    await a.page.goto(`/talk/${quai.id}`);
    await expect(a.page.getByRole('button', { name: 'Appuyer pour parler' })).toBeVisible(FIRST_PAINT);
    await d.page.goto('/dispatch');
    const queue = queueOf(d.page, "File d'attente");
    await expect(queue.getByRole('heading', { name: /^File d'attente/ })).toBeVisible(FIRST_PAINT);

    await server.call('/user/api/requestDispatchCall', { channelId: quai.id, note: 'Chariot en panne' }, alex.token);
    const row = queue.getByRole('listitem').filter({ hasText: 'Alex Martin' });
    await d.page.getByRole('button', { name: 'Appel privé', exact: true }).click();
    await row.getByRole('button', { name: 'Prendre Alex Martin' }).click();

    // The phone rings full screen, saying why: the answer to the member's own request, with its note.
    const ring = a.page.getByRole('dialog', { name: 'Appel privé' });
    await expect(ring).toContainText('Dana Desk vous appelle');
    await expect(ring.getByText('Réponse à votre demande', { exact: true })).toBeVisible();
    await expect(ring.getByText('« Chariot en panne »')).toBeVisible();
    await expect(ring.getByRole('button', { name: 'Accepter' })).toBeVisible();
    await ring.getByRole('button', { name: 'Refuser' }).click();
    await expect(ring).toBeHidden();
  } finally {
    await d.close();
    await a.close();
  }
});
