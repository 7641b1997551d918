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
import { type Browser, chromium } from '@playwright/test';
import { chromiumLaunchOptions } from '../../e2e/chromium.ts';
import {
  type Account,
  createAdmin,
  seedFor,
  startServer,
  type TalkgroupServer,
  useSession,
} from '../../e2e/fixtures.ts';
import { fakeMicrophoneArgs } from '../../e2e/room-audio.ts';
import { TONE_WAV } from '../../e2e/room-support.ts';
import { applyOpusSettings, JITTER_BUFFER_TARGET_MS } from '../../packages/web/src/features/room/voice/opusSettings.ts';
import {
  type BarePair,
  type BarePairOptions,
  bareJitterBuffer,
  barePress,
  clockOffset,
  setUpBarePair,
} from './bare.ts';

const MCPTT_KPI3_MS = 300;
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
/** The tone peaks near 0.33; silence frames decode to 0. */
const SOUND_THRESHOLD = 0.05;
const SILENCE_THRESHOLD = 0.005;

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

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = (p / 100) * (sorted.length - 1);
  const low = Math.floor(rank);
  const high = Math.ceil(rank);
  return sorted[low] + (sorted[high] - sorted[low]) * (rank - low);
}
const p50 = (values: number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined | null | false>,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await probe();
    if (value) return value;
    await pause(100);
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** What one room's presses gave, in ms from the press. */
interface RoomFigures {
  /** The sound's onset at the listener, to the sample. */
  sound: number[];
  /** When a 2 ms poll of the listener's level saw it. */
  polled: number[];
  enabled: number[];
  rtp: number[];
  /** The listener's room shows the talker talking (its page draws it next). */
  talking: number[];
  /** The talker's tile in the listener's page says so. */
  updated: number[];
  /** The next frame: drawn. */
  indicator: number[];
  missed: number;
  jitterBufferMs: number[];
}

const admins = new Map<TalkgroupServer, Promise<Account>>();
/** The server's administrator (the first account), the talker of each of its rooms. */
function adminOf(server: TalkgroupServer): Promise<Account> {
  if (!admins.has(server)) admins.set(server, createAdmin(server));
  return admins.get(server) as Promise<Account>;
}

/** A talker and a listener in one channel room of one server. */
async function openRoomPair(browser: Browser, server: TalkgroupServer, channelOptions: { recording?: boolean } = {}) {
  const admin = await adminOf(server);
  const seed = seedFor(server, admin);
  const channel = await seed.channel(`PTT bench ${Math.random().toString(36).slice(2, 8)}`);
  if (channelOptions.recording === false) {
    const answer = await server.call(
      '/user/api/updateChannel',
      { channelId: channel.id, channelName: channel.name, recording: false },
      admin.token,
    );
    if (answer.status !== 200) throw new Error(`updateChannel failed: ${JSON.stringify(answer.body)}`);
  }
  const listenerAccount = await seed.member({ firstName: 'Lou', lastName: 'Listener' });
  await seed.addToChannel(channel.id, [listenerAccount.id]);

  const open = async (account: Account) => {
    const context = await browser.newContext({ baseURL: server.baseURL, viewport: { width: 1280, height: 800 } });
    await context.addInitScript(() => {
      localStorage.setItem('i18nextLng', 'en');
      localStorage.setItem('talkgroup.voiceProcessing', 'off');
      // The room's diagnostics (window.__talkgroupRoom), off unless a page asks before it loads.
      window.__talkgroupDiagnostics = true;
      // The press: the first event the button gets, before the floor is asked for.
      window.addEventListener(
        'pointerdown',
        () => {
          (window as unknown as { __pressedAt: number }).__pressedAt = performance.timeOrigin + performance.now();
        },
        true,
      );
    });
    const page = await context.newPage();
    await useSession(page, account);
    await page.goto(`/groupCallView/${encodeURIComponent(channel.rtcSession)}`);
    return page;
  };
  const talker = await open(admin);
  const listener = await open(listenerAccount);
  const button = talker.getByRole('button', { name: 'Push to talk' });
  await waitFor('the microphone', () => button.isEnabled());
  await button.hover();

  const state = { talkerId: '', talkerOffset: 0, listenerOffset: 0 };
  /** (Re)joins the listener: a new peer connection with the talker, and fresh clock offsets. */
  const rejoin = async (reload: boolean) => {
    if (reload) await listener.reload();
    state.talkerId = await waitFor('the peer connection', () =>
      listener.evaluate(
        (userId) =>
          window.__talkgroupRoom?.peers().find((p) => p.userId === userId && p.connection === 'connected')?.id,
        admin.id,
      ),
    );
    // The first second of a connection is not what a press meets.
    await pause(1000);
    state.talkerOffset = await clockOffset(talker);
    state.listenerOffset = await clockOffset(listener);
  };
  await rejoin(false);

  const figures: RoomFigures = {
    sound: [],
    polled: [],
    enabled: [],
    rtp: [],
    talking: [],
    updated: [],
    indicator: [],
    missed: 0,
    jitterBufferMs: [],
  };

  async function press(): Promise<string> {
    const { talkerId, talkerOffset, listenerOffset } = state;
    // Silence first, so the press is the only onset.
    await listener.evaluate(([id, threshold]) => window.__talkgroupRoom?.waitForLevel(id, threshold, 3000, false), [
      talkerId,
      SILENCE_THRESHOLD,
    ] as const);
    const heard = listener.evaluate(
      ([id, threshold]) => window.__talkgroupRoom?.waitForLevel(id, threshold, 3000, true),
      [talkerId, SOUND_THRESHOLD] as const,
    );
    // To the sample, whatever the listener's main thread was doing (absent from builds before it came).
    const began = listener.evaluate(
      ([id, threshold]) => window.__talkgroupRoom?.waitForOnset?.(id, threshold, 3000) ?? null,
      [talkerId, SOUND_THRESHOLD] as const,
    );
    // The indicator: when the talker's tile says it talks in the page (one peer here), and the first animation
    // frame after, when it is drawn.
    const seen = listener.evaluate(
      () =>
        new Promise<[number, number] | null>((resolve) => {
          const timer = setTimeout(() => {
            observer.disconnect();
            resolve(null);
          }, 3000);
          const observer = new MutationObserver(() => {
            if (!document.querySelector('[data-talking="true"]')) return;
            const updatedAt = performance.timeOrigin + performance.now();
            observer.disconnect();
            clearTimeout(timer);
            requestAnimationFrame(() => resolve([updatedAt, performance.timeOrigin + performance.now()]));
          });
          observer.observe(document.body, { subtree: true, attributes: true, attributeFilter: ['data-talking'] });
        }),
    );
    const received = listener.evaluate(
      ([id, threshold]) =>
        new Promise<number | null>((resolve) => {
          const start = performance.now();
          const timer = setInterval(() => {
            const level = window.__talkgroupRoom?.rtpLevel(id) ?? 0;
            if (level > threshold || performance.now() - start > 3000) {
              clearInterval(timer);
              resolve(level > threshold ? performance.timeOrigin + performance.now() : null);
            }
          }, 2);
        }),
      [talkerId, SOUND_THRESHOLD] as const,
    );
    // Let the watchers start, and spread the presses over the audio frames.
    await pause(80 + Math.random() * 40);
    await talker.mouse.down();
    const [heardAt, beganAt, seenAt, receivedAt] = await Promise.all([heard, began, seen, received]);
    const [pressedAt, micOnAt] = await talker.evaluate(() => [
      (window as unknown as { __pressedAt?: number }).__pressedAt ?? 0,
      window.__talkgroupRoom?.lastMicOnAt ?? 0,
    ]);
    const talkingAt = await listener.evaluate((id) => window.__talkgroupRoom?.talkingSince?.(id) ?? 0, talkerId);
    await talker.mouse.up();
    const fromPress = (at: number) => at - listenerOffset - (pressedAt - talkerOffset);
    if (receivedAt != null && pressedAt) figures.rtp.push(fromPress(receivedAt));
    if (seenAt != null && pressedAt) {
      figures.updated.push(fromPress(seenAt[0]));
      figures.indicator.push(fromPress(seenAt[1]));
    }
    if (talkingAt && pressedAt) figures.talking.push(fromPress(talkingAt));
    if (heardAt == null || !pressedAt) {
      figures.missed += 1;
      return 'x';
    }
    figures.polled.push(fromPress(heardAt));
    if (beganAt != null) figures.sound.push(fromPress(beganAt));
    if (micOnAt) figures.enabled.push(micOnAt - pressedAt);
    return '.';
  }

  /** The listener's jitter buffer over the round, then a new connection for the next one. */
  async function nextRound(last: boolean): Promise<void> {
    const inbound = await listener.evaluate((id) => window.__talkgroupRoom?.inboundAudio(id), state.talkerId);
    if (inbound && Number.isFinite(inbound.jitterBufferMs)) figures.jitterBufferMs.push(inbound.jitterBufferMs);
    if (!last) await rejoin(true);
  }

  return { press, nextRound, figures };
}

interface BareFigures {
  sound: number[];
  polled: number[];
  rtp: number[];
  missed: number;
  jitterBufferMs: number[];
}

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

  const row = (name: string, values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    const format = (value: number) => `${value.toFixed(1).padStart(7)} ms`;
    console.log(
      `${name.padEnd(40)} n=${String(sorted.length).padStart(3)}  p50 ${format(percentile(sorted, 50))}  p95 ${format(
        percentile(sorted, 95),
      )}  min ${format(sorted[0] ?? Number.NaN)}  max ${format(sorted[sorted.length - 1] ?? Number.NaN)}`,
    );
  };
  const buffers = (values: number[]) =>
    values.length ? `listener's jitter buffer, mean per round: ${values.map((v) => v.toFixed(0)).join(', ')} ms` : '';
  console.log('Push-to-talk latency, two headless Chromium pages on one machine (loopback network)');
  console.log(`load average (1 min) during the run: ${loads.map((load) => load.toFixed(1)).join(' → ')}`);
  const floor = p50(bare.bare.sound);
  const polledFloor = p50(bare.bare.polled);
  for (const [name, figures] of Object.entries(rooms).map(([name, room]) => [name, room.figures] as const)) {
    console.log();
    row(`${name}: press -> sound at listener`, figures.sound);
    row('  seen by a 2 ms poll of the level', figures.polled);
    row('  of which press -> track enabled', figures.enabled);
    row('  of which press -> RTP level', figures.rtp);
    row(`${name}: press -> talking indicator drawn`, figures.indicator);
    row('  of which press -> talking in the room', figures.talking);
    row('  of which press -> tile updated', figures.updated);
    console.log(`  ${buffers(figures.jitterBufferMs)}`);
    if (figures.missed > 0) console.log(`  ${figures.missed} press(es) not heard within 3 s (left out of the figures)`);
    console.log(
      `  ratio p50 press -> sound, ${name} / bare pair: ${(p50(figures.sound) / floor).toFixed(2)} (goal ≤ 1.2); ` +
        `as polled: ${(p50(figures.polled) / polledFloor).toFixed(2)}`,
    );
  }
  console.log();
  for (const [name, figures] of Object.entries(bare)) {
    row(`${name}: enable -> sound`, figures.sound);
    row('  seen by a 1 ms poll of the level', figures.polled);
    // After replaceTrack(null) no packet comes, so the receiver keeps reporting the last level it had.
    if (name !== 'bare, replaceTrack') row('  of which enable -> RTP level', figures.rtp);
    console.log(`  ${buffers(figures.jitterBufferMs)}`);
    if (figures.missed > 0) console.log(`  ${figures.missed} press(es) not heard within 3 s (left out of the figures)`);
    if (name !== 'bare') console.log(`  ratio p50, ${name} / bare pair: ${(p50(figures.sound) / floor).toFixed(2)}`);
  }
  console.log();
  console.log(`${'3GPP MCPTT KPI 3 (mouth-to-ear)'.padEnd(40)} ≤ ${MCPTT_KPI3_MS} ms for 95% of talk bursts`);
  if (rooms.app) {
    const p95 = percentile(
      [...rooms.app.figures.sound].sort((a, b) => a - b),
      95,
    );
    console.log(`p95 press -> sound (app) is ${(p95 / MCPTT_KPI3_MS).toFixed(2)} × the KPI 3 budget`);
  }
  console.log(
    'Not included: the time from the finger to the pointer event, the sound card output buffer, and any real network.',
  );
} finally {
  await browser.close();
  await server.stop();
  await otherServer?.stop();
}
