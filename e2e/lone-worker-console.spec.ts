/**
 * Lone work on the dispatch console (issue 60): the desk's "Lone work" table lists who works alone in its
 * channels, each with its state, next check and last check-in; a lone worker who starts while the console is
 * open and escalates (no answer, then an SOS) shows up with "Alert raised" from what the server pushes. Issue 70:
 * the table opens from the toolbar's "Lone work" button, on screen without scrolling; each state reaches the
 * member's row in its tile within 2 s of the change, pushed (the page asks the server nothing meanwhile). Its own
 * server, with LONE_WORKER_MIN_SECONDS lowered to 1 s.
 */
import {
  type Account,
  expect as baseExpect,
  createAdmin,
  seedFor,
  startServer,
  type TalkgroupServer,
  test,
} from './fixtures.ts';
import { openAs } from './room-support.ts';

const expect = baseExpect.configure({ timeout: 60_000 });
test.describe.configure({ timeout: 150_000 });
// One server for the file's tests, in one worker, one after the other: under the config's fullyParallel, each worker
// that ran one of them would start its own (beforeAll runs once per worker).
test.describe.configure({ mode: 'default' });

let server: TalkgroupServer;
let admin: Account;
test.beforeAll(async () => {
  server = await startServer({ LONE_WORKER_MIN_SECONDS: '1' });
  admin = await createAdmin(server);
});
test.afterAll(async () => {
  await server?.stop();
});

/** A time as the console shows it (HH:mm, the browser's time zone: playwright.config's Europe/Paris). */
const shown = (iso: string) =>
  new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', timeZone: 'Europe/Paris' }).format(
    new Date(iso),
  );

test('the console lists who works alone with its state, and one who escalates meanwhile', async ({ browser }) => {
  const seed = seedFor(server, admin);
  const channel = await seed.channel();
  const dana = await seed.member({ firstName: 'Dana', lastName: 'Desk', role: 'dispatcher' });
  const max = await seed.member({ firstName: 'Max', lastName: 'Alone' });
  const lea = await seed.member({ firstName: 'Lea', lastName: 'Late' });
  const kim = await seed.member({ firstName: 'Kim', lastName: 'Silent' });
  await seed.addToChannel(channel.id, [dana.id, max.id, lea.id, kim.id]);
  // Each step waits an hour: Max stays answered, Lea stays asked.
  const settings = (graceSeconds: number) =>
    server.call('/user/api/setSafetySettings', { loneWorker: { intervalSeconds: 3600, graceSeconds } }, admin.token);
  expect((await settings(3600)).status).toBe(200);
  const start = async (who: { token: string }, intervalSeconds: number) =>
    expect((await server.call('/user/api/startLoneWorker', { intervalSeconds }, who.token)).status).toBe(200);
  await start(max, 3600);
  await start(lea, 1);
  const workers = async () =>
    (await server.call('/user/api/getLoneWorkers', {}, dana.token)).body.res as Array<{
      userId: number;
      state: string;
      nextCheckAt: string;
      lastCheckIn: string;
    }>;
  await expect.poll(async () => (await workers()).find((w) => w.userId === lea.id)?.state).toBe('due');

  const desk = await openAs(browser, server.baseURL, dana);
  try {
    await desk.page.goto('/dispatch');
    await desk.page.getByRole('button', { name: /^Lone work \(/ }).click();
    const panel = desk.page.getByRole('region', { name: 'Lone work', exact: true });
    await expect(panel.getByRole('heading', { level: 2, name: 'Lone work', exact: true })).toBeVisible();
    const table = panel.getByRole('table', { name: 'Lone work', exact: true });
    for (const column of ['Member', 'State', 'Next check', 'Last check-in'])
      await expect(table.getByRole('columnheader', { name: column })).toBeVisible();

    const listed = await workers();
    const maxRow = table.getByRole('row', { name: /Max Alone/ });
    const leaRow = table.getByRole('row', { name: /Lea Late/ });
    await expect(maxRow.getByRole('cell').nth(0)).toHaveText('OK');
    await expect(leaRow.getByRole('cell').nth(0)).toHaveText('Check due');
    const maxWorker = listed.find((w) => w.userId === max.id);
    if (!maxWorker) throw new Error('Max is not listed by the server');
    await expect(maxRow.getByRole('cell').nth(1)).toHaveText(shown(maxWorker.nextCheckAt));
    await expect(maxRow.getByRole('cell').nth(2)).toHaveText(shown(maxWorker.lastCheckIn));
    await expect(table.getByRole('row', { name: /Kim Silent/ })).toHaveCount(0);

    // Kim starts while the console is open, with a second at each step: no answer, then an SOS.
    expect((await settings(1)).status).toBe(200);
    await start(kim, 1);
    await expect(
      table
        .getByRole('row', { name: /Kim Silent/ })
        .getByRole('cell')
        .nth(0),
    ).toHaveText('Alert raised');
    await expect(maxRow.getByRole('cell').nth(0)).toHaveText('OK');
  } finally {
    await desk.close();
  }
});

test("each lone-work state reaches the member's row within 2 s, pushed, and the list is one click away", async ({
  browser,
}) => {
  const seed = seedFor(server, admin);
  const channel = await seed.channel();
  const dana = await seed.member({ firstName: 'Dana', lastName: 'Live', role: 'dispatcher' });
  const max = await seed.member({ firstName: 'Max', lastName: 'Pushed' });
  await seed.addToChannel(channel.id, [dana.id, max.id]);
  expect(
    (
      await server.call(
        '/user/api/setSafetySettings',
        { loneWorker: { intervalSeconds: 3600, graceSeconds: 3600 } },
        admin.token,
      )
    ).status,
  ).toBe(200);

  const desk = await openAs(browser, server.baseURL, dana, { viewport: { width: 1366, height: 850 } });
  try {
    const page = desk.page;
    // Its first desk is its channel (issue 70).
    await page.goto('/dispatch');
    const row = page
      .getByRole('list', { name: `Members of ${channel.name}` })
      .getByRole('listitem')
      .filter({ hasText: 'Max Pushed' });
    await expect(row).toBeVisible();
    const button = page.getByRole('button', { name: /^Lone work \(/ });
    await expect(button).toHaveText('Lone work (0)');
    // No polling: from now on the page asks nothing about lone work; what changes comes pushed.
    const asked: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/getLoneWorkers')) asked.push(request.url());
    });
    const state = row.getByTestId('lone-work-state');
    const within2s = { timeout: 2_000 };

    const call = (path: string, body: object = {}) => server.call(path, body, max.token);
    expect((await call('/user/api/startLoneWorker', { intervalSeconds: 3600 })).status).toBe(200);
    await expect(state).toHaveText('Lone work: OK', within2s);
    await expect(button).toHaveText('Lone work (1)', within2s);

    // Asked every second from now: the sweep's check falls due, then an answer, then the end.
    expect((await call('/user/api/startLoneWorker', { intervalSeconds: 1 })).status).toBe(200);
    await expect(state).toHaveText('Lone work: Check due');
    await expect(button).toHaveText('Lone work (1) · 1 to check', within2s);
    expect((await call('/user/api/startLoneWorker', { intervalSeconds: 3600 })).status).toBe(200);
    await expect(state).toHaveText('Lone work: OK', within2s);
    expect((await call('/user/api/stopLoneWorker')).status).toBe(200);
    await expect(state).toHaveCount(0, within2s);
    await expect(button).toHaveText('Lone work (0)', within2s);
    // Four changes, none read: they came pushed. The page reads the list once more when its socket first connects
    // (a second late, useLoneWorkerUpdates); on a loaded machine that read lands after the listener started.
    expect(asked.length).toBeLessThanOrEqual(1);

    // The button is on screen without scrolling, and opens the list.
    expect((await call('/user/api/startLoneWorker', { intervalSeconds: 3600 })).status).toBe(200);
    await expect(button).toHaveText('Lone work (1)', within2s);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    const box = await button.boundingBox();
    expect(box && box.y >= 0 && box.y + box.height <= 850).toBe(true);
    await button.click();
    const table = page.getByRole('table', { name: 'Lone work', exact: true });
    await expect(
      table
        .getByRole('row', { name: /Max Pushed/ })
        .getByRole('cell')
        .nth(0),
    ).toHaveText('OK');
    await page.getByRole('button', { name: 'Close lone work' }).click();
    await expect(table).toBeHidden();
  } finally {
    await desk.close();
  }
});
