/**
 * Man-down detection on a phone (issue 60): the member turns "Man-down detection" on on /talk; the test plays a
 * fall into the page as synthetic `devicemotion` samples (free fall at 0.1 g for 300 ms, an impact of 3 g, then
 * a phone lying still at 1 g, sampled on as a phone does). The page counts down "Fall detected: alert in N s"
 * and at zero raises an SOS with reason 'man_down'; "I'm OK" in time raises nothing. Its own server, with the
 * organisation's figures lowered to their minimums (1 s still; an 8 s countdown, the minimum being 5). The
 * countdown's picture goes into docs/images/man-down-countdown.png when E2E_DOCS_SCREENSHOTS is set.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
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
const PHONE = { width: 390, height: 844 };
const COUNTDOWN_SECONDS = 8;
test.describe.configure({ timeout: 150_000 });
// One server for the file's tests, in one worker, one after the other: under the config's fullyParallel, each worker
// that ran one of them would start its own (beforeAll runs once per worker).
test.describe.configure({ mode: 'default' });

let server: TalkgroupServer;
let admin: Account;
test.beforeAll(async () => {
  server = await startServer();
  admin = await createAdmin(server);
  const settings = await server.call(
    '/user/api/setSafetySettings',
    { manDown: { stillSeconds: 1, countdownSeconds: COUNTDOWN_SECONDS } },
    admin.token,
  );
  expect(settings.status).toBe(200);
});
test.afterAll(async () => {
  await server?.stop();
});

/** A member of a channel, on /talk on a phone, with man-down detection turned on. */
async function memberWithDetection(browser: import('@playwright/test').Browser, lastName: string) {
  const seed = seedFor(server, admin);
  const channel = await seed.channel();
  const member = await seed.member({ firstName: 'Mia', lastName });
  await seed.addToChannel(channel.id, [member.id]);
  const phone = await openAs(browser, server.baseURL, member, { viewport: PHONE });
  // The page runs on Playwright's clock (installed before it loads, running on by itself): the tests move it on
  // through the countdown instead of waiting for it.
  await phone.page.clock.install();
  await phone.page.goto('/talk');
  const detection = phone.page.getByRole('switch', { name: 'Man-down detection' });
  // The channels' sections above it draw once the channel is loaded: a tap before that could land on what moved
  // under it (a loaded machine drew them after the switch, and the click turned nothing on).
  await expect(phone.page.getByRole('switch', { name: /^Scan / })).toBeVisible();
  await expect(detection).toBeEnabled();
  await expect(async () => {
    if (!(await detection.isChecked())) await detection.click();
    await expect(detection).toBeChecked({ timeout: 5_000 });
  }).toPass({ timeout: 60_000 });
  // The organisation's figures are read: the page says so.
  await expect(phone.page.getByRole('status').filter({ hasText: '1 s without moving' })).toBeVisible();
  await expect(phone.page.getByText('only while the app is open and the screen is on')).toBeVisible();
  return { member, phone };
}

/**
 * Plays a fall into the page, a sample every 20 ms (the timing of the samples is the fall itself), then keeps
 * sending a phone lying still every 50 ms, as a phone's sensors do, until the page is closed.
 */
async function fall(page: Page) {
  await page.evaluate(async () => {
    const G = 9.80665;
    const emit = (g: number) =>
      window.dispatchEvent(
        new DeviceMotionEvent('devicemotion', { accelerationIncludingGravity: { x: 0, y: 0, z: g * G }, interval: 20 }),
      );
    const falling = [...Array.from({ length: 16 }, () => 0.1), 3, 3];
    for (const g of falling) {
      emit(g);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    setInterval(() => emit(1), 50);
  });
}

async function manDownAlerts(member: Account) {
  const listed = await server.call('/user/api/getEmergencyAlerts', { start: 0, limit: 50 }, admin.token);
  expect(listed.status).toBe(200);
  return (listed.body.res.alerts as Array<{ userId: number | null; reason: string }>).filter(
    (alert) => alert.userId === member.id,
  );
}

test('a fall counts down and raises a "man down" SOS', async ({ browser }, testInfo) => {
  const { member, phone } = await memberWithDetection(browser, 'Fallen');
  try {
    await fall(phone.page);
    const countdown = phone.page.getByRole('dialog', { name: /^Fall detected: alert in \d+ s$/ });
    await expect(countdown).toBeVisible();
    await expect(countdown.getByRole('button', { name: "I'm OK" })).toBeVisible();
    // From here the page's clock moves only when the test moves it (a second on, then paused).
    await phone.page.clock.pauseAt((await phone.page.evaluate(() => Date.now())) + 1000);
    const shot = testInfo.outputPath('man-down-countdown.png');
    await phone.page.screenshot({ path: shot });
    if (process.env.E2E_DOCS_SCREENSHOTS) {
      mkdirSync(path.resolve('docs/images'), { recursive: true });
      copyFileSync(shot, path.resolve('docs/images/man-down-countdown.png'));
    }
    // It counts: from no more than the organisation's countdown, two seconds less two seconds later (one more when
    // the second the clock was moved on to pause it had not been drawn yet).
    const secondsLeft = async () =>
      Number(/alert in (\d+) s/.exec((await countdown.getByRole('heading').textContent()) ?? '')?.[1]);
    const start = await secondsLeft();
    expect(start).toBeGreaterThan(3);
    expect(start).toBeLessThanOrEqual(COUNTDOWN_SECONDS);
    await phone.page.clock.runFor(2_000);
    await expect.poll(secondsLeft).toBeLessThanOrEqual(start - 2);
    expect(await secondsLeft()).toBeGreaterThanOrEqual(start - 3);

    // At zero the SOS goes, after up to 3 s for a position.
    await phone.page.clock.runFor((start + 2) * 1000);
    await expect(phone.page.getByRole('dialog', { name: 'Alert sent' })).toBeVisible();
    const [alert, ...others] = await manDownAlerts(member);
    expect(others).toEqual([]);
    expect(alert?.reason).toBe('man_down');
  } finally {
    await phone.close();
  }
});

test('"I\'m OK" in time cancels the countdown: nothing is raised', async ({ browser }) => {
  const { member, phone } = await memberWithDetection(browser, 'Standing');
  try {
    await fall(phone.page);
    const countdown = phone.page.getByRole('dialog', { name: /^Fall detected: alert in \d+ s$/ });
    await expect(countdown).toBeVisible();
    await countdown.getByRole('button', { name: "I'm OK" }).click();
    await expect(countdown).toBeHidden();
    // Past the latest moment the alert could have been sent, had it not been cancelled (the countdown, then up to
    // 3 s for a position), on the page's clock: nothing shows, nothing was raised.
    await phone.page.clock.runFor((COUNTDOWN_SECONDS + 6) * 1000);
    await expect(phone.page.getByRole('dialog')).toHaveCount(0);
    expect(await manDownAlerts(member)).toEqual([]);
  } finally {
    await phone.close();
  }
});
