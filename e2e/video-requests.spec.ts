/**
 * A dispatcher asks for a member's video (issue 61 item 2), in Chromium with its fake camera: from the member's row
 * of its console tile ("Ask for video from {name}"), the member's /talk asks "{name} asks for your video"; Share
 * opens the channel and starts the video, which reaches the console, and the desk is told; Decline is told too and
 * starts nothing. With "Video without consent" turned on in /settings, the request starts the video without asking
 * and the phone shows "Live video: you are being watched" (its picture goes into docs/images/talk-live-video.png
 * when E2E_DOCS_SCREENSHOTS is set).
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { rowAction } from './dispatch-support.ts';
import { test } from './fixtures.ts';
import { openAs } from './room-support.ts';
import { deskOn, expect, expectMovingFrames, phoneIn, videoLaunchOptions } from './video-support.ts';

test.use({ launchOptions: videoLaunchOptions });
test.describe.configure({ timeout: 300_000 });

/** The desk's tile, the member's row button and the stream group in the tile. */
function deskParts(page: Page, channelName: string, memberName: string) {
  const tile = page.getByRole('region', { name: `Channel ${channelName}` });
  return {
    ask: { click: async () => (await rowAction(tile, memberName, `Ask for video from ${memberName}`)).click() },
    stream: tile.getByRole('group', { name: `Live video — ${memberName}` }),
  };
}

test('a request for video is accepted (the video reaches the console) and another declined', async ({
  browser,
  server,
  seed,
}) => {
  const field = await seed.channel();
  const mia = await seed.member({ firstName: 'Mia', lastName: 'Asked' });
  const dana = await seed.member({ firstName: 'Dana', lastName: 'Asks', role: 'dispatcher' });
  await seed.addToChannel(field.id, [mia.id, dana.id]);
  const phone = await openAs(browser, server.baseURL, mia, { viewport: { width: 390, height: 844 } });
  const desk = await deskOn(browser, server, dana, [field.id]);
  try {
    // Mia's app is open on its home page: the request brings her to the channel.
    await phone.page.goto('/talk');
    await expect(phone.page.getByRole('link', { name: new RegExp(field.name) })).toBeVisible();
    const { ask, stream } = deskParts(desk.page, field.name, 'Mia Asked');

    await ask.click();
    await expect(desk.page.getByText('Video request sent to Mia Asked.')).toBeVisible();
    const asking = phone.page.getByRole('dialog', { name: 'Dana Asks asks for your video' });
    await asking.getByRole('button', { name: 'Share' }).click();
    await expect(phone.page).toHaveURL(new RegExp(`/talk/${field.id}$`));
    await expect(phone.page.getByRole('button', { name: 'Stop video' })).toBeVisible();
    await expect(desk.page.getByText('Mia Asked shares their video.')).toBeVisible();
    await expectMovingFrames(stream.getByLabel('Video of Mia Asked'));
    // Asked with consent: no "you are being watched".
    await expect(phone.page.getByText('Live video: you are being watched')).toHaveCount(0);

    await phone.page.getByRole('button', { name: 'Stop video' }).click();
    await expect(stream).toBeHidden();

    await ask.click();
    await phone.page
      .getByRole('dialog', { name: 'Dana Asks asks for your video' })
      .getByRole('button', { name: 'Decline' })
      .click();
    await expect(desk.page.getByText('Mia Asked declined to share their video.')).toBeVisible();
    await expect(phone.page.getByRole('button', { name: 'Video', exact: true })).toBeVisible();
    const live = await server.call('/user/api/getLiveVideos', { channelId: field.id }, dana.token);
    expect(live.body.res).toEqual([]);
  } finally {
    await Promise.all([phone.close(), desk.close()]);
  }
});

test("'Video without consent' starts the member's video without asking and says it is watched", async ({
  browser,
  server,
  admin,
  seed,
}, testInfo) => {
  const field = await seed.channel();
  const mia = await seed.member({ firstName: 'Mia', lastName: 'Watched' });
  const dana = await seed.member({ firstName: 'Dana', lastName: 'Watches', role: 'dispatcher' });
  await seed.addToChannel(field.id, [mia.id, dana.id]);
  const settings = await openAs(browser, server.baseURL, admin);
  const phone = await phoneIn(browser, server, mia, field.id);
  const desk = await deskOn(browser, server, dana, [field.id]);
  try {
    await settings.page.goto('/settings');
    const section = settings.page.getByRole('region', { name: 'Live video' });
    await section.getByRole('switch', { name: 'Video without consent' }).check();
    await expect(section.getByRole('status')).toHaveText('Video settings saved.');
    expect((await server.call('/user/api/getVideoSettings', {}, admin.token)).body.res.remoteVideo).toBe(
      'without_consent',
    );

    const { ask, stream } = deskParts(desk.page, field.name, 'Mia Watched');
    await ask.click();
    await expect(desk.page.getByText("Mia Watched's video starts without asking.")).toBeVisible();
    await expect(phone.page.getByRole('status').filter({ hasText: 'Live video: you are being watched' })).toBeVisible();
    await expect(phone.page.getByRole('button', { name: 'Stop video' })).toBeVisible();
    await expect(phone.page.getByRole('dialog')).toHaveCount(0);
    await expectMovingFrames(stream.getByLabel('Video of Mia Watched'));
    const shot = testInfo.outputPath('talk-live-video.png');
    await phone.page.screenshot({ path: shot });
    if (process.env.E2E_DOCS_SCREENSHOTS) {
      mkdirSync(path.resolve('docs/images'), { recursive: true });
      copyFileSync(shot, path.resolve('docs/images/talk-live-video.png'));
    }

    // The banner lasts while the video does.
    await phone.page.getByRole('button', { name: 'Stop video' }).click();
    await expect(phone.page.getByText('Live video: you are being watched')).toHaveCount(0);
  } finally {
    await server.call('/user/api/setVideoSettings', { remoteVideo: 'consent' }, admin.token);
    await Promise.all([settings.close(), phone.close(), desk.close()]);
  }
});
