/**
 * Radios and desk phones in a channel through the media server (issue 51), with real parts: Debian's Janus,
 * Debian's baresip as the gateway (it plays a WAV and records what it hears) and a page's real
 * RTCPeerConnections in headless Chromium. A gateway dials the channel's number and
 *
 * - is listed among the channel's peers with its gateway mark (`user joined`, and `all_users` for a page that
 *   comes after);
 * - gets no RTP at all while nobody talks (a radio keys on RTP);
 * - in DTMF mode: is heard by the page only after `*` (floor_taken names it) and no more after `#`; its take is
 *   kept in the voice history under its name; with the floor held by the page, its `*` is refused (it hears the busy
 *   tone) and it is not heard; it hears the page's tone;
 * - in voice-activity mode: its voice takes the floor by itself and gives it back after the hang time;
 * - arrives at a page within 3 dB of a member sending the same tone at the same level (through Janus: the member
 *   forwarded as it sent, the gateway's G.711 through the mixer);
 * - is hung up by an administrator (hangUpGatewayCall: a BYE).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from '@playwright/test';
import { channelNumber } from '@talkgroup/protocol';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Baresip, baresipAvailable, startBaresip, writeToneWav, writeWav } from './baresip.ts';
import { launchMediaBrowser, type MediaPage, mediaPage } from './media-browser.ts';
import { hears, joinMedia, MEDIA_WAIT, press, receiving, release, silent } from './media-world.ts';
import { sipJanusWorld } from './sip-janus-world.ts';

const PAGE_TONE = 500;
const GATEWAY_TONE = 1000;
const available = baresipAvailable();

let browser: Browser;
let dir: string;
let toneWav: string;
let spurtWav: string;
beforeAll(async () => {
  if (!available) return;
  browser = await launchMediaBrowser();
  dir = await mkdtemp(path.join(tmpdir(), 'tg-sip-gateway-'));
  toneWav = path.join(dir, 'tone.wav');
  await writeToneWav(toneWav, { hz: GATEWAY_TONE, seconds: 120, rate: 8000, amplitude: 0.3 });
  // Voice activity: 1 s of silence, 3 s of tone, then silence (a radio's transmission).
  spurtWav = path.join(dir, 'spurt.wav');
  const rate = 8000;
  const samples = new Int16Array(rate * 120);
  for (let i = rate; i < rate * 4; i++)
    samples[i] = Math.round(0.3 * 32767 * Math.sin((2 * Math.PI * GATEWAY_TONE * i) / rate));
  await writeWav(spurtWav, samples, rate);
});
afterAll(async () => {
  await browser?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

// One database: what is tested here is the media path; the gateways' storage is tested on both (gateways.test.ts).
describe.skipIf(!available)('SIP gateways through Janus', () => {
  let page: MediaPage;
  const world = sipJanusWorld();
  const phones: Baresip[] = [];
  beforeEach(async () => {
    page = await mediaPage(browser, world.url);
  });
  afterEach(async () => {
    await Promise.all(phones.splice(0).map((phone) => phone.stop()));
    await page?.close();
  });
  afterEach(async () => {});

  async function gateway(floorMode: 'dtmf' | 'voice', codec: 'pcmu' | 'pcma', play: string) {
    const made = await world.app.call(
      '/user/api/createGateway',
      { name: 'Radio Quai', login: 'radio-quai', channelIds: [world.red.id], floorMode },
      world.admin.token,
    );
    expect(made.status).toBe(200);
    const phone = await startBaresip({
      login: 'radio-quai',
      secret: made.body.secret,
      sipPort: world.app.sip?.port,
      play,
      record: true,
      codecs: [codec],
    });
    phones.push(phone);
    return { phone, gatewayId: made.body.res.id as number, userId: made.body.res.id as number };
  }

  const number = () => channelNumber(world.red) as string;

  it('DTMF: listed with its mark, heard only after * and until #, not heard while a page holds the floor, hears the page, kept in the history, hung up by an administrator', async () => {
    const alice = await joinMedia(page, world.url, world.alice, world.red, 'alice', { tone: PAGE_TONE }, (client) =>
      world.track(client),
    );
    const { phone } = await gateway('dtmf', 'pcmu', toneWav);
    const call = await phone.dial(number());

    const joined = await alice.client.next('user joined', (peer) => peer.gateway !== undefined);
    expect(joined).toMatchObject({ name: 'Radio Quai', room: world.red.rtcSession, gateway: { callId: call.id } });
    const listed = await world.app.call('/user/api/listGatewayCalls', { channelId: world.red.id }, world.admin.token);
    expect(listed.body.res).toEqual([
      expect.objectContaining({ callId: call.id, gatewayName: 'Radio Quai', channelId: world.red.id, codec: 'pcmu' }),
    ]);

    // A radio keys its transmitter on RTP: while nobody talks, the channel's silence from Janus is not sent to it.
    const relay = world.app.sip?.relayOf(call.id ?? '');
    await expect.poll(() => relay?.counts.fromJanus ?? 0, MEDIA_WAIT).toBeGreaterThan(25);
    expect(relay?.counts.toGateway).toBe(0);
    // Without the floor, its tone reaches nobody.
    await silent(page, 'alice', [GATEWAY_TONE]);
    await phone.sendDtmf('*');
    const taken = await alice.client.next('floor_taken', (claim) => claim.name === 'Radio Quai');
    expect(taken.room).toBe(world.red.rtcSession);
    await hears(page, 'alice', GATEWAY_TONE);
    // A take shorter than 300 ms is a press let go at once, and not kept: this one lasts a second at least.
    await expect.poll(() => Date.now() - Date.parse(taken.since), MEDIA_WAIT).toBeGreaterThan(1_000);
    await phone.sendDtmf('#');
    await alice.client.next('floor_idle');
    await silent(page, 'alice', [GATEWAY_TONE]);

    // Its take is in the channel's voice history, under its name.
    await expect
      .poll(
        async () =>
          (await world.app.call('/user/api/getChannelVoiceMessages', { channelId: world.red.id }, world.admin.token))
            .body.res,
        MEDIA_WAIT,
      )
      .toEqual([expect.objectContaining({ display_name: 'Radio Quai', durationMs: expect.any(Number) })]);

    // The page talks: the gateway hears it; the gateway's * is refused meanwhile, and it is not heard.
    await press(page, alice);
    await phone.hears(PAGE_TONE, { seconds: 0.5, thresholdDb: -35 });
    await phone.sendDtmf('*');
    // Refused: it hears the busy tone (425 Hz), and nobody hears it.
    await phone.hears(425, { seconds: 0.2, thresholdDb: -30 });
    await silent(page, 'alice', [GATEWAY_TONE]);
    expect(alice.client.all('floor_taken').filter((claim: any) => claim.name === 'Radio Quai')).toHaveLength(1);
    await release(page, alice);

    // An administrator hangs it up: its BYE ends the call, and the room sees it go.
    const hung = await world.app.call('/user/api/hangUpGatewayCall', { callId: call.id }, world.admin.token);
    expect(hung.status).toBe(200);
    await phone.closed();
    await alice.client.next('user_exit', (exit) => exit.id === `sip:${call.id}`);
  });

  it('voice activity: its voice takes the floor after the attack time and gives it back after the hang time', async () => {
    const alice = await joinMedia(page, world.url, world.alice, world.red, 'alice', {}, (client) =>
      world.track(client),
    );
    const { phone } = await gateway('voice', 'pcma', spurtWav);
    const call = await phone.dial(number());
    const taken = await alice.client.next('floor_taken', (claim) => claim.name === 'Radio Quai');
    await hears(page, 'alice', GATEWAY_TONE);
    await alice.client.next('floor_idle');
    // 3 s of tone, less the 0.4 s attack, plus the 1.5 s hang: 4.1 s on the air (seen late on a busy machine, never early).
    expect(Date.now() - Date.parse(taken.since)).toBeGreaterThan(3_600);
    await silent(page, 'alice', [GATEWAY_TONE]);
    // A page that comes now sees the gateway among the channel's peers.
    const bob = await joinMedia(page, world.url, world.bob, world.red, 'bob', {}, (client) => world.track(client));
    const peers = bob.client.all('all_users').at(-1) as Array<{ id: string; gateway?: unknown }>;
    expect(peers.find((peer) => peer.id === `sip:${call.id}`)).toMatchObject({
      name: 'Radio Quai',
      gateway: expect.any(Object),
    });
  });

  /** The median of a few reads of `hz` at the listener: a steady tone reads steady, and one odd read moves nothing. */
  async function levelOf(listener: string, hz: number): Promise<number> {
    const reads: number[] = [];
    for (let read = 0; read < 9; read++) {
      reads.push((await page.levels(receiving(listener), [hz]))[0]);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return reads.sort((a, b) => a - b)[4];
  }

  it("arrives at a member's level: the same tone from a page and from the gateway within 3 dB", async () => {
    const alice = await joinMedia(page, world.url, world.alice, world.red, 'alice', {}, (client) =>
      world.track(client),
    );
    // Bob's page sends a 1 kHz tone at 0.3 of full scale, as the gateway's WAV does.
    const bob = await joinMedia(page, world.url, world.bob, world.red, 'bob', { tone: GATEWAY_TONE }, (client) =>
      world.track(client),
    );
    await press(page, bob);
    await hears(page, 'alice', GATEWAY_TONE);
    const member = await levelOf('alice', GATEWAY_TONE);
    await release(page, bob);
    await silent(page, 'alice', [GATEWAY_TONE]);

    const { phone } = await gateway('dtmf', 'pcmu', toneWav);
    await phone.dial(number());
    await phone.sendDtmf('*');
    await alice.client.next('floor_taken', (claim) => claim.name === 'Radio Quai');
    await hears(page, 'alice', GATEWAY_TONE);
    // Read again until it settles (a busy machine's page may drop a moment of audio): a gateway 15 dB quieter, as
    // through Janus's own G.711 resampling, never gets within 3 dB.
    let radio = -200;
    await expect
      .poll(
        async () => {
          radio = await levelOf('alice', GATEWAY_TONE);
          return Math.abs(radio - member);
        },
        { ...MEDIA_WAIT, message: `the gateway ${radio.toFixed(1)} dB, the member ${member.toFixed(1)} dB` },
      )
      .toBeLessThan(3);
  });
});
