/**
 * Voice history (issue 15), in real browsers: a member holds to talk for about 2 s; the administrator's
 * timeline shows the transmission (talker, duration, a named play button) and its audio, decoded with
 * WebAudio, is the microphone's tone, not silence. A transmission made while the talker's link is down waits
 * in the browser (IndexedDB) and reaches the other timeline once the link is back; the administrator's export
 * of the last hour holds both.
 */
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { chromiumLaunchOptions } from './chromium.ts';
import { expect as baseExpect, test } from './fixtures.ts';
import { fakeMicrophoneArgs } from './room-audio.ts';
import { connectedPeer, openAs, type RoomPage, roomUrl, TONE_WAV } from './room-support.ts';

const expect = baseExpect.configure({ timeout: 60_000 });

test.use({ launchOptions: chromiumLaunchOptions(fakeMicrophoneArgs(TONE_WAV)) });
test.describe.configure({ timeout: 180_000 });

/** The transmission's audio as the listener's browser decodes it: its length and loudness (RMS, 0..1). */
async function decodedLevel(page: Page, url: string): Promise<{ seconds: number; rms: number }> {
  return page.evaluate(async (href) => {
    const bytes = await (await fetch(href)).arrayBuffer();
    const context = new OfflineAudioContext(1, 48_000, 48_000);
    const audio = await context.decodeAudioData(bytes);
    const samples = audio.getChannelData(0);
    let sum = 0;
    for (const sample of samples) sum += sample * sample;
    return { seconds: audio.duration, rms: Math.sqrt(sum / Math.max(1, samples.length)) };
  }, url);
}

/** Transmissions waiting in the talker's browser. */
async function waitingInOutbox(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        const open = indexedDB.open('talkgroup-voice', 1);
        open.onupgradeneeded = () => open.result.createObjectStore('outbox', { keyPath: 'clientId' });
        open.onsuccess = () => {
          const count = open.result.transaction('outbox').objectStore('outbox').count();
          count.onsuccess = () => {
            resolve(count.result);
            open.result.close();
          };
        };
        open.onerror = () => resolve(-1);
      }),
  );
}

test('a transmission is kept and plays back in the other timeline; one made offline is sent once back', async ({
  browser,
  server,
  admin,
  seed,
}) => {
  const channel = await seed.channel();
  const mia = await seed.member({ firstName: 'Mia', lastName: 'Talker' });
  await seed.addToChannel(channel.id, [mia.id]);
  const viewport = { width: 1600, height: 900 };
  const m = await openAs(browser, server.baseURL, mia, { viewport });
  const a = await openAs(browser, server.baseURL, admin, { viewport });
  const pages: RoomPage[] = [m, a];
  try {
    for (const { page } of pages) await page.goto(roomUrl(channel.rtcSession));
    await connectedPeer(a.page, mia.id);
    const chatA = a.page.getByRole('region', { name: 'Messages' });
    await expect(chatA.getByText('Recorded', { exact: true })).toBeVisible();
    const items = chatA.getByRole('listitem', { name: 'Transmission from Mia Talker' });

    // Mia holds to talk for about two seconds.
    const ptt = m.page.getByRole('button', { name: 'Push to talk' });
    await ptt.hover();
    await m.page.mouse.down();
    await expect(ptt).toHaveAttribute('aria-pressed', 'true');
    const heldFrom = Date.now();
    await m.page.waitForTimeout(2000);
    await m.page.mouse.up();
    const held = Date.now() - heldFrom;
    await expect(ptt).toHaveAttribute('aria-pressed', 'false');

    await expect(items).toHaveCount(1);
    const item = items.first();
    const durationMs = Number(await item.getAttribute('data-duration-ms'));
    expect(durationMs).toBeGreaterThan(held - 500);
    expect(durationMs).toBeLessThan(held + 2500);
    const play = item.getByRole('button', { name: /^Play the transmission of Mia Talker, \d seconds?$/ });
    await expect(play).toBeVisible();
    const url = await item.getByRole('link', { name: 'Download the transmission of Mia Talker' }).getAttribute('href');
    const level = await decodedLevel(a.page, url ?? '');
    expect(level.seconds).toBeGreaterThan(1.5);
    // The fake microphone plays a tone at a third of full scale (RMS about 0.23); silence decodes to 0.
    expect(level.rms).toBeGreaterThan(0.02);

    // The play button plays it, and the missed count goes down once it is listened to.
    await expect(chatA.getByRole('button', { name: 'Play missed (1)' })).toBeEnabled();
    await play.click();
    await expect(chatA.getByRole('button', { name: 'Play missed (0)' })).toBeDisabled();

    // The link drops while Mia talks: the recording waits in her browser, then goes when the link is back.
    await m.page.mouse.down();
    await expect(ptt).toHaveAttribute('aria-pressed', 'true');
    // The link drops once the floor is Mia's (a press still waiting for its grant is discarded, not kept).
    await expect(a.page.getByRole('listitem', { name: 'Mia Talker', exact: true })).toHaveAttribute(
      'data-talking',
      'true',
    );
    // She talks a second first: the page ends the take as soon as it sees the link gone, and a take of a few
    // milliseconds (the link dropped just after the grant) holds no audio and is rightly not kept.
    await m.page.waitForTimeout(1000);
    await m.page.context().setOffline(true);
    await m.page.waitForTimeout(1000);
    await m.page.mouse.up();
    await expect.poll(() => waitingInOutbox(m.page), { message: 'the offline transmission is kept' }).toBe(1);
    await expect(items).toHaveCount(1);
    await m.page.context().setOffline(false);
    await expect.poll(() => waitingInOutbox(m.page), { timeout: 60_000, message: 'the outbox is sent' }).toBe(0);
    await expect(items).toHaveCount(2, { timeout: 60_000 });

    // The administrator exports the last hour: one zip with both recordings and the index.
    await chatA.getByRole('button', { name: 'Export voice' }).click();
    const dialog = a.page.getByRole('dialog', { name: /Export the transmissions of/ });
    const downloading = a.page.waitForEvent('download');
    await dialog.getByRole('button', { name: 'Download the archive' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^voice-.+\.zip$/);
    const zip = readFileSync(await download.path());
    const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
    expect(zip.readUInt16LE(end + 10)).toBe(3);
    expect(zip.includes(Buffer.from('index.csv'))).toBe(true);
  } finally {
    for (const { close } of pages) await close();
  }
});
