/**
 * Lone work on a phone (issue 60): the member turns "Lone work" on on /talk; when the server's check falls due
 * the page asks "Are you OK?" (with a tone and vibration) and "I'm OK" answers it (checkIn): the server says
 * `ok` again. Its own server, with LONE_WORKER_MIN_SECONDS lowered to 1 s and a check every 2 s. The prompt's
 * picture goes into docs/images/lone-worker-prompt.png when E2E_DOCS_SCREENSHOTS is set.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect as baseExpect, createAdmin, seedFor, startServer, type TalkgroupServer, test } from './fixtures.ts';
import { openAs } from './room-support.ts';

const expect = baseExpect.configure({ timeout: 60_000 });
const PHONE = { width: 390, height: 844 };
test.describe.configure({ timeout: 150_000 });

let server: TalkgroupServer;
test.beforeAll(async () => {
  server = await startServer({ LONE_WORKER_MIN_SECONDS: '1' });
});
test.afterAll(async () => {
  await server?.stop();
});

test('the prompt "Are you OK?" on /talk, answered by "I\'m OK"', async ({ browser }, testInfo) => {
  const admin = await createAdmin(server);
  const seed = seedFor(server, admin);
  const channel = await seed.channel();
  const max = await seed.member({ firstName: 'Max', lastName: 'Alone' });
  await seed.addToChannel(channel.id, [max.id]);
  const settings = await server.call(
    '/user/api/setSafetySettings',
    { loneWorker: { intervalSeconds: 2, graceSeconds: 600 } },
    admin.token,
  );
  expect(settings.status).toBe(200);

  const phone = await openAs(browser, server.baseURL, max, { viewport: PHONE });
  try {
    await phone.page.goto('/talk');
    await expect(phone.page.getByRole('heading', { level: 1, name: 'Talkgroup' })).toBeVisible();
    const loneWork = phone.page.getByRole('switch', { name: 'Lone work' });
    await expect(loneWork).toBeEnabled();
    // The switch follows the server's answer (startLoneWorker), not the click itself.
    await loneWork.click();
    await expect(loneWork).toBeChecked();

    const prompt = phone.page.getByRole('dialog', { name: 'Are you OK?' });
    await expect(prompt).toBeVisible();
    await expect(prompt).toContainText('or your dispatchers will be alerted');
    const state = async () =>
      (await server.call('/user/api/getLoneWorkers', { userId: max.id }, admin.token)).body.res[0]?.state;
    expect(await state()).toBe('due');
    const shot = testInfo.outputPath('lone-worker-prompt.png');
    await phone.page.screenshot({ path: shot });
    if (process.env.E2E_DOCS_SCREENSHOTS) {
      mkdirSync(path.resolve('docs/images'), { recursive: true });
      copyFileSync(shot, path.resolve('docs/images/lone-worker-prompt.png'));
    }

    const before = Date.now();
    await prompt.getByRole('button', { name: "I'm OK" }).click();
    await expect(prompt).toBeHidden();
    // Answered: the server's latest answer is the tap's.
    const [worker] = (await server.call('/user/api/getLoneWorkers', { userId: max.id }, admin.token)).body.res;
    expect(Date.parse(worker.lastCheckIn)).toBeGreaterThanOrEqual(before - 1000);
    // The next check would come in 2 s: lone work ends here (the switch is the member's; tested above).
    expect((await server.call('/user/api/stopLoneWorker', {}, max.token)).status).toBe(200);
    await expect.poll(state).toBeUndefined();
  } finally {
    await phone.close();
  }
});
