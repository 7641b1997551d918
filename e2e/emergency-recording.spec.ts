/**
 * Every open microphone is kept (issue 70, item 5), in Chromium: a member's SOS opens its microphone for 10 s,
 * and that transmission is in the channel's voice history even when the browser refuses to start its recorder
 * with the first format (the shift's man-down lost it to "NotSupportedError: Failed to execute 'start' on
 * 'MediaRecorder'"): the page tries the next format.
 */
import { closeAllAlerts } from './alerts.ts';
import { chromiumLaunchOptions } from './chromium.ts';
import { expect as baseExpect, test } from './fixtures.ts';
import { fakeMicrophoneArgs } from './room-audio.ts';
import { openAs, TONE_WAV } from './room-support.ts';

const expect = baseExpect.configure({ timeout: 60_000 });
const PHONE = { width: 390, height: 844 };

test.use({ launchOptions: chromiumLaunchOptions(fakeMicrophoneArgs(TONE_WAV)) });
test.describe.configure({ timeout: 180_000 });

test('the microphone an SOS opened is recorded into the history, even when the first recording format fails', async ({
  browser,
  server,
  admin,
  seed,
}) => {
  const channel = await seed.channel();
  const max = await seed.member({ firstName: 'Max', lastName: 'Scout' });
  await seed.addToChannel(channel.id, [max.id]);
  const phone = await openAs(browser, server.baseURL, max, { viewport: PHONE });
  // This browser claims Opus in WebM but will not start a recorder with it, as the shift's phone did.
  await phone.page.addInitScript(() => {
    const refused: string[] = [];
    (window as { __refusedFormats?: string[] }).__refusedFormats = refused;
    const start = MediaRecorder.prototype.start;
    MediaRecorder.prototype.start = function (this: MediaRecorder, ...args: [number?]) {
      if (this.mimeType === 'audio/webm;codecs=opus') {
        refused.push(this.mimeType);
        throw new DOMException("Failed to execute 'start' on 'MediaRecorder'", 'NotSupportedError');
      }
      return start.apply(this, args);
    };
  });
  try {
    await phone.page.goto(`/talk/${channel.id}`);
    await expect(phone.page.getByText('Connected', { exact: true })).toBeVisible();
    await expect(phone.page.getByRole('button', { name: 'Push to talk' })).toBeEnabled();

    const sos = phone.page.getByRole('button', { name: 'SOS alert: hold for 2 seconds to send it' });
    await sos.hover();
    await phone.page.mouse.down();
    await expect(
      phone.page.getByText("Alert sent to your channels' dispatchers and the administrators."),
    ).toBeVisible();
    await phone.page.mouse.up();

    // The emergency floor opens the microphone without a press, then closes it (EMERGENCY_FLOOR_MS, 10 s).
    await expect(phone.page.getByTestId('talking-now')).toHaveText('You are talking');
    await expect(phone.page.getByTestId('talking-now')).not.toHaveText('You are talking', { timeout: 30_000 });
    expect(await phone.page.evaluate(() => (window as { __refusedFormats?: string[] }).__refusedFormats)).toEqual([
      'audio/webm;codecs=opus',
    ]);

    // Kept: the channel's history holds Max's transmission, of the emergency's length.
    await expect
      .poll(async () => {
        const listed = await server.call('/user/api/getChannelVoiceMessages', { channelId: channel.id }, admin.token);
        return (listed.body.res as Array<{ userId: number; durationMs: number }>)
          .filter((message) => message.userId === max.id)
          .map((message) => message.durationMs >= 5000);
      })
      .toEqual([true]);
  } finally {
    await phone.close();
    await closeAllAlerts(server, admin);
  }
});
