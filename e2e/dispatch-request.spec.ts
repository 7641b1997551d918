/**
 * A member asks for dispatch from /talk (issue 49): "Call dispatch" (urgent, a note), its place in line live, a
 * dispatcher's take (on the channel, or a private call that rings on the phone), the cancel and the button coming
 * back; the button's name in French and German, and on the console's room. The dispatchers' side is taken over
 * HTTP here (its own page is dispatch-queue's).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';
import { type Account, type TalkgroupServer, test, unique } from './fixtures.ts';
import { openAs, roomUrl } from './room-support.ts';
import { expect, PHONE, phoneLaunchOptions } from './talk-support.ts';

test.use({ launchOptions: phoneLaunchOptions });
test.describe.configure({ timeout: 180_000 });

interface Request {
  requestId: number;
  state: string;
  priority: string;
  note: string;
  requester: { userId: number };
}

/** The dispatcher's view of the member's open request on the channel. */
async function requestOf(server: TalkgroupServer, dispatcher: Account, memberId: number): Promise<Request> {
  let found: Request | undefined;
  await expect
    .poll(async () => {
      const answer = await server.call<{ res: Request[] }>('/user/api/listDispatchCalls', {}, dispatcher.token);
      found = answer.body.res?.find((request) => request.requester.userId === memberId && request.state === 'waiting');
      return Boolean(found);
    })
    .toBe(true);
  return found!;
}

async function take(server: TalkgroupServer, dispatcher: Account, requestId: number, answer: 'private' | 'channel') {
  const taken = await server.call('/user/api/takeDispatchCall', { requestId, answer }, dispatcher.token);
  expect(taken.status, JSON.stringify(taken.body)).toBe(200);
}

/**
 * The queue is one for the whole server, and the specs of a worker share its server: requests an earlier spec left
 * waiting are taken and closed first, so that this member is first in line. (The tests of a worker run one at a time.)
 */
async function emptyQueue(server: TalkgroupServer, admin: Account): Promise<void> {
  const answer = await server.call<{ res: Request[] }>(
    '/user/api/listDispatchCalls',
    { state: 'waiting' },
    admin.token,
  );
  for (const { requestId } of answer.body.res ?? []) {
    await server.call('/user/api/takeDispatchCall', { requestId, answer: 'channel' }, admin.token);
    await server.call('/user/api/closeDispatchCall', { requestId }, admin.token);
  }
}

/** axe-core's serious and critical violations on the page as it is now (as talk-app.spec.ts checks the pages). */
async function seriousViolations(page: Page): Promise<string[]> {
  // Evaluated, not added as a <script>: the page's Content-Security-Policy refuses inline scripts.
  await page.evaluate(readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8'));
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: unknown) => Promise<{ violations: any[] }> } }).axe;
    return (await axe.run({ exclude: [['button[aria-haspopup="menu"]']] } as never)).violations;
  });
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node: { target: string[] }) => node.target).join()}`);
}

/** The member's status card: its live sentence. */
const statusOf = (page: Page) => page.getByTestId('dispatch-request-status');

test('a member calls dispatch from /talk (urgent, a note), sees its place, the take on the channel, then cancels', async ({
  browser,
  server,
  admin,
  seed,
}) => {
  await emptyQueue(server, admin);
  const channel = await seed.channel(unique('Quai'));
  const desk = await seed.member({ firstName: 'Dana', lastName: 'Desk', role: 'dispatcher' });
  const mia = await seed.member({ firstName: 'Mia', lastName: 'Field' });
  await seed.addToChannel(channel.id, [desk.id, mia.id]);
  const m = await openAs(browser, server.baseURL, mia, { viewport: PHONE });
  try {
    const { page } = m;
    await page.goto(`/talk/${channel.id}`);
    // The worker's first page on a busy machine: its chunks and catalogues come in first.
    await expect(page.getByRole('heading', { level: 1, name: channel.name })).toBeVisible({ timeout: 60_000 });

    await page.getByRole('button', { name: 'Call dispatch' }).click();
    const dialog = page.getByRole('dialog', { name: 'Call dispatch' });
    await dialog.getByRole('switch', { name: 'Urgent' }).check();
    await dialog.getByRole('textbox', { name: 'Note (optional)' }).fill('Flat tyre at gate 3');
    await expect(dialog).toContainText('19/200');
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Call', exact: true }).click();
    await expect(dialog).toBeHidden();

    await expect(statusOf(page)).toHaveText('1st in line');
    await expect(page.getByRole('status').filter({ hasText: '1st in line' })).toBeVisible();
    const card = page.getByRole('region', { name: 'Your request to dispatch' });
    await expect(card).toContainText('Urgent');
    await expect(card).toContainText('Flat tyre at gate 3');
    await expect(card).toContainText(/Waiting \d+:\d\d/);
    await expect(page.getByRole('button', { name: 'Call dispatch' })).toHaveCount(0);
    expect(await seriousViolations(page)).toEqual([]);

    // On the members tab, a line under the talk button follows the request.
    await page.getByRole('tab', { name: 'Members' }).click();
    await expect(page.getByTestId('dispatch-request-line')).toHaveText('1st in line');
    const request = await requestOf(server, desk, mia.id);
    expect(request).toMatchObject({ priority: 'high', note: 'Flat tyre at gate 3' });
    await take(server, desk, request.requestId, 'channel');
    await expect(page.getByTestId('dispatch-request-line')).toHaveText(`Dana Desk answers on ${channel.name}`);
    await page.getByRole('tab', { name: 'Talk' }).click();
    await expect(statusOf(page)).toHaveText(`Dana Desk answers on ${channel.name}`);

    // Read again after a reload: the same request, from the list.
    await page.reload();
    await expect(statusOf(page)).toHaveText(`Dana Desk answers on ${channel.name}`);

    await page.getByRole('button', { name: 'Cancel the request' }).click();
    await expect(statusOf(page)).toHaveText('Request cancelled');
    // The end stays a few seconds, then the button comes back.
    await expect(page.getByRole('button', { name: 'Call dispatch' })).toBeVisible();
    await expect(statusOf(page)).toHaveText('');
  } finally {
    await m.close();
  }
});

test('a second request on the same channel shows the server sentence; a private take rings on /talk', async ({
  browser,
  server,
  admin,
  seed,
}) => {
  await emptyQueue(server, admin);
  const channel = await seed.channel();
  const desk = await seed.member({ firstName: 'Dana', lastName: 'Desk', role: 'dispatcher' });
  const mia = await seed.member({ firstName: 'Mia', lastName: 'Field' });
  await seed.addToChannel(channel.id, [desk.id, mia.id]);
  const m = await openAs(browser, server.baseURL, mia, { viewport: PHONE });
  try {
    const { page } = m;
    await page.goto(`/talk/${channel.id}`);
    await page.getByRole('button', { name: 'Call dispatch' }).click();
    const dialog = page.getByRole('dialog', { name: 'Call dispatch' });
    await expect(dialog).toBeVisible();
    // Meanwhile the same member asked from elsewhere (another phone): this one is refused, with the reason.
    const first = await server.call('/user/api/requestDispatchCall', { channelId: channel.id }, mia.token);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    await dialog.getByRole('button', { name: 'Call', exact: true }).click();
    await expect(dialog.getByRole('alert')).toContainText('You already asked for dispatch on this channel');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(statusOf(page)).toHaveText('1st in line');

    const request = await requestOf(server, desk, mia.id);
    await take(server, desk, request.requestId, 'private');
    await expect(statusOf(page)).toHaveText('Taken by Dana Desk');
    await expect(page.getByRole('dialog', { name: 'Private call' })).toContainText('Dana Desk is calling you');
  } finally {
    await m.close();
  }
});

test('the button is named in French and German, and shows in the console room', async ({ browser, server, seed }) => {
  const channel = await seed.channel();
  const mia = await seed.member({ firstName: 'Mia', lastName: 'Field' });
  const desk = await seed.member({ firstName: 'Dana', lastName: 'Desk', role: 'dispatcher' });
  await seed.addToChannel(channel.id, [mia.id, desk.id]);
  for (const [language, name] of [
    ['fr', 'Appeler le dispatch'],
    ['de', 'Leitstelle rufen'],
  ] as const) {
    const m = await openAs(browser, server.baseURL, mia, { viewport: PHONE, language });
    try {
      await m.page.goto(`/talk/${channel.id}`);
      await expect(m.page.getByRole('button', { name, exact: true })).toBeVisible({ timeout: 60_000 });
    } finally {
      await m.close();
    }
  }
  const d = await openAs(browser, server.baseURL, desk);
  try {
    await d.page.goto(roomUrl(channel.rtcSession));
    // The console's room chunk, the first time this worker opens it on a busy machine.
    await expect(d.page.getByRole('heading', { level: 1, name: channel.name })).toBeVisible({ timeout: 60_000 });
    await expect(d.page.getByRole('button', { name: 'Call dispatch', exact: true })).toBeVisible();
  } finally {
    await d.close();
  }
});
