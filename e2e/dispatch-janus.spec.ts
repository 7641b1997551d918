/**
 * The dispatch console through the media server (issues 26 and 27), in real Chromium with fake microphones: the
 * desk's all call is heard in two channels that go through Janus and recorded once, listed in both channels'
 * histories, and two channels patched from the console carry a member's voice from one to the other until the
 * desk unpatches them. The desk's voice arrives at a member's level, as on the mesh (issue 51).
 */
import type { Locator } from '@playwright/test';
import { chromiumLaunchOptions } from './chromium.ts';
import {
  arrivingLevelDecoded,
  decibelsApart,
  hold,
  levelCast,
  monitor,
  peakIn,
  peerIn,
  silenceIn,
} from './dispatch-support.ts';
import { expect as baseExpect, test } from './fixtures.ts';
import { janusDeployment, stopLeftovers, transportOf } from './media-servers.ts';
import { fakeMicrophoneArgs } from './room-audio.ts';
import { heardAbove, openAs, type RoomPage, silentBelow, TONE_WAV } from './room-support.ts';

const expect = baseExpect.configure({ timeout: 60_000 });
const PHONE = { width: 390, height: 844 };

test.use({ launchOptions: chromiumLaunchOptions(fakeMicrophoneArgs(TONE_WAV)) });
test.describe.configure({ timeout: 240_000 });
test.afterEach(stopLeftovers);

test('through Janus, an all call is heard in two channels, and a patch carries a member from one to the other', async ({
  browser,
}) => {
  const deployment = await janusDeployment();
  const { server, seed } = deployment;
  const pages: RoomPage[] = [];
  try {
    const [alpha, bravo] = [await seed.channel(), await seed.channel()];
    const desk = await seed.member({ firstName: 'Dana', lastName: 'Desk', role: 'dispatcher' });
    const ali = await seed.member({ firstName: 'Ali', lastName: 'Alpha' });
    const bea = await seed.member({ firstName: 'Bea', lastName: 'Bravo' });
    await seed.addToChannel(alpha.id, [desk.id, ali.id]);
    await seed.addToChannel(bravo.id, [desk.id, bea.id]);

    const d = await openAs(browser, server.baseURL, desk);
    const a = await openAs(browser, server.baseURL, ali, { viewport: PHONE });
    const b = await openAs(browser, server.baseURL, bea, { viewport: PHONE });
    pages.push(d, a, b);
    await d.page.goto('/dispatch');
    await monitor(d.page, [alpha.name, bravo.name]);
    await a.page.goto(`/talk/${alpha.id}`);
    await b.page.goto(`/talk/${bravo.id}`);
    await expect(transportOf(a.page)).toHaveText('Voice through the server');
    await expect(transportOf(b.page)).toHaveText('Voice through the server');

    // What each phone receives from its channel (one stream from the media server, whoever talks).
    const mixAtAli = await peerIn(a.page, alpha.rtcSession, desk.id);
    const mixAtBea = await peerIn(b.page, bravo.rtcSession, desk.id);
    const quietAli = await silenceIn(a.page, alpha.rtcSession, mixAtAli);
    const quietBea = await silenceIn(b.page, bravo.rtcSession, mixAtBea);

    // All call: the desk is heard in both channels through Janus.
    const releaseAll = await hold(d.page, d.page.getByRole('button', { name: 'All call' }));
    await expect(d.page.getByRole('status', { name: 'All call' })).toHaveText('All call on 2 of 2 channels.');
    await expect.poll(() => peakIn(a.page, alpha.rtcSession, mixAtAli)).toBeGreaterThan(heardAbove(quietAli));
    await expect.poll(() => peakIn(b.page, bravo.rtcSession, mixAtBea)).toBeGreaterThan(heardAbove(quietBea));
    // An over of a second, as a dispatcher's is: a press let go within 300 ms is not kept (takes.ts), and on a
    // quiet machine both phones heard the call so soon that the release came 221 ms after it went on the air.
    await d.page.waitForTimeout(1_000);
    await releaseAll();
    await expect.poll(() => peakIn(b.page, bravo.rtcSession, mixAtBea)).toBeLessThan(silentBelow(quietBea));
    // One recording of the all call, listed in each channel's history (issue 37).
    const historyOf = async (channelId: number) =>
      (await server.call('/user/api/getChannelVoiceMessages', { channelId }, deployment.admin.token)).body
        .res as Array<{
        userId: number;
        createdAt: string;
        durationMs: number;
      }>;
    // Both counted at each read: a failure says which channel missed it.
    await expect
      .poll(async () => [(await historyOf(alpha.id)).length, (await historyOf(bravo.id)).length])
      .toEqual([1, 1]);
    const [inAlpha] = await historyOf(alpha.id);
    expect((await historyOf(bravo.id))[0]).toMatchObject({
      userId: desk.id,
      createdAt: inAlpha.createdAt,
      durationMs: inAlpha.durationMs,
    });

    // The desk patches Alpha and Bravo: Ali, talking in Alpha, is heard on Bea's phone in Bravo.
    for (const channel of [alpha, bravo])
      await d.page.getByRole('checkbox', { name: `Include ${channel.name}` }).check();
    await d.page.getByRole('button', { name: 'Patch the checked channels (2)' }).click();
    await expect(
      d.page.getByRole('region', { name: `Channel ${alpha.name}` }).getByText(`Patched with ${bravo.name}`),
    ).toBeVisible();
    const aliTalk = a.page.getByRole('button', { name: 'Push to talk' });
    let releaseAli = await hold(a.page, aliTalk);
    await expect(aliTalk).toHaveAttribute('data-mic', 'on');
    await expect.poll(() => peakIn(b.page, bravo.rtcSession, mixAtBea)).toBeGreaterThan(heardAbove(quietBea));
    await releaseAli();
    await expect.poll(() => peakIn(b.page, bravo.rtcSession, mixAtBea)).toBeLessThan(silentBelow(quietBea));

    // Unpatched: Ali talks again, heard at the desk in Alpha, and no longer on Bea's phone.
    await d.page.getByRole('button', { name: /^Unpatch / }).click();
    await expect(d.page.getByText('No patch.')).toBeVisible();
    const aliAtDesk = await peerIn(d.page, alpha.rtcSession, ali.id);
    const quietDesk = await silenceIn(d.page, alpha.rtcSession, aliAtDesk);
    releaseAli = await hold(a.page, aliTalk);
    await expect(aliTalk).toHaveAttribute('data-mic', 'on');
    await expect.poll(() => peakIn(d.page, alpha.rtcSession, aliAtDesk)).toBeGreaterThan(heardAbove(quietDesk));
    // Over a second of her voice at the desk, Bea's phone stays quiet.
    for (let sample = 0; sample < 5; sample++) {
      expect(await peakIn(b.page, bravo.rtcSession, mixAtBea)).toBeLessThan(silentBelow(quietBea));
      await d.page.waitForTimeout(200);
    }
    await releaseAli();
  } catch (error) {
    throw withServerErrors(error, server.output());
  } finally {
    for (const page of pages) await page.close();
    await deployment.stop();
  }
});

/**
 * The failure with what the server logged at level warning or above (a recording not kept, a Janus request that
 * failed, Janus lost and the channels gone peer to peer): a CI log kept only by its end says why, not only what
 * was missing (beside a loaded machine, the all call's recording twice never came to the histories, with no
 * error logged).
 */
function withServerErrors(error: unknown, output: string): unknown {
  const errors = output
    .split('\n')
    .filter((line) => /"level":(40|50|60)\b/.test(line))
    .slice(-20);
  if (!(error instanceof Error) || errors.length === 0) return error;
  error.message += `\nThe server's errors:\n${errors.map((line) => line.slice(0, 600)).join('\n')}`;
  return error;
}

test("through Janus, the desk's voice arrives at a member's level, talking on one channel and in an all call", async ({
  browser,
}) => {
  const deployment = await janusDeployment();
  const { server, seed } = deployment;
  const pages: RoomPage[] = [];
  try {
    const { alpha, desk, d, a, b, pages: cast } = await levelCast(browser, server.baseURL, seed);
    pages.push(...cast);
    await expect(transportOf(a.page)).toHaveText('Voice through the server');
    await expect(transportOf(b.page)).toHaveText('Voice through the server');
    // Ali's phone receives the channel's one stream from the media server, whoever talks: one decoder for all.
    const mix = await peerIn(a.page, alpha.rtcSession, desk.id);
    const quiet = await silenceIn(a.page, alpha.rtcSession, mix);
    const talking = a.page.getByTestId('talking-now');

    // Each voice in turn, from the same fake microphone: measured on Ali's phone from the moment it is heard
    // (a burst at a transmission's start counts), then silence again before the next.
    const arriving = async (who: string, button: Locator) => {
      const release = await hold(button.page(), button);
      await expect(talking).toContainText(who);
      await expect.poll(() => peakIn(a.page, alpha.rtcSession, mix)).toBeGreaterThan(heardAbove(quiet));
      const level = await arrivingLevelDecoded(a.page, alpha.rtcSession, mix);
      await release();
      await expect(talking).not.toContainText(who);
      await expect.poll(() => peakIn(a.page, alpha.rtcSession, mix)).toBeLessThan(silentBelow(quiet));
      return level;
    };
    // A member's voice: the reference (the channel's first transmission, on a fresh decoder).
    const member = await arriving('Bea Talks', b.page.getByRole('button', { name: 'Push to talk' }));
    // The desk on the channel, then in an all call, each after another transmission: within 3 dB of the
    // member. A talker's forward used to stop at the release, and the next transmission's start then came out
    // of the listeners' decoders up to 10 dB loud (feed.ts, AIR_TAIL_MS).
    const talk = await arriving('Dana Level', d.page.getByRole('button', { name: `Talk on ${alpha.name}` }));
    expect(decibelsApart(talk, member)).toBeLessThan(3);
    const allCall = await arriving('Dana Level', d.page.getByRole('button', { name: 'All call' }));
    expect(decibelsApart(allCall, member)).toBeLessThan(3);
    // And the member again, after the desk.
    const again = await arriving('Bea Talks', b.page.getByRole('button', { name: 'Push to talk' }));
    expect(decibelsApart(again, member)).toBeLessThan(3);
  } finally {
    for (const page of pages) await page.close();
    await deployment.stop();
  }
});
