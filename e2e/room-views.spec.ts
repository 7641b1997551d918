/** The other call views: the user call view (link with a token), the mobile call view and the video room. */
import { chromiumLaunchOptions } from './chromium.ts';
import { expect as baseExpect, startIn, test } from './fixtures.ts';
import { fakeMicrophoneArgs } from './room-audio.ts';
import {
  connectedPeer,
  expectSilence,
  expectToHear,
  measureSilence,
  openAs,
  roomUrl,
  TONE_WAV,
} from './room-support.ts';

// A busy machine may be slow to bring the media up: wait on states, with deadlines to match.
const expect = baseExpect.configure({ timeout: 60_000 });

test.use({ launchOptions: chromiumLaunchOptions(fakeMicrophoneArgs(TONE_WAV)) });
test.describe.configure({ timeout: 180_000 });

test('the user call view takes its token from the link, starts muted and follows window events', async ({
  browser,
  server,
  admin,
  seed,
}) => {
  const channel = await seed.channel();
  const uma = await seed.member({ firstName: 'Uma', lastName: 'Linked' });
  await seed.addToChannel(channel.id, [uma.id]);

  const a = await openAs(browser, server.baseURL, admin);
  // The device opens the link with nothing in its storage. Without a session, the app clears the storage on
  // load (keeping the language), so this page keeps voice processing on: its noise suppression flattens the
  // steady test tone within two seconds (to about 0.036, the level a busy CI once read against a fixed 0.1),
  // which is why what A hears is judged against the silence A received before.
  const context = await browser.newContext({ baseURL: server.baseURL });
  await startIn(context, 'en');
  const device = await context.newPage();
  try {
    await a.page.goto(roomUrl(channel.rtcSession));
    const data = encodeURIComponent(JSON.stringify({ channelId: channel.id, userId: uma.id, token: uma.token }));
    await device.goto(`/userCallView/${data}`);
    await expect(device.getByRole('heading', { level: 1, name: channel.name })).toBeVisible();
    await expect(device.getByText('Microphone off')).toBeVisible();

    const umaAtA = await connectedPeer(a.page, uma.id);
    await expect(a.page.getByRole('listitem', { name: 'Uma Linked' })).toHaveAttribute('data-talking', 'false');
    // Muted at start: A receives silence frames, against which it judges what it hears next.
    const silence = await measureSilence(a.page, umaAtA);

    // The embedding app turns the microphone on with a window message...
    await device.evaluate(() => window.postMessage({ type: 'micState', micState: true }, '*'));
    await expect(device.getByText('Microphone on')).toBeVisible();
    await expectToHear(a.page, umaAtA, silence);
    await expect(a.page.getByRole('listitem', { name: 'Uma Linked' })).toHaveAttribute('data-talking', 'true');

    // ...and off with an event of its own.
    await device.evaluate(() => window.dispatchEvent(new CustomEvent('talkgroup:mic', { detail: false })));
    await expect(device.getByText('Microphone off')).toBeVisible();
    await expectSilence(a.page, umaAtA, silence);
    await expect(a.page.getByRole('listitem', { name: 'Uma Linked' })).toHaveAttribute('data-talking', 'false');

    // The changes were reported: the talk is in the activity log.
    await expect
      .poll(async () => {
        const { body } = await server.call('/user/api/getLastActivities/', { limit: 20 }, admin.token);
        return (body.res as Array<{ type: string; user: { id: number } | null }>).some(
          (activity) => activity.type === 'channel_talk' && activity.user?.id === uma.id,
        );
      })
      .toBe(true);
  } finally {
    await a.close();
    await context.close();
  }
});

test('a broken call link says so', async ({ page }) => {
  await page.goto(`/userCallView/${encodeURIComponent('{"channelId":1}')}`);
  await expect(page.getByText('This call link is not valid')).toBeVisible();
});

test('the mobile call view: voice, messages and members on a phone', async ({ browser, server, admin, seed }) => {
  const channel = await seed.channel();
  const max = await seed.member({ firstName: 'Max', lastName: 'Mobile' });
  await seed.addToChannel(channel.id, [max.id]);

  const a = await openAs(browser, server.baseURL, admin);
  const phone = await openAs(browser, server.baseURL, max, { viewport: { width: 390, height: 844 } });
  try {
    await a.page.goto(roomUrl(channel.rtcSession));
    await phone.page.goto(`/mobileCallView/${channel.rtcSession}`);
    await expect(phone.page.getByRole('heading', { level: 1, name: channel.name })).toBeVisible();
    await expect(phone.page.getByRole('listitem', { name: 'Ada Lovelace' })).toBeVisible();
    const maxAtA = await connectedPeer(a.page, max.id);
    const silence = await measureSilence(a.page, maxAtA);

    const ptt = phone.page.getByRole('button', { name: 'Push to talk' });
    await ptt.hover();
    await phone.page.mouse.down();
    await expectToHear(a.page, maxAtA, silence);
    await expect(a.page.getByRole('listitem', { name: 'Max Mobile' })).toHaveAttribute('data-talking', 'true');
    await phone.page.mouse.up();
    await expectSilence(a.page, maxAtA, silence);

    await phone.page.getByRole('tab', { name: 'Messages' }).click();
    const input = phone.page.getByRole('textbox', { name: 'Message' });
    await input.fill('From the field');
    await input.press('Enter');
    await a.page.getByRole('button', { name: 'Messages' }).click();
    await expect(a.page.getByRole('listitem', { name: 'Message from Max Mobile' })).toContainText('From the field');

    await phone.page.getByRole('tab', { name: 'Members' }).click();
    await expect(phone.page.getByRole('row', { name: /Max Mobile/ })).toBeVisible();
  } finally {
    await a.close();
    await phone.close();
  }
});

test("the video room shows the peers' video and a small local preview", async ({ browser, server, admin, seed }) => {
  const channel = await seed.channel();
  const vic = await seed.member({ firstName: 'Vic', lastName: 'Video' });
  await seed.addToChannel(channel.id, [vic.id]);

  const a = await openAs(browser, server.baseURL, admin);
  const v = await openAs(browser, server.baseURL, vic);
  try {
    await a.page.goto(`/join/${channel.rtcSession}`);
    await v.page.goto(`/join/${channel.rtcSession}`);
    const preview = a.page.getByTestId('local-preview');
    await expect.poll(() => preview.evaluate((video: HTMLVideoElement) => video.videoWidth)).toBeGreaterThan(0);
    const box = await preview.boundingBox();
    expect(box && box.x > 1280 / 2 && box.y > 800 / 2).toBe(true);
    const vicTile = a.page.getByRole('listitem', { name: 'Vic Video' });
    await expect(vicTile.locator('video')).toBeVisible();
    await expect
      .poll(() => vicTile.locator('video').evaluate((video: HTMLVideoElement) => video.videoWidth))
      .toBeGreaterThan(0);
    // The fake camera honours the ideal 240x240.
    expect(await preview.evaluate((video: HTMLVideoElement) => [video.videoWidth, video.videoHeight])).toEqual([
      240, 240,
    ]);

    await a.page.getByRole('button', { name: 'Camera' }).click();
    await expect(a.page.getByRole('button', { name: 'Camera' })).toHaveAttribute('aria-pressed', 'false');

    // On a phone the preview stays clear of every control (issue 17).
    await v.page.setViewportSize({ width: 390, height: 844 });
    const vicPreview = v.page.getByTestId('local-preview');
    await expect.poll(() => vicPreview.evaluate((video: HTMLVideoElement) => video.videoWidth)).toBeGreaterThan(0);
    const previewBox = (await vicPreview.boundingBox())!;
    for (const name of ['Push to talk', 'Camera']) {
      const control = (await v.page.getByRole('button', { name }).boundingBox())!;
      const overlaps =
        previewBox.x < control.x + control.width &&
        control.x < previewBox.x + previewBox.width &&
        previewBox.y < control.y + control.height &&
        control.y < previewBox.y + previewBox.height;
      expect(overlaps, `the preview covers ${name}`).toBe(false);
    }
  } finally {
    await a.close();
    await v.close();
  }
});
