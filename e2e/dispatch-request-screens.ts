/**
 * Screenshots of a member's dispatch request to look at (not a test): the channel's talk page with "Appeler le
 * dispatch", the dialog, the waiting card (second in line, urgent, a note), the take on the channel, a transfer,
 * the end; and the console's room with a waiting card; in French and English, at 390x844 and (the room) 1400x900.
 * `npm run build && node e2e/dispatch-request-screens.ts [outDir]` (default test-results/dispatch-request-screens).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { chromiumLaunchOptions } from './chromium.ts';
import { type Account, createAdmin, seedFor, startServer } from './fixtures.ts';
import { fakeMicrophoneArgs } from './room-audio.ts';
import { openAs, roomUrl, TONE_WAV } from './room-support.ts';

const outDir = path.resolve(process.argv[2] ?? 'test-results/dispatch-request-screens');
mkdirSync(outDir, { recursive: true });
const PHONE = { width: 390, height: 844 };
const WIDE = { width: 1400, height: 900 };
const TEXTS = {
  fr: {
    call: 'Appeler le dispatch',
    note: 'Note (facultatif)',
    submit: 'Appeler',
    cancel: 'Annuler la demande',
    talk: 'Parler',
    members: 'Membres',
  },
  en: {
    call: 'Call dispatch',
    note: 'Note (optional)',
    submit: 'Call',
    cancel: 'Cancel the request',
    talk: 'Talk',
    members: 'Members',
  },
} as const;

const server = await startServer();
const browser = await chromium.launch(chromiumLaunchOptions(fakeMicrophoneArgs(TONE_WAV)));
try {
  const admin = await createAdmin(server);
  const seed = seedFor(server, admin);
  const channel = await seed.channel('Quai');
  const dana = await seed.member({ firstName: 'Dana', lastName: 'Martin', role: 'dispatcher' });
  const sam = await seed.member({ firstName: 'Sam', lastName: 'Roux', role: 'dispatcher' });
  const leo = await seed.member({ firstName: 'Léo', lastName: 'Garnier' });
  const mia = await seed.member({ firstName: 'Mia', lastName: 'Terrain' });
  await seed.addToChannel(channel.id, [dana.id, sam.id, leo.id, mia.id, admin.id]);

  const call = async (account: Account, url: string, body: unknown) => {
    const answer = await server.call(url, body, account.token);
    if (answer.status !== 200) throw new Error(`${url}: ${JSON.stringify(answer.body)}`);
    return answer.body.res;
  };
  const waitingRequestOf = async (memberId: number) => {
    const list: Array<{ requestId: number; state: string; requester: { userId: number } }> = await call(
      dana,
      '/user/api/listDispatchCalls',
      {},
    );
    return list.find((request) => request.requester.userId === memberId && request.state === 'waiting')!.requestId;
  };

  for (const language of ['fr', 'en'] as const) {
    const texts = TEXTS[language];
    // Léo asked first, urgent too: Mia is second in line.
    await call(leo, '/user/api/requestDispatchCall', { channelId: channel.id, priority: 'high', note: 'Renfort' });
    const phone = await openAs(browser, server.baseURL, mia, { language, viewport: PHONE });
    const { page } = phone;
    const shot = (name: string, on: Page = page) =>
      on.screenshot({ path: path.join(outDir, `${language}-${name}.png`) });

    await page.goto(`/talk/${channel.id}`);
    await page.getByRole('button', { name: texts.call }).waitFor();
    await page.waitForFunction(() => window.__talkgroupRoom?.micReady === true, undefined, { timeout: 60_000 });
    await shot('1-talk');

    await page.getByRole('button', { name: texts.call }).click();
    const dialog = page.getByRole('dialog', { name: texts.call });
    await dialog.getByRole('switch').check();
    await dialog
      .getByRole('textbox', { name: texts.note })
      .fill(language === 'fr' ? 'Camion en panne porte 3' : 'Truck broken down at gate 3');
    await shot('2-dialog');
    await dialog.getByRole('button', { name: texts.submit, exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: texts.cancel }).waitFor();
    // A few seconds of waiting on the clock.
    await page.waitForTimeout(2500);
    await shot('3-waiting');
    await page.getByRole('button', { name: texts.cancel }).scrollIntoViewIfNeeded();
    await shot('3-waiting-card');

    const miaRequest = await waitingRequestOf(mia.id);
    await call(dana, '/user/api/takeDispatchCall', { requestId: miaRequest, answer: 'channel' });
    await page.getByTestId('dispatch-request-status').filter({ hasText: 'Dana' }).waitFor();
    await shot('4-taken-on-channel');
    await page.getByRole('tab', { name: texts.members }).click();
    await page.getByTestId('dispatch-request-line').filter({ hasText: 'Dana' }).waitFor();
    await shot('4-taken-members-tab');
    await page.getByRole('tab', { name: texts.talk }).click();

    await call(dana, '/user/api/transferDispatchCall', { requestId: miaRequest, toUserId: sam.id });
    await page.getByTestId('dispatch-request-status').filter({ hasText: 'Sam' }).waitFor();
    await shot('5-transferring');
    await call(sam, '/user/api/answerDispatchTransfer', { requestId: miaRequest, accept: true });

    await call(sam, '/user/api/closeDispatchCall', { requestId: miaRequest });
    await page.getByRole('button', { name: texts.cancel }).waitFor({ state: 'detached' });
    await shot('6-closed');
    await phone.close();

    // The console's room, wide: an administrator asks too.
    const desk = await openAs(browser, server.baseURL, admin, { language, viewport: WIDE });
    await desk.page.goto(roomUrl(channel.rtcSession));
    await desk.page.getByRole('button', { name: texts.call }).waitFor();
    await shot('7-room', desk.page);
    await call(admin, '/user/api/requestDispatchCall', { channelId: channel.id, priority: 'high' });
    await desk.page.getByRole('button', { name: texts.cancel }).waitFor();
    await shot('8-room-waiting', desk.page);
    await desk.page.setViewportSize(PHONE);
    await desk.page.getByRole('button', { name: texts.cancel }).scrollIntoViewIfNeeded();
    await shot('9-room-waiting-narrow', desk.page);
    await desk.page.getByRole('button', { name: texts.cancel }).click();
    await desk.close();

    const leoRequest = await waitingRequestOf(leo.id);
    await call(leo, '/user/api/cancelDispatchCall', { requestId: leoRequest });
  }
} finally {
  await browser.close();
  await server.stop();
}
