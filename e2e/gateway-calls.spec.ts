/**
 * A SIP gateway's live call in real browsers (issue 51): Debian's baresip dials a channel that goes through Janus
 * as the gateway "Radio Quai" (DTMF mode), and
 * - in the channel's room, in French on a phone's window, the administrator sees it among the participants with
 *   the gateway mark and "Raccrocher", sees it talk after its `*` and stop after its `#`, with no serious
 *   accessibility violation (axe) while it is listed;
 * - a member in the same room sees the mark but no hang-up button;
 * - on the dispatch console of the channel's dispatcher (issue 58: a dispatcher hangs up a gateway in its own
 *   channels, as the administrator does), in English on a wide window, the channel's tile lists it with its mark,
 *   and "Hang up Radio Quai" ends the call (baresip gets the BYE) and takes it off the tile and the room.
 * The media path (what is heard each way) is packages/server/test/sip-gateway.test.ts's; /settings is
 * gateways.spec.ts's.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { channelNumber } from '@talkgroup/protocol';
import { type Baresip, startBaresip, writeToneWav } from '../packages/server/test/baresip.ts';
import { freePort } from '../packages/server/test/process-harness.ts';
import { seriousViolations } from './axe.ts';
import { chromiumLaunchOptions } from './chromium.ts';
import { monitor } from './dispatch-support.ts';
import { expect as baseExpect, test } from './fixtures.ts';
import { janusDeployment, stopLeftovers, transportOf } from './media-servers.ts';
import { fakeMicrophoneArgs } from './room-audio.ts';
import { openAs, type RoomPage, roomUrl, TONE_WAV } from './room-support.ts';

const expect = baseExpect.configure({ timeout: 30_000 });
const PHONE = { width: 390, height: 844 };
const WIDE = { width: 1400, height: 900 };
const RADIO = 'Radio Quai';

test.use({ launchOptions: chromiumLaunchOptions(fakeMicrophoneArgs(TONE_WAV)) });
test.describe.configure({ timeout: 180_000 });
test.afterEach(stopLeftovers);

/**
 * A block of 100 UDP ports for the calls' media, apart from the test Janus's (30000-53999,
 * packages/server/test/janus-harness.ts), baresip's own (61000-65499) and coturn's reserved range.
 */
function sipRtpPorts(): string {
  const base = 54_000 + Math.floor(Math.random() * 60) * 100;
  return `${base}-${base + 99}`;
}

/** Screenshots to look at (not checked): E2E_SCREENSHOTS=1. */
async function shot(page: Page, name: string) {
  if (process.env.E2E_SCREENSHOTS)
    await page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true });
}

test('a gateway in a call: marked in the room and on the console, talks by DTMF, hung up from a dispatcher’s console', async ({
  browser,
}) => {
  const sipPort = await freePort();
  const deployment = await janusDeployment({ SIP_PORT: String(sipPort), SIP_RTP_PORTS: sipRtpPorts() });
  const { server, seed, admin } = deployment;
  const pages: RoomPage[] = [];
  const dir = await mkdtemp(path.join(tmpdir(), 'tg-gateway-calls-'));
  let phone: Baresip | undefined;
  try {
    const channel = await seed.channel();
    const number = channelNumber(channel as typeof channel & { voiceMode: string });
    expect(number, 'a channel through the media server has a number').not.toBeNull();
    const mia = await seed.member({ firstName: 'Mia', lastName: 'Member' });
    const dana = await seed.member({ firstName: 'Dana', lastName: 'Desk', role: 'dispatcher' });
    await seed.addToChannel(channel.id, [mia.id, dana.id]);
    const made = await server.call(
      '/user/api/createGateway',
      { name: RADIO, login: 'radio-quai', channelIds: [channel.id], floorMode: 'dtmf' },
      admin.token,
    );
    expect(made.status, JSON.stringify(made.body)).toBe(200);

    // The radio dials the channel, playing a tone for as long as the test may last (baresip ends the call when
    // its file runs out).
    const tone = path.join(dir, 'tone.wav');
    await writeToneWav(tone, { hz: 1000, seconds: 180, rate: 8000, amplitude: 0.3 });
    phone = await startBaresip({
      login: 'radio-quai',
      secret: made.body.secret,
      sipPort,
      play: tone,
      record: false,
    });
    const call = await phone.dial(number as string);

    // The administrator's room, in French on a phone: the radio among the participants, marked, with "Raccrocher".
    const a = await openAs(browser, server.baseURL, admin, { language: 'fr', viewport: PHONE });
    pages.push(a);
    await a.page.goto(roomUrl(channel.rtcSession));
    await expect(transportOf(a.page)).toHaveText('Voix via le serveur', { timeout: 60_000 });
    const participants = a.page.getByRole('list', { name: 'Participants' });
    const radio = participants.getByRole('listitem', { name: RADIO });
    await expect(radio.getByRole('img', { name: 'Passerelle' })).toBeVisible();
    await expect(radio.getByRole('button', { name: `Raccrocher ${RADIO}` })).toBeVisible();
    await shot(a.page, 'room-fr-narrow');
    expect(await seriousViolations(a.page, 'main')).toEqual([]);
    // Nothing makes the room wider than the phone (a hidden status line once did: 423 px in 390).
    expect(await a.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);

    // DTMF: `*` takes the floor, and the room shows the radio talking; `#` gives it back.
    await phone.sendDtmf('*');
    await expect(radio).toHaveAttribute('data-talking', 'true');
    await expect(radio).toContainText('Parle');
    await expect(a.page.getByText(`Parle : ${RADIO}`)).toBeVisible();
    await shot(a.page, 'room-fr-narrow-talking');
    await phone.sendDtmf('#');
    await expect(radio).toHaveAttribute('data-talking', 'false');
    await expect(a.page.getByText(`Parle : ${RADIO}`)).toHaveCount(0);

    // A member sees the mark, and no hang-up button.
    const m = await openAs(browser, server.baseURL, mia, { viewport: PHONE });
    pages.push(m);
    await m.page.goto(roomUrl(channel.rtcSession));
    const radioAtMia = m.page.getByRole('list', { name: 'Participants' }).getByRole('listitem', { name: RADIO });
    await expect(radioAtMia.getByRole('img', { name: 'Gateway' })).toBeVisible();
    await expect(radioAtMia.getByRole('button')).toHaveCount(0);
    await shot(m.page, 'room-member');
    await expect(m.page.getByRole('button', { name: `Hang up ${RADIO}` })).toHaveCount(0);

    // The dispatcher's console, in English on a wide window: the tile lists the radio with its mark; Dana hangs it
    // up there (issue 58).
    const d = await openAs(browser, server.baseURL, dana, { viewport: WIDE });
    pages.push(d);
    await d.page.goto('/dispatch');
    await monitor(d.page, [channel.name]);
    const tile = d.page.getByRole('region', { name: `Channel ${channel.name}` });
    const listed = tile
      .getByRole('list', { name: `Members of ${channel.name}` })
      .getByRole('listitem')
      .filter({
        hasText: RADIO,
      });
    await expect(listed.getByRole('img', { name: 'Gateway' })).toBeVisible();
    await shot(d.page, 'dispatch-en-wide');
    const closed = phone.closed();
    await listed.getByRole('button', { name: `Hang up ${RADIO}` }).click();
    // The server's BYE: libre ends a session on a BYE received as ECONNRESET ("Connection reset by peer"); a
    // timeout or a SIP error answer would read otherwise.
    expect(await closed).toBe('Connection reset by peer');
    await expect(d.page.getByText('Call hung up.')).toBeVisible();
    const calls = await server.call('/user/api/listGatewayCalls', { channelId: channel.id }, admin.token);
    expect(calls.body.res.map((live: { callId: string }) => live.callId)).not.toContain(call.id);
    await expect(listed).toHaveCount(0);
    await expect(radio).toHaveCount(0);
    await expect(radioAtMia).toHaveCount(0);
  } finally {
    await phone?.stop();
    for (const { close } of pages) await close();
    await deployment.stop();
    await rm(dir, { recursive: true, force: true });
  }
});
