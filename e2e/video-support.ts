/**
 * Shared parts of the live video specs (issue 61, e2e/video-*.spec.ts): Chromium's fake camera (a moving test
 * pattern) and microphone, a member's /talk page in a channel, a desk monitoring channels, and what a <video>
 * element shows: its size, its clock and a checksum of its pixels, so that a test sees frames move.
 */
import type { Browser, Locator } from '@playwright/test';
import { chromiumLaunchOptions } from './chromium.ts';
import type { Account, TalkgroupServer } from './fixtures.ts';
import { fakeMicrophoneArgs } from './room-audio.ts';
import { openAs, type RoomPage, TONE_WAV } from './room-support.ts';
import { expect as baseExpect, PHONE } from './talk-support.ts';

export const expect = baseExpect.configure({ timeout: 60_000 });

/** --use-fake-device-for-media-stream (in fakeMicrophoneArgs): getUserMedia({ video }) gives a moving pattern. */
export const videoLaunchOptions = chromiumLaunchOptions(fakeMicrophoneArgs(TONE_WAV));

export interface Frame {
  width: number;
  time: number;
  /** A checksum of the frame's pixels. */
  pixels: number;
}

/** What the element shows now. */
export function frameOf(video: Locator): Promise<Frame> {
  return video.evaluate((element: HTMLVideoElement) => {
    const canvas = document.createElement('canvas');
    canvas.width = element.videoWidth;
    canvas.height = element.videoHeight;
    let pixels = 0;
    const context = canvas.getContext('2d');
    if (context && canvas.width > 0) {
      context.drawImage(element, 0, 0);
      const data = context.getImageData(0, 0, canvas.width, canvas.height).data;
      for (let index = 0; index < data.length; index += 7) pixels = (pixels * 31 + data[index]) >>> 0;
    }
    return { width: element.videoWidth, time: element.currentTime, pixels };
  });
}

/** The element plays frames that move: it has a size, its clock advances and two grabs differ. */
export async function expectMovingFrames(video: Locator): Promise<void> {
  await expect.poll(async () => (await frameOf(video)).width, { message: 'the video has a size' }).toBeGreaterThan(0);
  const first = await frameOf(video);
  await expect
    .poll(async () => (await frameOf(video)).time, { message: "the video's clock advances" })
    .toBeGreaterThan(first.time);
  await expect
    .poll(async () => (await frameOf(video)).pixels, { message: 'two grabs of the video differ' })
    .not.toBe(first.pixels);
}

/** A member's phone on its channel's /talk page, in the room (the talk button enabled). */
export async function phoneIn(
  browser: Browser,
  server: TalkgroupServer,
  member: Account,
  channelId: number,
): Promise<RoomPage> {
  const phone = await openAs(browser, server.baseURL, member, { viewport: PHONE });
  await phone.page.goto(`/talk/${channelId}`);
  await expect(phone.page.getByRole('button', { name: 'Push to talk' })).toBeEnabled();
  return phone;
}

/** Starts the member's video from its /talk page and waits until it is live. */
export async function shareVideo(phone: RoomPage): Promise<void> {
  await phone.page.getByRole('button', { name: 'Video', exact: true }).click();
  await expect(phone.page.getByRole('button', { name: 'Stop video' })).toBeVisible();
}

/** A desk (dispatcher or administrator) on /dispatch monitoring these channels (saved on the server). */
export async function deskOn(
  browser: Browser,
  server: TalkgroupServer,
  account: Account,
  channelIds: number[],
  options: { language?: 'fr' | 'en'; viewport?: { width: number; height: number } } = {},
): Promise<RoomPage> {
  const answer = await server.call(
    '/user/api/setMonitorList',
    { channels: channelIds.map((channelId) => ({ channelId })), unselectedVolume: 40 },
    account.token,
  );
  expect(answer.status).toBe(200);
  const desk = await openAs(browser, server.baseURL, account, options);
  await desk.page.goto('/dispatch');
  return desk;
}
