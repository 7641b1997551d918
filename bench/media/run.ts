/**
 * One talker and N listeners, through the media server and on the mesh, in one run (issues 26 and 37):
 * Talkgroup servers (one with JANUS_URL and a Janus of its own, one without), a headless Chromium whose fake
 * microphone plays a tone. In each channel a talker and a listener are app pages (bench/ptt-latency's room
 * pair: the press is the talker's pointerdown, the sound the onset in the listener's samples); the other
 * listeners are receive-only connections in pages of a second browser, each with a socket of its own
 * (load-listeners.ts). That browser stands for the listeners' phones elsewhere: it runs in the idle scheduling
 * class, so that a hundred decoders on this machine's two cores take only what the measured pages, the servers
 * and Janus leave (`--crowd-beside`: in the measured pages' browser, as runs before 2026-11-26 did).
 *
 * - **Sizes**: at each size, while the talker holds the button for a few seconds: how many listeners heard the
 *   tone, Janus's CPU (cores) and memory, and per listener beyond the first size; the talker's uplink (kbit/s
 *   over all its connections); then press-to-sound p50 / p95 over presses alternated with a bare pair of
 *   RTCPeerConnections in one page (the floor, measured in the same run) and the ratio to it.
 * - **Loss** (issue 37, mobile networks): listeners whose downlink drops 10 % and 20 % of the media server's
 *   packets (a lossy relay: lossy-relay.ts); how many of each transmission's listeners still heard it.
 * - **Late entry** (3GPP MCPTT KPI 4, under 350 ms): while the talker talks, the listener's page joins the
 *   channel again; the time from its `join_room` to the first sound it plays, through the media server and on
 *   the mesh.
 *
 * Listeners through the media server: `watch` (every page of the app: the channel's stream from its
 * mountpoint, the floor holder's packets forwarded as they came) and, on demand, `bridge` (an older page or a
 * spec client: a participant of the channel's mixer).
 *
 * Janus runs with real-time scheduling, as deploy/janus's systemd drop-in runs it, where this process may give
 * it (root); `--janus-ordinary` schedules it like any other process (on this shared machine its forwarding then
 * comes in bursts and every listener's jitter buffer grows: "where the time goes" below the table, docs/benchmarks.md).
 * `--no-recording`: the room pair's channel is not recorded.
 *
 * `npm run bench:media [-- --sizes 10,100] [--mesh-sizes 5,10] [--kinds watch,bridge] [--presses 10]
 * [--window 5] [--loss 10,20] [--late 10] [--json] [--janus-pairs] [--pairs-only] [--janus-ordinary]
 * [--no-recording] [--crowd-beside]`: --json prints every figure
 * as one JSON object at the end (to compare runs); --loss and --late take 0 to skip them; --janus-pairs adds
 * what Janus's mixer settings do to press-to-sound (janus-pairs.ts); --pairs-only measures only that. Goals
 * printed beside the figures: uplink flat with N; listeners per core; press-to-sound p50 within 1.2x the bare
 * pair at 0 and 10 listeners, 1.3x at 100; late entry under 350 ms. Never passes or fails.
 */
import { execSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { type Browser, chromium } from '@playwright/test';
import { chromiumLaunchOptions } from '../../e2e/chromium.ts';
import { login, seedFor, startServer, type TalkgroupServer } from '../../e2e/fixtures.ts';
import { fakeMicrophoneArgs } from '../../e2e/room-audio.ts';
import { TONE_WAV } from '../../e2e/room-support.ts';
import { JANUS_REALTIME_PRIORITY, startJanus } from '../../packages/server/src/ops/dev-media.ts';
import { barePress, setUpBarePair } from '../ptt-latency/bare.ts';
import { openRoomPair, pause, SILENCE_THRESHOLD, SOUND_THRESHOLD } from '../ptt-latency/room-pair.ts';
import { freePort } from '../server-process.ts';
import { launchCrowdBrowser } from './crowd-browser.ts';
import { measureJanusPairs } from './janus-pairs.ts';
import { markJoinAndSound, waitForMarks } from './late-marks.ts';
import { type ListenerKind, loadListeners } from './load-listeners.ts';
import { LATE_STEPS, type LateRow, type LossRow, percentile, printReport, type Row } from './report.ts';

const option = (name: string) => {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
};
const numbers = (text: string) => text.split(',').filter(Boolean).map(Number).filter(Number.isFinite);
const sizes = numbers(option('--sizes') ?? '10,100');
const meshSizes = numbers(option('--mesh-sizes') ?? '5,10');
const kinds = (option('--kinds') ?? 'watch').split(',') as ListenerKind[];
const presses = Number(option('--presses')) || 10;
const windowMs = (Number(option('--window')) || 5) * 1000;
const losses = numbers(option('--loss') ?? '10,20').filter((loss) => loss > 0);
const lateRounds = Number(option('--late') ?? 10);
const asJson = process.argv.includes('--json');
const withPairs = process.argv.includes('--janus-pairs') || process.argv.includes('--pairs-only');
const pairsOnly = process.argv.includes('--pairs-only');
/** Progress goes to stderr with --json, so that stdout is the JSON alone. */
const progress = (text: string) => (asJson ? process.stderr : process.stdout).write(text);

const root = path.resolve(import.meta.dirname, '../..');
if (!existsSync(path.join(root, 'packages/web/dist/index.html'))) {
  progress('building the web app first (npm run build)…\n');
  execSync('npm run build', { cwd: root, stdio: asJson ? ['ignore', 'ignore', 'inherit'] : 'inherit' });
}

/** CPU seconds a process has used (user + system), and its resident memory in MB. */
function usage(pid: number): { cpu: number; rssMb: number } {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  const cpu = (Number(fields[11]) + Number(fields[12])) / 100;
  const rss = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
  return { cpu, rssMb: rss };
}

const rows: Row[] = [];
const lossRows: LossRow[] = [];
const lateRows: LateRow[] = [];
const loads = [loadavg()[0]];
const wsPort = await freePort();
const rtpBase = 30_000 + Math.floor(Math.random() * 20) * 1000;
// Janus scheduled as deploy/janus's systemd drop-in does (real-time), where this process may; --janus-ordinary
// measures it scheduled like every other process.
const janus = await startJanus({
  wsPort,
  rtpPorts: [rtpBase, rtpBase + 999],
  ...(process.argv.includes('--janus-ordinary') ? {} : { realtime: JANUS_REALTIME_PRIORITY }),
});
const throughJanus = await startServer({ JANUS_URL: janus.url, JANUS_API_SECRET: janus.secret, LOG_LEVEL: 'error' });
const onMesh = await startServer({ LOG_LEVEL: 'error' });
const browser = await chromium.launch(chromiumLaunchOptions(fakeMicrophoneArgs(TONE_WAV)));
// The crowd stands for phones elsewhere: a browser of its own, in the idle scheduling class (crowd-browser.ts);
// Janus, which does the fan-out, stays real-time. --crowd-beside: in the measured pair's browser, as before.
const crowdLaunch = await launchCrowdBrowser(browser, process.argv.includes('--crowd-beside'));
const crowdBrowser = crowdLaunch.browser;

/** A member of the room's channel, signed in: the crowd's account. */
async function crowdToken(server: TalkgroupServer, room: Awaited<ReturnType<typeof openRoomPair>>): Promise<string> {
  const seed = seedFor(server, room.admin);
  const crowdAccount = await seed.member({ firstName: 'Crowd', lastName: 'Listener' });
  // One more member (updateUserChannels would replace the channel's members: the room pair's listener too).
  const added = await server.call(
    '/user/api/addUserToChannel',
    { userId: crowdAccount.id, channelId: room.channel.id },
    room.admin.token,
  );
  if (added.status !== 200) throw new Error(`addUserToChannel failed: ${JSON.stringify(added.body)}`);
  return (await login(server, crowdAccount.login, crowdAccount.password)).token;
}

async function closeRoom(room: Awaited<ReturnType<typeof openRoomPair>>): Promise<void> {
  await room.talker.context().close();
  await room.listener.context().close();
}

async function series(server: TalkgroupServer, plane: string, kind: ListenerKind, counts: number[]): Promise<void> {
  const room = await openRoomPair(browser, server, { recording: !process.argv.includes('--no-recording') });
  const crowd = loadListeners(crowdBrowser, server.baseURL, await crowdToken(server, room));
  const barePage = await (await browser.newContext({ baseURL: server.baseURL })).newPage();
  await barePage.goto('/healthz');
  try {
    for (const count of counts) {
      progress(`${plane}, ${count} listeners: connecting`);
      await crowd.growTo(count, kind, room.channel.rtcSession);
      const deadline = Date.now() + 60_000;
      while ((await crowd.connected()) < count && Date.now() < deadline) await pause(250);
      const connected = await crowd.connected();
      await pause(1000);

      // The talker holds the button: who hears, what Janus spends, what the talker sends.
      progress(', talking');
      await crowd.listen();
      await room.hold();
      await pause(500);
      const before = { janus: usage(janus.pid), sent: await room.sentBytes(), at: performance.now() };
      await pause(windowMs);
      const after = { janus: usage(janus.pid), sent: await room.sentBytes(), at: performance.now() };
      const seconds = (after.at - before.at) / 1000;
      const { heard, of } = await crowd.heardCount(SOUND_THRESHOLD);
      await room.talker.mouse.up();
      await pause(1000);

      // Press-to-sound, presses alternated with a bare pair (the floor), set up afresh at each size.
      progress(', pressing ');
      const pair = await setUpBarePair(barePage, `bare-${plane}-${count}`);
      const bare: number[] = [];
      const barePolled: number[] = [];
      const crowdHeard: number[] = [];
      const sizeStart = room.figures.sound.length;
      const [enabledStart, rtpStart, packetStart] = [
        room.figures.enabled.length,
        room.figures.rtp.length,
        room.figures.packet.length,
      ];
      for (let i = 0; i < presses; i += 1) {
        // The first of the crowd hears the press too (on a mountpoint, a mixer participant, or the mesh).
        const crowdAt = crowd.firstHeard(SOUND_THRESHOLD, 5000);
        progress(await room.press());
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
        enabledP50: percentile(room.figures.enabled.slice(enabledStart), 50),
        rtpP50: percentile(room.figures.rtp.slice(rtpStart), 50),
        // On the mesh the talker's DTX packets come between transmissions too: no first packet to time.
        packetP50: plane.startsWith('mesh') ? Number.NaN : percentile(room.figures.packet.slice(packetStart), 50),
      });
      loads.push(loadavg()[0]);
      progress('\n');
    }
  } finally {
    await crowd.close();
    await barePage.context().close();
    await closeRoom(room);
  }
}

/** Listeners behind a lossy downlink: how many of each transmission's listeners heard it. */
async function lossSeries(server: TalkgroupServer, lossPercent: number, listeners = 5): Promise<void> {
  const room = await openRoomPair(browser, server, { recording: !process.argv.includes('--no-recording') });
  const crowd = loadListeners(crowdBrowser, server.baseURL, await crowdToken(server, room), { lossPercent });
  try {
    progress(`loss ${lossPercent} %, ${listeners} listeners: connecting`);
    await crowd.growTo(listeners, 'watch', room.channel.rtcSession);
    const deadline = Date.now() + 60_000;
    while ((await crowd.connected()) < listeners && Date.now() < deadline) await pause(250);
    await pause(1000);
    progress(', transmissions ');
    let heard = 0;
    let of = 0;
    for (let i = 0; i < presses; i += 1) {
      await crowd.listen();
      await room.hold();
      await pause(1500);
      const outcome = await crowd.heardCount(SOUND_THRESHOLD);
      await room.talker.mouse.up();
      heard += outcome.heard;
      of += outcome.of;
      progress(outcome.heard === outcome.of ? '.' : 'x');
      await pause(700);
    }
    lossRows.push({
      lossPercent,
      droppedPercent: crowd.droppedPercent(),
      listeners,
      transmissions: presses,
      heard,
      of,
    });
    progress('\n');
  } finally {
    await crowd.close();
    await closeRoom(room);
  }
}

/** While the talker talks, the listener's page joins again: join_room to the first sound, each round. */
async function lateEntry(server: TalkgroupServer, plane: string): Promise<void> {
  const room = await openRoomPair(browser, server);
  const values: number[] = [];
  const steps = Object.fromEntries(LATE_STEPS.map((step) => [step, [] as number[]])) as LateRow['steps'];
  let missed = 0;
  try {
    await markJoinAndSound(room.listener);
    progress(`late entry, ${plane}: `);
    for (let i = 0; i < lateRounds; i += 1) {
      // A fresh press each round (the floor lasts FLOOR_MAX_SECONDS), well under way when the page joins.
      await room.hold();
      await pause(800);
      await room.listener.reload();
      const marks = await waitForMarks(room.listener);
      await room.talker.mouse.up();
      if (marks) {
        values.push(marks.soundAt - marks.joinAt);
        for (const step of LATE_STEPS) if (marks[step]) steps[step].push((marks[step] as number) - marks.joinAt);
      } else missed += 1;
      progress(marks ? '.' : 'x');
      await pause(500);
    }
    lateRows.push({ plane, values, steps, missed });
    progress('\n');
  } finally {
    await closeRoom(room);
  }
}

let janusPairs: Record<string, number[]> | undefined;
try {
  if (withPairs) {
    progress("Janus's mixer settings, pairs in one page: ");
    janusPairs = await measureJanusPairs(browser as Browser, throughJanus.baseURL, presses * 3);
    progress('\n');
  }
  if (!pairsOnly) {
    const withZero = [0, ...sizes];
    for (const kind of kinds) await series(throughJanus, `Janus, listeners ${kind}`, kind, withZero);
    await series(onMesh, 'mesh', 'mesh', [0, ...meshSizes]);
    for (const loss of losses) await lossSeries(throughJanus, loss);
    if (lateRounds > 0) {
      await lateEntry(throughJanus, 'Janus');
      await lateEntry(onMesh, 'mesh');
    }
  }
} finally {
  await browser.close();
  await crowdLaunch.close();
  await throughJanus.stop();
  await onMesh.stop();
  await janus.stop();
}

printReport({
  asJson,
  pairsOnly,
  loads,
  scheduling: janus.scheduling,
  rows,
  lossRows,
  lateRows,
  janusPairs,
});
