/**
 * The sharing page's side of live video (issue 61 items 1 and 5), in Chromium with its fake camera: a listen-only
 * member's "Video" is refused with the server's sentence and its camera is not kept; a recording whose first upload
 * is cut off by the network is sent again by itself and reaches the channel's recorded videos, once; one whose page
 * reloaded before it was sent waits in the browser (IndexedDB) and the next page sends it.
 */
import type { Page, Route } from '@playwright/test';
import { test } from './fixtures.ts';
import { openAs } from './room-support.ts';
import { expect, phoneIn, shareVideo, videoLaunchOptions } from './video-support.ts';

test.use({ launchOptions: videoLaunchOptions });
test.describe.configure({ timeout: 300_000 });

/** Recordings waiting in the sharing browser (engines/video/videoOutbox.ts). */
function waitingInOutbox(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        const open = indexedDB.open('talkgroup-video', 1);
        open.onupgradeneeded = () => open.result.createObjectStore('outbox', { keyPath: 'streamId' });
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

test('a listen-only member is told it may not share video; a failed upload is sent again and nothing is lost', async ({
  browser,
  server,
  admin,
  seed,
}) => {
  const field = await seed.channel();
  const mia = await seed.member({ firstName: 'Mia', lastName: 'Uploads' });
  const leo = await seed.member({ firstName: 'Leo', lastName: 'Listens' });
  await seed.addToChannel(field.id, [mia.id, leo.id]);
  const rights = await server.call(
    '/user/api/setChannelMemberRights',
    { channelId: field.id, userId: leo.id, canTalk: false },
    admin.token,
  );
  expect(rights.status).toBe(200);

  const listener = await openAs(browser, server.baseURL, leo, { viewport: { width: 390, height: 844 } });
  const phone = await phoneIn(browser, server, mia, field.id);
  try {
    await listener.page.goto(`/talk/${field.id}`);
    await expect(listener.page.getByText('Listen only: you hear this channel and chat')).toBeVisible();
    await listener.page.getByRole('button', { name: 'Video', exact: true }).click();
    await expect(
      listener.page
        .getByRole('alert')
        .filter({ hasText: 'You may only listen in this channel: you may not share video there.' }),
    ).toBeVisible();
    await expect(listener.page.getByRole('button', { name: 'Stop video' })).toHaveCount(0);
    await expect
      .poll(() => listener.page.evaluate(() => document.querySelectorAll('video').length), {
        message: 'no preview kept',
      })
      .toBe(0);

    // The network cuts the first upload off; the page tries again by itself.
    const attempts: string[] = [];
    await phone.page.route('**/user/api/uploadVideo', async (route) => {
      attempts.push(route.request().method());
      if (attempts.length === 1) await route.abort('connectionreset');
      else await route.continue();
    });
    await shareVideo(phone);
    // A few seconds of video: the recording has frames to keep.
    await expect
      .poll(() => phone.page.getByLabel('Your video').evaluate((element: HTMLVideoElement) => element.currentTime))
      .toBeGreaterThan(2);
    await phone.page.getByRole('button', { name: 'Stop video' }).click();
    await expect(phone.page.getByText('Video recording uploaded.')).toBeVisible();
    expect(attempts).toEqual(['POST', 'POST']);
    const recordings = await server.call('/user/api/getChannelVideos', { channelId: field.id }, admin.token);
    expect(recordings.body.res).toHaveLength(1);
    expect(recordings.body.res[0].name).toBe('Mia Uploads');
  } finally {
    await Promise.all([listener.close(), phone.close()]);
  }
});

test('a recording left unsent when its page reloads is sent by the next page', async ({
  browser,
  server,
  admin,
  seed,
}) => {
  const field = await seed.channel();
  const mia = await seed.member({ firstName: 'Mia', lastName: 'Reloads' });
  await seed.addToChannel(field.id, [mia.id]);
  const phone = await phoneIn(browser, server, mia, field.id);
  try {
    const attempts: string[] = [];
    const cutOff = async (route: Route) => {
      attempts.push(route.request().url());
      await route.abort('internetdisconnected');
    };
    await phone.page.route('**/user/api/uploadVideo', cutOff);
    await shareVideo(phone);
    await expect
      .poll(() => phone.page.getByLabel('Your video').evaluate((element: HTMLVideoElement) => element.currentTime))
      .toBeGreaterThan(2);
    await phone.page.getByRole('button', { name: 'Stop video' }).click();
    // Kept in the browser, and its first upload failed.
    await expect.poll(() => waitingInOutbox(phone.page), { message: 'the recording kept' }).toBe(1);
    await expect.poll(() => attempts.length, { message: 'an upload tried' }).toBeGreaterThan(0);

    await phone.page.unroute('**/user/api/uploadVideo', cutOff);
    await phone.page.reload();
    await expect(phone.page.getByText('Video recording uploaded.')).toBeVisible();
    await expect.poll(() => waitingInOutbox(phone.page), { message: 'nothing left waiting' }).toBe(0);
    const recordings = await server.call('/user/api/getChannelVideos', { channelId: field.id }, admin.token);
    expect(recordings.body.res).toHaveLength(1);
    expect(recordings.body.res[0].name).toBe('Mia Reloads');
  } finally {
    await phone.close();
  }
});
