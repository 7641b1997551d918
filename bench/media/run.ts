/**
 * One talker and N listeners, through the media server and on the mesh, in one run (issue 26): Talkgroup
 * servers (one with JANUS_URL and a Janus of its own, one without), a headless Chromium whose fake microphone
 * plays a tone. In each channel a talker and a listener are app pages (bench/ptt-latency's room pair: the
 * press is the talker's pointerdown, the sound the onset in the listener's samples); the other listeners are
 * receive-only connections in pages of the same browser, each with a socket of its own (load-listeners.ts).
 *
 * At each size, while the talker holds the button for a few seconds: how many listeners heard the tone,
 * Janus's CPU (cores) and memory, and per listener beyond the first size; the talker's uplink (kbit/s over
 * all its connections); then press-to-sound p50 / p95 over presses alternated with a bare pair of
 * RTCPeerConnections in one page (the floor, measured in the same run) and the ratio to it.
 *
 * Listeners through the media server two ways (the README's choice): `watch`, the channel's mix from a
 * Streaming mountpoint (encoded once for all), and `bridge`, each listener a participant of the AudioBridge
 * room (encoded once per listener).
 *
 * `npm run bench:media [-- --sizes 10,50,100] [--mesh-sizes 5,10] [--kinds watch,bridge] [--presses 10]
 * [--window 5] [--janus-pairs] [--pairs-only]`: --janus-pairs adds what Janus's settings do to press-to-sound
 * (janus-pairs.ts); --pairs-only measures only that. Goals printed beside the figures: uplink flat with N; 100 listeners under one core of Janus;
 * press-to-sound p50 within 1.3x the bare pair. Never passes or fails.
 */
import { execSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { chromiumLaunchOptions } from '../../e2e/chromium.ts';
import { login, seedFor, startServer, type TalkgroupServer } from '../../e2e/fixtures.ts';
import { fakeMicrophoneArgs } from '../../e2e/room-audio.ts';
import { TONE_WAV } from '../../e2e/room-support.ts';
import { startJanus } from '../../packages/server/src/ops/dev-media.ts';
import { barePress, setUpBarePair } from '../ptt-latency/bare.ts';
import { openRoomPair, pause, SILENCE_THRESHOLD, SOUND_THRESHOLD } from '../ptt-latency/room-pair.ts';
import { freePort } from '../server-process.ts';
import { measureJanusPairs } from './janus-pairs.ts';
import { type ListenerKind, loadListeners } from './load-listeners.ts';

const option = (name: string) => {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
};
const numbers = (text: string) => text.split(',').map(Number).filter(Number.isFinite);
const sizes = numbers(option('--sizes') ?? '10,50,100');
const meshSizes = numbers(option('--mesh-sizes') ?? '5,10');
const kinds = (option('--kinds') ?? 'watch,bridge').split(',') as ListenerKind[];
const presses = Number(option('--presses')) || 10;
const windowMs = (Number(option('--window')) || 5) * 1000;
const withPairs = process.argv.includes('--janus-pairs') || process.argv.includes('--pairs-only');
const pairsOnly = process.argv.includes('--pairs-only');

const root = path.resolve(import.meta.dirname, '../..');
if (!existsSync(path.join(root, 'packages/web/dist/index.html'))) {
  console.log('building the web app first (npm run build)…');
  execSync('npm run build', { cwd: root, stdio: 'inherit' });
}

/** CPU seconds a process has used (user + system), and its resident memory in MB. */
function usage(pid: number): { cpu: number; rssMb: number } {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  const cpu = (Number(fields[11]) + Number(fields[12])) / 100;
  const rss = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
  return { cpu, rssMb: rss };
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const rank = (p / 100) * (sorted.length - 1);
  return sorted[Math.floor(rank)] + (sorted[Math.ceil(rank)] - sorted[Math.floor(rank)]) * (rank - Math.floor(rank));
}

interface Row {
  plane: string;
  listeners: number;
  connected: number;
  heard: string;
  janusCores: number;
  janusRssMb: number;
  uplinkKbps: number;
  p50: number;
  p95: number;
  bareP50: number;
  /** Press to the first crowd listener's level (a 1 ms poll), and the bare pair's alike. */
  crowdP50: number;
  barePolledP50: number;
}

const rows: Row[] = [];
const loads = [loadavg()[0]];
const wsPort = await freePort();
const rtpBase = 30_000 + Math.floor(Math.random() * 20) * 1000;
const janus = await startJanus({ wsPort, rtpPorts: [rtpBase, rtpBase + 999] });
const throughJanus = await startServer({ JANUS_URL: janus.url, JANUS_API_SECRET: janus.secret, LOG_LEVEL: 'error' });
const onMesh = await startServer({ LOG_LEVEL: 'error' });
const browser = await chromium.launch(chromiumLaunchOptions(fakeMicrophoneArgs(TONE_WAV)));

async function series(server: TalkgroupServer, plane: string, kind: ListenerKind, counts: number[]): Promise<void> {
  const room = await openRoomPair(browser, server);
  const seed = seedFor(server, room.admin);
  const crowdAccount = await seed.member({ firstName: 'Crowd', lastName: 'Listener' });
  // One more member (updateUserChannels would replace the channel's members: the room pair's listener too).
  const added = await server.call(
    '/user/api/addUserToChannel',
    { userId: crowdAccount.id, channelId: room.channel.id },
    room.admin.token,
  );
  if (added.status !== 200) throw new Error(`addUserToChannel failed: ${JSON.stringify(added.body)}`);
  const { token } = await login(server, crowdAccount.login, crowdAccount.password);
  const crowd = loadListeners(browser, server.baseURL, token);
  const barePage = await (await browser.newContext({ baseURL: server.baseURL })).newPage();
  await barePage.goto('/healthz');
  try {
    for (const count of counts) {
      process.stdout.write(`${plane}, ${count} listeners: connecting`);
      await crowd.growTo(count, kind, room.channel.rtcSession);
      const deadline = Date.now() + 60_000;
      while ((await crowd.connected()) < count && Date.now() < deadline) await pause(250);
      const connected = await crowd.connected();
      await pause(1000);

      // The talker holds the button: who hears, what Janus spends, what the talker sends.
      process.stdout.write(', talking');
      await crowd.listen();
      await room.talker.mouse.down();
      await pause(500);
      const before = { janus: usage(janus.pid), sent: await room.sentBytes(), at: performance.now() };
      await pause(windowMs);
      const after = { janus: usage(janus.pid), sent: await room.sentBytes(), at: performance.now() };
      const seconds = (after.at - before.at) / 1000;
      const { heard, of } = await crowd.heardCount(SOUND_THRESHOLD);
      await room.talker.mouse.up();
      await pause(1000);

      // Press-to-sound, presses alternated with a bare pair (the floor), set up afresh at each size.
      process.stdout.write(', pressing ');
      const pair = await setUpBarePair(barePage, `bare-${plane}-${count}`);
      const bare: number[] = [];
      const barePolled: number[] = [];
      const crowdHeard: number[] = [];
      const sizeStart = room.figures.sound.length;
      for (let i = 0; i < presses; i += 1) {
        // The first of the crowd hears the press too (on a mountpoint, a room participant, or the mesh).
        const crowdAt = crowd.firstHeard(SOUND_THRESHOLD, 5000);
        process.stdout.write(await room.press());
        const heardAt = await crowdAt;
        const pressedAt = await room.talker.evaluate(() => (window as unknown as { __pressedAt?: number }).__pressedAt);
        if (heardAt !== null && pressedAt) crowdHeard.push(heardAt - pressedAt);
        await pause(150 + Math.random() * 150);
        const heardBare = await barePress(pair, SOUND_THRESHOLD, SILENCE_THRESHOLD);
        if (heardBare.soundAt !== null) bare.push(heardBare.soundAt - heardBare.pressedAt);
        if (heardBare.polledAt !== null) barePolled.push(heardBare.polledAt - heardBare.pressedAt);
        await pause(150 + Math.random() * 150);
      }
      const sound = room.figures.sound.slice(sizeStart);
      rows.push({
        plane,
        listeners: count,
        connected,
        heard: `${heard}/${of}`,
        janusCores: plane.startsWith('mesh') ? Number.NaN : (after.janus.cpu - before.janus.cpu) / seconds,
        janusRssMb: plane.startsWith('mesh') ? Number.NaN : after.janus.rssMb,
        uplinkKbps: ((after.sent - before.sent) * 8) / seconds / 1000,
        p50: percentile(sound, 50),
        p95: percentile(sound, 95),
        bareP50: percentile(bare, 50),
        crowdP50: percentile(crowdHeard, 50),
        barePolledP50: percentile(barePolled, 50),
      });
      loads.push(loadavg()[0]);
      process.stdout.write('\n');
    }
  } finally {
    await crowd.close();
    await barePage.context().close();
    await room.talker.context().close();
    await room.listener.context().close();
  }
}

let janusPairs: Record<string, number[]> | undefined;
try {
  if (withPairs) {
    process.stdout.write("Janus's settings, pairs in one page: ");
    janusPairs = await measureJanusPairs(browser, throughJanus.baseURL, presses * 3);
    process.stdout.write('\n');
  }
  if (!pairsOnly) {
    const withZero = [0, ...sizes];
    for (const kind of kinds) await series(throughJanus, `Janus, listeners ${kind}`, kind, withZero);
    await series(onMesh, 'mesh', 'mesh', [0, ...meshSizes]);
  }
} finally {
  await browser.close();
  await throughJanus.stop();
  await onMesh.stop();
  await janus.stop();
}

const fixed = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : '—');
if (janusPairs) {
  console.log('\nPress (unmute, then track enabled) to sound, through one AudioBridge room, a 1 ms poll of the level');
  const floor = percentile(janusPairs['bare pair'], 50);
  for (const [name, values] of Object.entries(janusPairs))
    console.log(
      `${name.padEnd(42)} n=${String(values.length).padStart(3)}  p50 ${fixed(percentile(values, 50)).padStart(6)} ms` +
        `  p95 ${fixed(percentile(values, 95)).padStart(6)} ms  ratio to the bare pair ${fixed(percentile(values, 50) / floor, 2)}`,
    );
}
if (!pairsOnly) printRows();

function printRows(): void {
  console.log('\nOne talker, N listeners: through Janus (Debian 1.1.2) and on the mesh, one 2-core machine, loopback');
  console.log(`load average (1 min) during the run: ${loads.map((load) => load.toFixed(1)).join(' → ')}`);
  console.log(
    `${'plane'.padEnd(26)}${'N'.padStart(5)}${'up'.padStart(6)}${'heard'.padStart(9)}${'Janus cores'.padStart(13)}` +
      `${'per listener'.padStart(14)}${'Janus RSS'.padStart(11)}${'per listener'.padStart(14)}${'uplink'.padStart(13)}` +
      `${'p50'.padStart(9)}${'p95'.padStart(9)}${'bare p50'.padStart(10)}${'ratio'.padStart(7)}` +
      `${'crowd p50'.padStart(11)}${'ratio'.padStart(7)}`,
  );
  for (const row of rows) {
    const base = rows.find((other) => other.plane === row.plane && other.listeners === 0);
    const extra = row.listeners > 0 && base ? row.listeners : Number.NaN;
    console.log(
      `${row.plane.padEnd(26)}${String(row.listeners).padStart(5)}${String(row.connected).padStart(6)}` +
        `${row.heard.padStart(9)}${fixed(row.janusCores, 3).padStart(13)}` +
        `${`${fixed(base ? ((row.janusCores - base.janusCores) / extra) * 1000 : Number.NaN, 2)} mc`.padStart(14)}` +
        `${`${fixed(row.janusRssMb)} MB`.padStart(11)}` +
        `${`${fixed(base ? ((row.janusRssMb - base.janusRssMb) / extra) * 1024 : Number.NaN, 0)} KB`.padStart(14)}` +
        `${`${fixed(row.uplinkKbps)} kbit/s`.padStart(13)}${`${fixed(row.p50)} ms`.padStart(9)}` +
        `${`${fixed(row.p95)} ms`.padStart(9)}${`${fixed(row.bareP50)} ms`.padStart(10)}` +
        `${fixed(row.p50 / row.bareP50, 2).padStart(7)}` +
        `${`${fixed(row.crowdP50)} ms`.padStart(11)}${fixed(row.crowdP50 / row.barePolledP50, 2).padStart(7)}`,
    );
  }
  console.log(
    'Goals: the talker uplink does not grow with N; 100 listeners under one core of Janus; press-to-sound p50 ' +
      'within 1.3x the bare pair. "up": listeners connected (on the mesh, to each ' +
      'talking page: the talker and the other app page); mc: millicores of Janus per listener beyond N = 0; ' +
      'p50/p95: press to the sound at the app listener (a talking page); crowd p50: press to the first crowd ' +
      'listener hearing it (a 1 ms poll), ratio to the bare pair as polled.',
  );
}
