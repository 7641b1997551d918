/**
 * 3GPP MCPTT's key performance indicators (TS 22.179 §6.15, issue 59) on Talkgroup's floor and voice, through
 * the media server and on the mesh, in one run: Talkgroup servers (one with JANUS_URL and a Janus of its own,
 * one without), a headless Chromium whose fake microphone plays a tone all along.
 *
 * - **KPI 1, access time**: the talker's press (its pointerdown) to the talk-permit tone in its page. The grant
 *   turns the microphone on and starts the beep in the same task (talkControl.ts): its mic-on time is the tone's.
 * - **KPI 3, mouth-to-ear**: the talker's sound (the fake microphone's tone goes out from its mic-on) to the
 *   sound's onset at a listener's page, to the sample (the clocks of the two pages set against this process's).
 * - **Queue offer to confirmed grant**: the talker waits first in the channel's queue (pre-emption `queue`), its
 *   button held; the holder lets go; from the offer's arrival in the talker's page (`floor_granted`, reason
 *   `queue`, read off its WebSocket) to its microphone on, which needs its confirming `floor_request` answered.
 *
 * Each scene with `--listeners` (10) listeners beside the measured listener page (bench:media's crowd: sockets
 * with receive-only connections, in a browser of the idle scheduling class), and again with a queue of
 * `--queue` (5): member sockets of whom one holds the floor and the others wait, each taking an offer at once
 * and asking again when it loses the floor; the talker, an administrator, pre-empts the holder.
 *
 * `npm run bench:mcptt [-- --presses 20] [--listeners 10] [--queue 5] [--planes janus,mesh] [--json]`. Goals
 * printed beside the figures: KPI 1 and KPI 3 at most 300 ms at p95. Never passes or fails.
 */

import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { io, type Socket } from 'socket.io-client';
import { chromiumLaunchOptions } from '../../e2e/chromium.ts';
import { login, seedFor, startServer, type TalkgroupServer } from '../../e2e/fixtures.ts';
import { fakeMicrophoneArgs } from '../../e2e/room-audio.ts';
import { TONE_WAV } from '../../e2e/room-support.ts';
import { JANUS_REALTIME_PRIORITY, startJanus } from '../../packages/server/src/ops/dev-media.ts';
import { launchCrowdBrowser } from '../media/crowd-browser.ts';
import { type ListenerKind, loadListeners } from '../media/load-listeners.ts';
import { percentile } from '../media/report.ts';
import { openRoomPair, pause } from '../ptt-latency/room-pair.ts';
import { freePort } from '../server-process.ts';

const option = (name: string) => {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
};
const presses = Number(option('--presses')) || 20;
const listeners = Number(option('--listeners') ?? 10);
const queueLength = Number(option('--queue') ?? 5);
const planes = (option('--planes') ?? 'janus,mesh').split(',');
const asJson = process.argv.includes('--json');
const progress = (text: string) => (asJson ? process.stderr : process.stdout).write(text);
const GOAL_MS = 300;

const root = path.resolve(import.meta.dirname, '../..');
if (!existsSync(path.join(root, 'packages/web/dist/index.html'))) {
  progress('building the web app first (npm run build)…\n');
  execSync('npm run build', { cwd: root, stdio: asJson ? ['ignore', 'ignore', 'inherit'] : 'inherit' });
}

interface Scene {
  plane: string;
  scene: string;
  access: number[];
  mouthToEar: number[];
  offer: number[];
  missed: number;
}

/** In the talker's page: when the floor's last queue offer arrived (its socket's frames, read as they come). */
function watchOffers(): void {
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols);
      this.addEventListener('message', (event) => {
        if (typeof event.data === 'string' && event.data.includes('"floor_granted"') && event.data.includes('"queue"'))
          (window as unknown as { __offerAt: number }).__offerAt = performance.timeOrigin + performance.now();
      });
    }
  };
}

/**
 * Member sockets in the channel: one holds the floor, the others wait in its queue. Each takes an offer at once
 * (its confirming floor_request) and asks again when it loses the floor, so that a queue stays while the
 * talker talks and after.
 */
async function queueOf(server: TalkgroupServer, room: Awaited<ReturnType<typeof openRoomPair>>, size: number) {
  const seed = seedFor(server, room.admin);
  const sockets: Socket[] = [];
  const holding = new Set<Socket>();
  const ask = (socket: Socket) =>
    socket.emit('floor_request', { room: room.channel.rtcSession }, (answer: { granted: boolean }) => {
      if (answer.granted) holding.add(socket);
    });
  for (let i = 0; i <= size; i += 1) {
    const account = await seed.member({ firstName: 'Queued', lastName: `Member ${i}` });
    const added = await server.call(
      '/user/api/addUserToChannel',
      { userId: account.id, channelId: room.channel.id },
      room.admin.token,
    );
    if (added.status !== 200) throw new Error(`addUserToChannel failed: ${JSON.stringify(added.body)}`);
    const { token } = await login(server, account.login, account.password);
    const socket = io(server.baseURL, {
      transports: ['websocket'],
      query: { token },
      reconnection: false,
      forceNew: true,
    });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    const joined = new Promise((resolve) => socket.once('all_users', resolve));
    socket.emit('join_room', { room: room.channel.rtcSession, mode: 'talk' });
    await joined;
    socket.on('floor_granted', (payload: { reason?: string }) => {
      if (payload.reason === 'queue') ask(socket);
    });
    socket.on('floor_revoked', () => {
      holding.delete(socket);
      ask(socket);
    });
    sockets.push(socket);
    ask(socket);
    // The first holds before the others ask: they wait behind it.
    if (i === 0) for (let wait = 0; wait < 100 && !holding.has(socket); wait += 1) await pause(50);
  }
  return {
    /** Until one of them holds the floor again (after the talker let go, the queue's first took the offer). */
    async held(): Promise<Socket | undefined> {
      for (let wait = 0; wait < 200; wait += 1) {
        const holder = [...holding][0];
        if (holder) return holder;
        await pause(25);
      }
      return undefined;
    },
    /** The holder lets go, and asks again at once: it waits behind whoever is first now. */
    release(socket: Socket) {
      holding.delete(socket);
      socket.emit('floor_release', { room: room.channel.rtcSession });
      ask(socket);
    },
    close() {
      for (const socket of sockets) socket.disconnect();
    },
  };
}

/** The channel's pre-emption (issue 59): `interrupt` lets the administrator cut in, `queue` puts it first. */
async function setPreemption(server: TalkgroupServer, room: Awaited<ReturnType<typeof openRoomPair>>, mode: string) {
  const answer = await server.call(
    '/user/api/updateChannel',
    { channelId: room.channel.id, channelName: room.channel.name, preemption: mode },
    room.admin.token,
  );
  if (answer.status !== 200) throw new Error(`updateChannel failed: ${JSON.stringify(answer.body)}`);
}

const micOnAt = (page: Page) => page.evaluate(() => window.__talkgroupRoom?.lastMicOnAt ?? 0);

/** Presses of the room pair: access time and mouth-to-ear of each one heard. */
async function pressRound(
  room: Awaited<ReturnType<typeof openRoomPair>>,
  into: Scene,
  queue?: Awaited<ReturnType<typeof queueOf>>,
) {
  for (let i = 0; i < presses; i += 1) {
    if (queue && !(await queue.held())) progress('?');
    const [soundBefore, enabledBefore] = [room.figures.sound.length, room.figures.enabled.length];
    progress(await room.press());
    const sound = room.figures.sound[soundBefore];
    const enabled = room.figures.enabled[enabledBefore];
    if (enabled === undefined) into.missed += 1;
    else into.access.push(enabled);
    if (sound !== undefined && enabled !== undefined) into.mouthToEar.push(sound - enabled);
    await pause(300 + Math.random() * 200);
  }
}

/** The talker waits first in the queue with its button held; the holder lets go; offer to mic on. */
async function offerRound(
  room: Awaited<ReturnType<typeof openRoomPair>>,
  into: Scene,
  queue: Awaited<ReturnType<typeof queueOf>>,
) {
  for (let i = 0; i < presses; i += 1) {
    const holder = await queue.held();
    if (!holder) {
      progress('?');
      continue;
    }
    const before = await micOnAt(room.talker);
    await room.hold();
    // Its request answered (queued) before the holder lets go.
    await pause(300);
    queue.release(holder);
    let on = 0;
    for (let wait = 0; wait < 200 && !on; wait += 1) {
      const now = await micOnAt(room.talker);
      if (now !== before) on = now;
      else await pause(10);
    }
    const offerAt = await room.talker.evaluate(() => (window as unknown as { __offerAt?: number }).__offerAt ?? 0);
    await room.talker.mouse.up();
    if (on && offerAt) into.offer.push(on - offerAt);
    else into.missed += 1;
    progress(on && offerAt ? '.' : 'x');
    await pause(500 + Math.random() * 200);
  }
}

async function measurePlane(server: TalkgroupServer, plane: string, kind: ListenerKind, crowdBrowser: typeof browser) {
  const room = await openRoomPair(browser, server, { talkerScript: watchOffers });
  const seed = seedFor(server, room.admin);
  const crowdAccount = await seed.member({ firstName: 'Crowd', lastName: 'Listener' });
  await server.call(
    '/user/api/addUserToChannel',
    { userId: crowdAccount.id, channelId: room.channel.id },
    room.admin.token,
  );
  const crowd = loadListeners(
    crowdBrowser,
    server.baseURL,
    (await login(server, crowdAccount.login, crowdAccount.password)).token,
  );
  const scenes: Scene[] = [];
  try {
    progress(`${plane}: ${listeners} listeners connecting`);
    await crowd.growTo(listeners, kind, room.channel.rtcSession);
    for (let wait = 0; wait < 240 && (await crowd.connected()) < listeners; wait += 1) await pause(250);
    await pause(1000);
    const plain: Scene = { plane, scene: `${listeners} listeners`, access: [], mouthToEar: [], offer: [], missed: 0 };
    progress(', presses ');
    await pressRound(room, plain);
    scenes.push(plain);
    progress(`\n${plane}: a queue of ${queueLength}, presses `);
    const queue = await queueOf(server, room, queueLength);
    try {
      const queued: Scene = {
        plane,
        scene: `${listeners} listeners, queue of ${queueLength}`,
        access: [],
        mouthToEar: [],
        offer: [],
        missed: 0,
      };
      await pressRound(room, queued, queue);
      progress(', offers ');
      await setPreemption(server, room, 'queue');
      await offerRound(room, queued, queue);
      scenes.push(queued);
    } finally {
      queue.close();
    }
    progress('\n');
  } finally {
    await crowd.close();
    await room.talker.context().close();
    await room.listener.context().close();
  }
  return scenes;
}

const loads = [loadavg()[0]];
const browser = await chromium.launch(chromiumLaunchOptions(fakeMicrophoneArgs(TONE_WAV)));
const crowdLaunch = await launchCrowdBrowser(browser, process.argv.includes('--crowd-beside'));
const wsPort = await freePort();
const rtpBase = 30_000 + Math.floor(Math.random() * 20) * 1000;
const janus = planes.includes('janus')
  ? await startJanus({ wsPort, rtpPorts: [rtpBase, rtpBase + 999], realtime: JANUS_REALTIME_PRIORITY })
  : undefined;
const scenes: Scene[] = [];
try {
  if (janus) {
    const server = await startServer({ JANUS_URL: janus.url, JANUS_API_SECRET: janus.secret, LOG_LEVEL: 'error' });
    try {
      scenes.push(...(await measurePlane(server, 'Janus', 'watch', crowdLaunch.browser)));
    } finally {
      await server.stop();
    }
  }
  if (planes.includes('mesh')) {
    const server = await startServer({ LOG_LEVEL: 'error' });
    try {
      scenes.push(...(await measurePlane(server, 'mesh', 'mesh', crowdLaunch.browser)));
    } finally {
      await server.stop();
    }
  }
} finally {
  await crowdLaunch.close();
  await browser.close();
  await janus?.stop();
}
loads.push(loadavg()[0]);

const fixed = (value: number) => (Number.isFinite(value) ? value.toFixed(1) : '–');
const figure = (values: number[]) => `${fixed(percentile(values, 95))} (${fixed(percentile(values, 50))})`;
const verdict = (values: number[]) =>
  values.length === 0 ? '' : percentile(values, 95) <= GOAL_MS ? 'meets' : 'misses';
if (asJson)
  console.log(
    JSON.stringify({
      loads,
      goalMs: GOAL_MS,
      scenes: scenes.map((scene) => ({
        ...scene,
        accessP95: percentile(scene.access, 95),
        mouthToEarP95: percentile(scene.mouthToEar, 95),
        offerP95: percentile(scene.offer, 95),
      })),
    }),
  );
else {
  console.log(`\nMCPTT KPIs (TS 22.179 §6.15), ms at p95 (p50); goal: at most ${GOAL_MS} ms at p95`);
  console.log(`load average ${loads.map((load) => load.toFixed(2)).join(' → ')}`);
  const header = [
    'plane',
    'scene',
    'presses',
    'KPI 1 access',
    '',
    'KPI 3 mouth-to-ear',
    '',
    'offer to grant',
    'missed',
  ];
  const rows = scenes.map((scene) => [
    scene.plane,
    scene.scene,
    String(scene.access.length),
    figure(scene.access),
    verdict(scene.access),
    figure(scene.mouthToEar),
    verdict(scene.mouthToEar),
    scene.offer.length ? figure(scene.offer) : '',
    String(scene.missed),
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column].length)));
  for (const row of [header, ...rows]) console.log(row.map((cell, column) => cell.padEnd(widths[column])).join('  '));
}
