/**
 * SIP gateways through Janus (issue 51), in one run: one Janus (Debian's, real-time as deploy/janus runs it),
 * Talkgroup in this process with SIP on loopback (server.ts says why in this process), a headless Chromium
 * whose fake microphone plays a tone, and Debian's baresip as the gateway (DTMF floor mode, a radio: PCMU,
 * playing a 1 kHz tone all along, which Janus keeps muted until the gateway holds the floor).
 *
 * - **Press-to-sound**, presses taken in turn, in one channel through the one Janus:
 *   - page to page, the baseline, as bench:media measures it (bench/ptt-latency's room pair: the talker's
 *     pointerdown to the onset of the sound in the listener's samples);
 *   - gateway to page: from the moment the bench tells baresip to send `*` (its ctrl_tcp `sndcode`), and from
 *     the floor's grant (floor_taken's `since`, the server's clock, this process's), to the onset of the
 *     gateway's tone in the listener page's samples, read as the room pair reads it;
 *   - page to gateway: from the talker's pointerdown to the first packet with sound the relay sends to the
 *     gateway (`RtpRelay.soundBeganAt`: baresip's recording has no wall clock; baresip's own jitter buffer,
 *     20 to 200 ms here, comes after it and is not counted).
 *   Medians and p90, and each median's ratio to the page-to-page median.
 * - **Many calls** (load.ts): `--calls` gateway calls at once over `--channels` channels, Janus's and the
 *   server's CPU and memory, idle, with the calls up, and with one talker a channel; per call.
 *
 * `npm run bench:gateway [-- --presses 15] [--calls 50] [--channels 10] [--window 8] [--json]`. Figures are
 * printed, never asserted.
 */
import { execSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { chromiumLaunchOptions } from '../../e2e/chromium.ts';
import { seedFor } from '../../e2e/fixtures.ts';
import { fakeMicrophoneArgs } from '../../e2e/room-audio.ts';
import { TONE_WAV } from '../../e2e/room-support.ts';
import { channelNumber } from '../../packages/protocol/src/api/gateways.ts';
import { JANUS_REALTIME_PRIORITY, randomSecret, startJanus } from '../../packages/server/src/ops/dev-media.ts';
import { startBaresip, writeToneWav } from '../../packages/server/test/baresip.ts';
import { connect } from '../../packages/server/test/realtime-harness.ts';
import { clockOffset } from '../ptt-latency/bare.ts';
import { openRoomPair, pause, SILENCE_THRESHOLD, SOUND_THRESHOLD } from '../ptt-latency/room-pair.ts';
import { freePort } from '../server-process.ts';
import { measureLoad } from './load.ts';
import { printReport } from './report.ts';
import { startInProcess } from './server.ts';

const option = (name: string) => {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
};
const presses = Number(option('--presses')) || 15;
const calls = Number(option('--calls') ?? 50);
const channels = Number(option('--channels')) || 10;
const windowMs = (Number(option('--window')) || 8) * 1000;
const asJson = process.argv.includes('--json');
const progress = (text: string) => (asJson ? process.stderr : process.stdout).write(text);
const now = () => performance.timeOrigin + performance.now();

const root = path.resolve(import.meta.dirname, '../..');
if (!existsSync(path.join(root, 'packages/web/dist/index.html'))) {
  progress('building the web app first (npm run build)…\n');
  execSync('npm run build', { cwd: root, stdio: asJson ? ['ignore', 'ignore', 'inherit'] : 'inherit' });
}

const loads = [loadavg()[0]];
const rtpBase = 30_000 + Math.floor(Math.random() * 19) * 1000;
const janus = await startJanus({
  wsPort: await freePort(),
  rtpPorts: [rtpBase, rtpBase + 999],
  apiSecret: randomSecret(),
  realtime: JANUS_REALTIME_PRIORITY,
});
const server = await startInProcess({
  JANUS_URL: janus.url,
  JANUS_API_SECRET: janus.secret,
  SIP_PORT: '0',
  SIP_HOST: '127.0.0.1',
  // Apart from Janus's (30000-49999 here), coturn's (49160-49999) and baresip's (61000-65499).
  SIP_RTP_PORTS: '55000-55999',
});
const dir = mkdtempSync(path.join(tmpdir(), 'talkgroup-bench-gateway-'));
const tone = path.join(dir, 'tone.wav');
// baresip's aufile ends the call when its file runs out: longer than the whole bench.
await writeToneWav(tone, { hz: 1000, seconds: 900, rate: 8000, amplitude: 0.3 });
const browser = await chromium.launch(chromiumLaunchOptions(fakeMicrophoneArgs(TONE_WAV)));

const figures = { pageToPage: [] as number[], starToPage: [] as number[], grantToPage: [] as number[] };
const pageToGateway: number[] = [];
let missed = 0;
let load: Awaited<ReturnType<typeof measureLoad>> | undefined;
let stopped = false;
/** Press to the first packet at the listener page: the page-to-page point that compares with the relay's. */
let roomPackets: number[] = [];

/** The id under which the listener hears the channel: through Janus every peer shares the channel's one stream. */
const heardId = (listener: Page, userId: number) =>
  listener.evaluate(
    (id) => window.__talkgroupRoom?.peers().find((peer) => peer.userId === id && peer.connection === 'connected')?.id,
    userId,
  );

try {
  progress('press-to-sound: setting up');
  const room = await openRoomPair(browser, server);
  const seed = seedFor(server, room.admin);
  // A socket of its own in the channel's room: floor_taken says when the server granted the floor.
  const watcher = await seed.member({ firstName: 'Floor', lastName: 'Watcher' });
  // One more member (seed.addToChannel would replace the channel's members: the room pair's listener too).
  const added = await server.call(
    '/user/api/addUserToChannel',
    { userId: watcher.id, channelId: room.channel.id },
    room.admin.token,
  );
  if (added.status !== 200) throw new Error(`addUserToChannel: ${JSON.stringify(added.body)}`);
  const signals = await connect(server.baseURL, watcher.token);
  signals.socket.emit('join_room', { room: room.channel.rtcSession, name: 'watcher' });
  await signals.next('all_users');

  const made = await server.call(
    '/user/api/createGateway',
    { name: 'Bench radio', login: 'bench-radio', channelIds: [room.channel.id], floorMode: 'dtmf' },
    room.admin.token,
  );
  if (made.status !== 200) throw new Error(`createGateway: ${JSON.stringify(made.body)}`);
  const phone = await startBaresip({
    login: 'bench-radio',
    secret: made.body.secret,
    sipPort: server.sipPort,
    play: tone,
    codecs: ['pcmu'],
    lifetimeSeconds: 900,
  });
  const number = channelNumber(room.channel as never);
  if (!number) throw new Error('the channel has no number: not through the media server');
  const call = await phone.dial(number);
  const relay = server.app.sip?.relayOf(call.id ?? '');
  if (!relay) throw new Error(`no relay for the call ${call.id}`);
  let listenedId: string | undefined;
  for (let i = 0; i < 100 && !listenedId; i += 1) {
    listenedId = await heardId(room.listener, room.admin.id);
    if (!listenedId) await pause(100);
  }
  if (!listenedId)
    throw new Error(
      `the listener does not see the talker's connection: ${JSON.stringify(await room.listener.evaluate(() => window.__talkgroupRoom?.peers()))}`,
    );
  const heard: string = listenedId;
  await pause(1000);
  const listenerOffset = await clockOffset(room.listener);
  const talkerOffset = await clockOffset(room.talker);
  const button = room.talker.getByRole('button', { name: 'Push to talk' });

  /** The gateway sends `*` and its tone is heard; `#` then, and the floor is free again. */
  async function gatewayPress(): Promise<string> {
    await room.listener.evaluate(
      ([id, threshold]) => window.__talkgroupRoom?.waitForLevel(id, threshold, 3000, false),
      [heard, SILENCE_THRESHOLD] as const,
    );
    const began = room.listener.evaluate(
      ([id, threshold]) => window.__talkgroupRoom?.waitForOnset?.(id, threshold, 5000) ?? null,
      [heard, SOUND_THRESHOLD] as const,
    );
    const taken = signals.next('floor_taken', (claim) => claim.name === 'Bench radio');
    await pause(80 + Math.random() * 40);
    const starAt = now();
    await phone.sendDtmf('*');
    const [beganAt, claim] = await Promise.all([began, taken]);
    await phone.sendDtmf('#');
    await signals.next('floor_idle');
    if (beganAt == null) {
      missed += 1;
      return 'x';
    }
    const soundAt = beganAt - listenerOffset;
    figures.starToPage.push(soundAt - starAt);
    figures.grantToPage.push(soundAt - Date.parse(claim.since));
    return '.';
  }

  /** A page presses and talks; the time its tone first goes from the relay to the gateway. */
  async function pageToGatewayPress(): Promise<string> {
    const before = relay?.soundBeganAt ?? 0;
    await button.hover({ force: true });
    await pause(80 + Math.random() * 40);
    await room.talker.mouse.down();
    const deadline = Date.now() + 5000;
    while ((relay?.soundBeganAt ?? 0) === before && Date.now() < deadline) await pause(2);
    const pressedAt = await room.talker.evaluate(() => (window as unknown as { __pressedAt?: number }).__pressedAt);
    await room.talker.mouse.up();
    await signals.next('floor_idle');
    const soundAt = relay?.soundBeganAt ?? 0;
    if (soundAt === before || !pressedAt) {
      missed += 1;
      return 'x';
    }
    pageToGateway.push(soundAt - (pressedAt - talkerOffset));
    return '.';
  }

  progress(', pressing ');
  for (let i = 0; i < presses; i += 1) {
    // The three kinds in a new order each round, so that none always follows the same one.
    const kinds = [
      async () => {
        const start = room.figures.sound.length;
        const mark = await room.press();
        await signals.next('floor_idle');
        if (room.figures.sound.length > start) figures.pageToPage.push(room.figures.sound.at(-1) as number);
        return mark;
      },
      gatewayPress,
      pageToGatewayPress,
    ].sort(() => Math.random() - 0.5);
    for (const kind of kinds) {
      progress(await kind());
      // The relay sends nothing to a radio for a while after the channel's last sound (its hang-over).
      await pause(700 + Math.random() * 300);
    }
  }
  loads.push(loadavg()[0]);
  roomPackets = room.figures.packet;
  progress('\n');
  signals.close();
  await phone.hangup();
  await phone.stop();
  await room.talker.context().close();
  await room.listener.context().close();
  await browser.close();

  // The takes of the last presses are still being encoded: the server stops once they are kept.
  const takes = path.join(server.dataDir, 'janus-takes');
  for (let i = 0; i < 100 && existsSync(takes) && readdirSync(takes).length > 0; i += 1) await pause(100);
  await server.stop();
  stopped = true;

  if (calls > 0) {
    load = await measureLoad({ janus, calls, channels, windowMs, tone, progress });
    loads.push(loadavg()[0]);
  }
} finally {
  await browser.close().catch(() => {});
  if (!stopped) await server.stop();
  await janus.stop();
  rmSync(dir, { recursive: true, force: true });
}

printReport({
  asJson,
  loads,
  presses,
  missed,
  figures: { ...figures, pagePacket: roomPackets, pageToGateway },
  load,
  scheduling: janus.scheduling,
});
