/**
 * Ambient listening (issue 60 item 6), in Chromium with fake microphones: with the organisation's setting 'off'
 * the console's start is refused with its sentence; with 'discreet', an administrator starts it from a member's
 * device status on /dispatch and the member's /talk shows nothing; the setting turned 'announced' makes /talk say who
 * listens at once (issue 69); the console's page receives the member's tone on the ambient connection while another
 * member's page in the same channel receives nothing from that member, and Stop ends it on both pages. Then
 * /settings' "Microphone opened by an SOS" (issue 69) is saved.
 */
import type { Page } from '@playwright/test';
import { chromiumLaunchOptions } from './chromium.ts';
import { monitor, rowAction } from './dispatch-support.ts';
import { test } from './fixtures.ts';
import { fakeMicrophoneArgs } from './room-audio.ts';
import { connectedIn, openAs, TONE_WAV } from './room-support.ts';
import { expect as baseExpect, PHONE } from './talk-support.ts';

const expect = baseExpect.configure({ timeout: 60_000 });

declare global {
  interface Window {
    /** The console's ambient connection (packages/web/src/engines/ambient), with diagnostics on. */
    __talkgroupAmbient?: RTCPeerConnection;
  }
}

test.use({ launchOptions: chromiumLaunchOptions(fakeMicrophoneArgs(TONE_WAV)) });
test.describe.configure({ timeout: 240_000 });

/** The audio level (0..1) the console's ambient connection last received, as its receiver reports it. */
async function ambientLevel(page: Page): Promise<number> {
  return page.evaluate(async () => {
    const pc = window.__talkgroupAmbient;
    if (!pc) return 0;
    let level = 0;
    for (const report of (await pc.getStats()).values())
      if (report.type === 'inbound-rtp' && report.kind === 'audio') level = Math.max(level, report.audioLevel ?? 0);
    return level;
  });
}

/** The loudest `page` heard `peerId` over the last ~0.68 s in its own room. */
async function peakFrom(page: Page, peerId: string): Promise<number> {
  return page.evaluate((id) => window.__talkgroupRoom?.recentPeak(id) ?? 0, peerId);
}

test("an administrator hears a member's surroundings where the setting allows it, the channel does not; 'off' refuses", async ({
  browser,
  server,
  admin,
  seed,
}) => {
  const field = await seed.channel();
  const mia = await seed.member({ firstName: 'Mia', lastName: 'Phone' });
  const olaf = await seed.member({ firstName: 'Olaf', lastName: 'Near' });
  await seed.addToChannel(field.id, [mia.id, olaf.id]);
  const setting = async (ambientListening: string) =>
    expect((await server.call('/user/api/setSafetySettings', { ambientListening }, admin.token)).status).toBe(200);
  await setting('off');

  const phone = await openAs(browser, server.baseURL, mia, { viewport: PHONE });
  const near = await openAs(browser, server.baseURL, olaf, { viewport: PHONE });
  const desk = await openAs(browser, server.baseURL, admin);
  try {
    for (const { page } of [phone, near]) {
      await page.goto(`/talk/${field.id}`);
      await expect(page.getByRole('button', { name: 'Push to talk' })).toBeVisible();
    }
    // Olaf's page is connected to Mia's in the channel: what it would hear of her, it would hear.
    const miaInChannel = await connectedIn(near.page, field.rtcSession, mia.id);

    await desk.page.goto('/dispatch');
    await monitor(desk.page, [field.name]);
    const tile = desk.page.getByRole('region', { name: `Channel ${field.name}` });
    await (await rowAction(tile, 'Mia Phone', /^Device status of Mia Phone/)).click();
    const dialog = desk.page.getByRole('dialog', { name: 'Device status — Mia Phone' });

    // 'off': refused, with its sentence.
    await dialog.getByRole('button', { name: 'Ambient listening' }).click();
    await expect(dialog.getByRole('alert')).toContainText('Ambient listening is off in this organisation');

    // 'discreet' (an administrator listens): the phone shows nothing; once its microphone is heard, the setting
    // turns 'announced' and the phone says who listens at once, on the same listening (issue 69).
    await setting('discreet');
    await dialog.getByRole('button', { name: 'Ambient listening' }).click();
    await expect(dialog.getByRole('status').filter({ hasText: 'Listening to Mia Phone' })).toBeVisible();
    await expect
      .poll(() => ambientLevel(desk.page), { message: 'the ambient level on the console' })
      .toBeGreaterThan(0.05);
    await expect(phone.page.getByRole('status').filter({ hasText: /^Ambient listening by / })).toBeHidden();
    await setting('announced');
    await expect(phone.page.getByRole('status').filter({ hasText: /^Ambient listening by / })).toBeVisible();

    // The console receives the member's tone on its ambient connection; Olaf receives nothing from Mia.
    await expect
      .poll(() => ambientLevel(desk.page), { message: 'the ambient level on the console' })
      .toBeGreaterThan(0.05);
    for (let read = 0; read < 5; read += 1) {
      expect(await peakFrom(near.page, miaInChannel)).toBeLessThan(0.01);
      await expect.poll(() => ambientLevel(desk.page)).toBeGreaterThan(0.05);
    }
    // The talk button still works beside it.
    await expect(phone.page.getByRole('button', { name: 'Push to talk' })).toBeEnabled();

    await dialog.getByRole('button', { name: 'Stop' }).click();
    await expect(dialog.getByRole('status').filter({ hasText: 'Ambient listening ended.' })).toBeVisible();
    await expect(phone.page.getByRole('status').filter({ hasText: /^Ambient listening by / })).toBeHidden();
    await expect.poll(() => desk.page.evaluate(() => window.__talkgroupAmbient === undefined)).toBe(true);

    // Issue 69: /settings says whether an SOS raised for a member opens its microphone.
    await desk.page.goto('/settings');
    const safety = desk.page.getByRole('region', { name: 'Worker safety' });
    await safety.getByRole('combobox', { name: 'Microphone opened by an SOS' }).click();
    await desk.page.getByRole('option', { name: 'Also an SOS a dispatcher raises for the member' }).click();
    await safety.getByRole('button', { name: 'Save' }).click();
    await expect(safety.getByRole('status')).toHaveText('Safety settings saved.');
    const saved = await server.call('/user/api/getSafetySettings', {}, admin.token);
    expect(saved.body.res).toMatchObject({ emergencyOpenMic: 'any_alert', ambientListening: 'announced' });
  } finally {
    await server.call('/user/api/setSafetySettings', { emergencyOpenMic: 'own_alert' }, admin.token);
    await setting('off');
    await Promise.all([phone.close(), near.close(), desk.close()]);
  }
});
