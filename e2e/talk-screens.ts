/**
 * Screenshots of the members' app to look at (not a test): the channel list, a channel's talk, messages,
 * members and map sections (with someone talking), a channel that does not exist and the offline shell, in
 * French and English at 390x844. `npm run build && node e2e/talk-screens.ts [outDir]`
 * (default test-results/talk-screens).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { chromiumLaunchOptions } from './chromium.ts';
import { createAdmin, seedFor, startServer } from './fixtures.ts';
import { fakeMicrophoneArgs } from './room-audio.ts';
import { openAs, roomUrl, TONE_WAV } from './room-support.ts';

const outDir = path.resolve(process.argv[2] ?? 'test-results/talk-screens');
mkdirSync(outDir, { recursive: true });
const PHONE = { width: 390, height: 844 };

const server = await startServer();
const browser = await chromium.launch(chromiumLaunchOptions(fakeMicrophoneArgs(TONE_WAV)));
try {
  const admin = await createAdmin(server);
  const seed = seedFor(server, admin);
  const channel = await seed.channel('Équipe Nord');
  await seed.channel('Logistique');
  const mia = await seed.member({ firstName: 'Mia', lastName: 'Terrain', pseudo: 'mia', mapRight: true });
  const noa = await seed.member({ firstName: 'Noa', lastName: 'Absent', pseudo: 'noa' });
  await seed.addToChannel(channel.id, [mia.id, noa.id, admin.id]);
  await server.call(
    '/user/api/sendMessageToChannel',
    { channelId: channel.id, message: 'Rendez-vous au point B à 14 h.' },
    admin.token,
  );

  const a = await openAs(browser, server.baseURL, admin);
  await a.page.goto(roomUrl(channel.rtcSession));

  for (const language of ['fr', 'en'] as const) {
    const phone = await openAs(browser, server.baseURL, mia, { language, viewport: PHONE });
    const context = phone.page.context();
    await context.grantPermissions(['geolocation']);
    await context.setGeolocation({ latitude: 45.764, longitude: 4.8357, accuracy: 10 });
    const shot = (name: string) => phone.page.screenshot({ path: path.join(outDir, `${language}-${name}.png`) });
    const { page } = phone;

    await page.goto('/talk');
    await page.getByRole('link', { name: /Équipe Nord/ }).waitFor();
    await shot('1-channels');

    await page.getByRole('link', { name: /Équipe Nord/ }).click();
    await page.getByRole('switch').first().check();
    await page.locator('[data-mic]').first().waitFor();
    await page.waitForFunction(() => window.__talkgroupRoom?.micReady === true, undefined, { timeout: 60_000 });
    await shot('2-talk');

    await a.page.getByRole('button', { name: 'Push to talk' }).first().hover();
    await a.page.mouse.down();
    await page.getByTestId('talking-now').filter({ hasText: 'Ada' }).waitFor({ timeout: 60_000 });
    await shot('3-someone-talking');
    await a.page.mouse.up();

    await page.locator('[data-mic]').first().hover();
    await page.mouse.down();
    await page.locator('[data-mic="on"]').first().waitFor();
    await shot('4-talking');
    await page.mouse.up();

    await page.getByRole('tab').nth(1).click();
    await page.getByRole('textbox').first().waitFor();
    await shot('5-messages');
    await page.getByRole('tab').nth(2).click();
    await page.getByRole('listitem').first().waitFor();
    await shot('6-members');
    await page.getByRole('tab').nth(3).click();
    await page.locator('.leaflet-container').first().waitFor();
    await shot('7-map');

    await page.goto('/talk/999999');
    await page.getByRole('alert').first().waitFor();
    await shot('8-not-found');

    await page.goto('/talk');
    await page.evaluate(async () => navigator.serviceWorker.ready);
    await page.reload();
    await context.setOffline(true);
    await page.reload();
    await page.getByRole('status').first().waitFor();
    await shot('9-offline');
    await context.setOffline(false);
    await phone.close();
  }
  await a.close();
  console.log(`screenshots in ${outDir}`);
} finally {
  await browser.close();
  await server.stop();
}
