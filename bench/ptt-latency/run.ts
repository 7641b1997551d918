/**
 * Press-to-sound (mouth-to-ear) latency of push-to-talk: two headless Chromium pages in one channel room,
 * each with a fake microphone that plays a continuous 1 kHz tone. The talker presses the button; the
 * listener hears the tone appear. With a continuous tone the press is the only onset, so the delay from the
 * press to the sound is the whole pipeline: floor request and grant, track enable, capture, Opus encode,
 * network (loopback here), jitter buffer, decode.
 *
 * The press is the talker page's first pointerdown. The sound is where the tone begins in the listener's
 * received samples (the first loud sample after a quiet stretch, mapped to the clock: the room's
 * waitForOnset), so a busy main thread at the listener does not add to it; what a 2 ms poll of the level
 * saw is printed too. Times cross pages in epoch milliseconds, corrected by each page's clock offset. Also
 * printed: press to the track enabled, to the RTP audio level at the listener, and to the listener's
 * talking indicator (onMicStateChanged through the server: in the room's state, in the page, drawn).
 *
 * The floor: two bare RTCPeerConnections in one page of the same browser, with the browser's defaults,
 * their track enabled directly, heard with the same onset detector (bare.ts). Presses alternate between
 * the room and the pairs in a random order, so that the machine's load weighs on all alike; the pairs are
 * set up afresh (and the listener joins afresh) for each round, since one connection's figures shift with
 * its own jitter buffer. Also printed: the bare pair with the app's receive settings (opusSettings.ts),
 * what the browser itself gives with them.
 *
 * `npm run bench:ptt [-- --presses 60] [--rounds 3] [--variants] [--against <web build dir>]`
 * --variants   more bare pairs, one change each (DTX alone, 10 ms frames alone, jitterBufferTarget,
 *              sender.replaceTrack instead of track.enabled, the two ends in two pages), and a room whose
 *              channel does not record.
 * --bare-only "bare, DTX only;bare, replaceTrack"   those bare pairs beside the defaults', and no room.
 * --against    a second server serving another build of the web app (e.g. `npx vite build --outDir
 *              /tmp/before` at the previous commit), measured in the same run.
 * E2E_WEB_DIR  the build to measure (default packages/web/dist, built when missing).
 * Prints figures next to the 300 ms that 3GPP MCPTT (TS 22.179, KPI 3: mouth-to-ear latency) allows;
 * never passes or fails.
 */
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { chromiumLaunchOptions } from '../../e2e/chromium.ts';
import { startServer } from '../../e2e/fixtures.ts';
import { fakeMicrophoneArgs } from '../../e2e/room-audio.ts';
import { TONE_WAV } from '../../e2e/room-support.ts';
import { applyOpusSettings, JITTER_BUFFER_TARGET_MS } from '../../packages/web/src/engines/voice/opusSettings.ts';
import { type BarePair, type BarePairOptions, bareJitterBuffer, barePress, setUpBarePair } from './bare.ts';
import { type BareFigures, printReport } from './report.ts';
import { openRoomPair, pause, SILENCE_THRESHOLD, SOUND_THRESHOLD } from './room-pair.ts';

const option = (name: string) => {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
};
const presses = Number(option('--presses')) || 60;
const rounds = Math.max(1, Number(option('--rounds')) || 3);
const against = option('--against');
const withVariants = process.argv.includes('--variants');
/** Only these bare pairs (names separated by ;), and no room: the browser's own variants, alone on the machine. */
const barePairsOnly = option('--bare-only')?.split(';');

const ALL_BARE_PAIRS: Record<string, BarePairOptions> = {
  bare: {},
  // What the app asks for, in the bare pair: what the browser itself gives with the app's settings.
  'bare, app settings': {
    rewriteSdp: (sdp) => applyOpusSettings(sdp),
    jitterBufferTarget: JITTER_BUFFER_TARGET_MS,
  },
  ...(withVariants || barePairsOnly
    ? {
        'bare, DTX only': { rewriteSdp: (sdp) => applyOpusSettings(sdp, { usedtx: true }) },
        'bare, 10 ms frames only': { rewriteSdp: (sdp) => applyOpusSettings(sdp, { ptime: 10 }) },
        'bare, app Opus, no jitterBufferTarget': { rewriteSdp: (sdp) => applyOpusSettings(sdp) },
        'bare, jitterBufferTarget 10 only': { jitterBufferTarget: 10 },
        'bare, app Opus, jitterBufferTarget 20': {
          rewriteSdp: (sdp) => applyOpusSettings(sdp),
          jitterBufferTarget: 20,
        },
        'bare, replaceTrack': { press: 'replaceTrack' },
        'bare, two pages': { twoPages: true },
      }
    : {}),
};

const BARE_PAIRS = barePairsOnly
  ? Object.fromEntries(
      barePairsOnly.map((name) => {
        if (!ALL_BARE_PAIRS[name]) throw new Error(`no bare pair named "${name}"`);
        return [name, ALL_BARE_PAIRS[name]];
      }),
    )
  : ALL_BARE_PAIRS;
if (barePairsOnly && !('bare' in BARE_PAIRS)) BARE_PAIRS.bare = {};

const root = path.resolve(import.meta.dirname, '../..');
const webDir = process.env.E2E_WEB_DIR ?? path.join(root, 'packages/web/dist');
if (!existsSync(path.join(webDir, 'index.html'))) {
  if (process.env.E2E_WEB_DIR) throw new Error(`${webDir} has no index.html`);
  console.log('building the web app first (npm run build)…');
  execSync('npm run build', { cwd: root, stdio: 'inherit' });
}
if (against && !existsSync(path.join(against, 'index.html'))) throw new Error(`${against} has no index.html`);

const server = await startServer({ LOG_LEVEL: 'error' });
const otherServer = against ? await startServer({ LOG_LEVEL: 'error', WEB_DIR: path.resolve(against) }) : null;
const browser = await chromium.launch(chromiumLaunchOptions(fakeMicrophoneArgs(TONE_WAV)));
try {
  const rooms: Record<string, Awaited<ReturnType<typeof openRoomPair>>> = {};
  if (!barePairsOnly) rooms.app = await openRoomPair(browser, server);
  if (otherServer) rooms[`app, ${against}`] = await openRoomPair(browser, otherServer);
  if (withVariants && !barePairsOnly)
    rooms['app, channel not recording'] = await openRoomPair(browser, server, { recording: false });
  const bare: Record<string, BareFigures> = Object.fromEntries(
    Object.keys(BARE_PAIRS).map((name) => [name, { sound: [], polled: [], rtp: [], missed: 0, jitterBufferMs: [] }]),
  );
  const bareContext = await browser.newContext({ baseURL: server.baseURL });
  const loads: number[] = [loadavg()[0]];

  const perRound = Math.ceil(presses / rounds);
  for (let round = 0; round < rounds; round += 1) {
    const barePage = await bareContext.newPage();
    await barePage.goto('/healthz');
    const otherBarePage = await (await browser.newContext({ baseURL: server.baseURL })).newPage();
    await otherBarePage.goto('/healthz');
    const pairs: Record<string, BarePair> = {};
    for (const [name, options] of Object.entries(BARE_PAIRS)) {
      pairs[name] = await setUpBarePair(barePage, name, options, otherBarePage);
    }
    await pause(1000);
    process.stdout.write(`round ${round + 1}/${rounds}, ${perRound} presses of each `);
    for (let i = 0; i < perRound; i += 1) {
      const subjects = [...Object.keys(rooms), ...Object.keys(BARE_PAIRS)].sort(() => Math.random() - 0.5);
      for (const subject of subjects) {
        if (rooms[subject]) {
          process.stdout.write(await rooms[subject].press());
        } else {
          const heard = await barePress(pairs[subject], SOUND_THRESHOLD, SILENCE_THRESHOLD);
          const figures = bare[subject];
          if (heard.polledAt === null) figures.missed += 1;
          else figures.polled.push(heard.polledAt - heard.pressedAt);
          if (heard.soundAt !== null) figures.sound.push(heard.soundAt - heard.pressedAt);
          if (heard.rtpAt !== null) figures.rtp.push(heard.rtpAt - heard.pressedAt);
        }
        await pause(150 + Math.random() * 150);
      }
    }
    for (const name of Object.keys(BARE_PAIRS)) {
      const jitterBuffer = await bareJitterBuffer(pairs[name]);
      if (jitterBuffer && Number.isFinite(jitterBuffer.meanDelayMs))
        bare[name].jitterBufferMs.push(jitterBuffer.meanDelayMs);
    }
    await barePage.close();
    await otherBarePage.context().close();
    for (const room of Object.values(rooms)) await room.nextRound(round === rounds - 1);
    loads.push(loadavg()[0]);
    process.stdout.write('\n');
  }
  process.stdout.write('\n');
  printReport(rooms, bare, loads);
} finally {
  await browser.close();
  await server.stop();
  await otherServer?.stop();
}
