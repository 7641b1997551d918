/**
 * Live video on the mesh (issue 61 items 1, 3 and 4), in Chromium with its fake camera: two members share from
 * their /talk pages; a dispatcher's console (in French, 1366x850) shows both streams in their channel's tile with
 * frames moving in each <video> (its size, its clock, two grabs that differ), opens one full screen, captures it
 * there (issue 70: the notice opens the channel's chat beside the console, which shows it), and puts a capture from
 * the tile in the channel's chat as an image whose text gives the member's last position; a switch of camera
 * keeps the frames coming; "Stop video"
 * ends it on the console. The console with the two streams goes into docs/images/ when E2E_DOCS_SCREENSHOTS is
 * set.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { seriousViolations } from './axe.ts';
import { test } from './fixtures.ts';
import { deskOn, expect, expectMovingFrames, phoneIn, shareVideo, videoLaunchOptions } from './video-support.ts';

test.use({ launchOptions: videoLaunchOptions });
test.describe.configure({ timeout: 300_000 });

test("two members' live videos reach the dispatcher's console, move, open full screen and give a capture to the chat", async ({
  browser,
  server,
  seed,
}, testInfo) => {
  const field = await seed.channel();
  const mia = await seed.member({ firstName: 'Mia', lastName: 'Phone' });
  const noe = await seed.member({ firstName: 'Noé', lastName: 'Field' });
  const dana = await seed.member({ firstName: 'Dana', lastName: 'Desk', role: 'dispatcher' });
  await seed.addToChannel(field.id, [mia.id, noe.id, dana.id]);

  const phone = await phoneIn(browser, server, mia, field.id);
  const other = await phoneIn(browser, server, noe, field.id);
  const desk = await deskOn(browser, server, dana, [field.id], {
    language: 'fr',
    viewport: { width: 1366, height: 850 },
  });
  try {
    // Mia's phone knows where it is: the capture's text gives it.
    await phone.page.context().grantPermissions(['geolocation']);
    await phone.page.context().setGeolocation({ latitude: 45.764, longitude: 4.8357, accuracy: 10 });
    await phone.page.getByRole('switch', { name: 'Share my position' }).check();
    await expect(
      phone.page.getByText("Your position is shared with this channel's map and the administrators."),
    ).toBeVisible();

    const tile = desk.page.getByRole('region', { name: `Canal ${field.name}` });
    await expect(tile).toBeVisible();
    await shareVideo(phone);
    await expect(phone.page.getByLabel('Your video')).toBeVisible();
    await shareVideo(other);

    const streams = tile.getByRole('region', { name: `Vidéos en direct — ${field.name}` });
    const miaStream = streams.getByRole('group', { name: 'Vidéo en direct — Mia Phone' });
    const noeStream = streams.getByRole('group', { name: 'Vidéo en direct — Noé Field' });
    for (const [stream, name] of [
      [miaStream, 'Mia Phone'],
      [noeStream, 'Noé Field'],
    ] as const) {
      await expectMovingFrames(stream.getByLabel(`Vidéo de ${name}`));
    }

    // The live videos, and the sharing phone's page, have no serious accessibility violation.
    expect(await seriousViolations(desk.page, `section[aria-label="Vidéos en direct — ${field.name}"]`)).toEqual([]);
    expect(await seriousViolations(phone.page, 'main')).toEqual([]);

    const shot = testInfo.outputPath('dispatch-live-video.png');
    await desk.page.screenshot({ path: shot });
    if (process.env.E2E_DOCS_SCREENSHOTS) {
      mkdirSync(path.resolve('docs/images'), { recursive: true });
      copyFileSync(shot, path.resolve('docs/images/dispatch-live-video.png'));
    }

    // Full screen: the same stream, large.
    const small = await miaStream.getByLabel('Vidéo de Mia Phone').evaluate((element) => element.clientWidth);
    await miaStream.getByRole('button', { name: 'Plein écran' }).click();
    const large = desk.page.getByRole('dialog', { name: 'Vidéo de Mia Phone' });
    await expectMovingFrames(large.getByLabel('Vidéo de Mia Phone'));
    const width = await large.getByLabel('Vidéo de Mia Phone').evaluate((element) => element.clientWidth);
    expect(width).toBeGreaterThan(small);
    // Issue 70: "Capture" in the full view too; its notice opens the channel's chat beside the console.
    // (Said in the view: its modal hides the page's notice from a screen reader.)
    await large.getByRole('button', { name: 'Capture' }).click();
    await expect(large.getByRole('status')).toHaveText(`Capture envoyée dans le chat de ${field.name}.`);
    await large.getByRole('button', { name: 'Voir dans le chat' }).click();
    await expect(large).toBeHidden();
    const chat = desk.page.getByRole('dialog', { name: `Messages de ${field.name}` });
    await expect(chat.getByText(/^Capture de la vidéo de Mia Phone à /)).toBeVisible();
    await chat.getByRole('button', { name: 'Fermer les messages' }).click();
    await expect(chat).toBeHidden();

    // The other camera (Chromium's fake device has one: the same opens again): the console keeps receiving frames.
    await phone.page.getByRole('button', { name: 'Switch camera' }).click();
    await expect(phone.page.getByRole('button', { name: 'Stop video' })).toBeVisible();
    await expectMovingFrames(miaStream.getByLabel('Vidéo de Mia Phone'));
    await expect(phone.page.getByText('The camera could not be opened')).toHaveCount(0);

    // Capture: an image message in the channel's chat, with the time and Mia's last position.
    await miaStream.getByRole('button', { name: 'Capture' }).click();
    const notice = desk.page.getByRole('alert').filter({ hasText: `Capture envoyée dans le chat de ${field.name}.` });
    await expect(notice.getByRole('button', { name: 'Voir dans le chat' })).toBeVisible();
    const captures = async () =>
      (
        (await server.call('/user/api/getchannelmessagelistForAdmin', { channelId: field.id }, dana.token)).body
          .discussion as Array<{ textMsg: string; file: { path: string } | null }>
      ).filter((message) => message.textMsg.startsWith('Capture de la vidéo de Mia Phone à '));
    // The full view's and the tile's: the full view's notice may still show, so wait for the second message.
    await expect.poll(async () => (await captures()).length).toBe(2);
    const capture = (await captures()).at(-1);
    expect(capture?.textMsg).toContain('position : 45.76400, 4.83570');
    expect(capture?.file?.path).toBeTruthy();

    // Stop: the stream leaves the console; the recording is uploaded.
    await phone.page.getByRole('button', { name: 'Stop video' }).click();
    await expect(miaStream).toBeHidden();
    await expect(noeStream).toBeVisible();
    await expect(phone.page.getByText('Video recording uploaded.')).toBeVisible();
    await expect(phone.page.getByRole('button', { name: 'Video', exact: true })).toBeEnabled();
  } finally {
    await Promise.all([phone.close(), other.close(), desk.close()]);
  }
});
