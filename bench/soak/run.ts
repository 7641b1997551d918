/**
 * The soak run: thousands of sockets for minutes to an hour against Talkgroup as `npm start` runs it, on a
 * populated database (server.ts), at a phone team's pace (clients.ts): chat, positions, presence changes
 * (joining another channel to listen and leaving it), floor presses, and HTTP reads and writes (the channel's
 * members, the activity log, chat sent over HTTP). By default each socket sends a chat message every 5 min,
 * reports a position every minute and listens to another channel for 30 s every 5 min; the first socket of
 * each room presses every 20 s and holds 2 s; HTTP: a read every 200 ms, a chat message every 2 s
 * (--chat-seconds, --position-seconds, --presence-seconds, --floor-seconds change the pace).
 *
 *   npm run bench:soak -- --sockets 5000 --minutes 10
 *   npm run bench:soak -- --sockets 1000 --minutes 60
 *
 * Every minute it prints the server's RSS (read from /proc, the server process only), the sockets up, the
 * messages sent and received, and the HTTP p50/p99 of that minute. At the end: errors, disconnects, messages
 * sent, received and lost (each chat message, over the socket or acknowledged over HTTP, must reach every
 * socket of its room), HTTP p50/p99, and the RSS's slope after warm-up (a least-squares line over the
 * minutes after the first fifth) and its cost per 1,000 sockets against the same server's RSS before any
 * socket connected (the baseline, measured in this run).
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { sleep } from '../server-process.ts';
import type { Periods, WorkerStats } from './clients.ts';
import { ROOM_SIZE, type SoakServerInfo } from './shape.ts';

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  const value = at >= 0 ? Number(process.argv[at + 1]) : fallback;
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number`);
  return value;
}

const sockets = Math.round(option('sockets', 1000));
const minutes = option('minutes', 10);
const idleUsers = Math.round(option('idle', 700));
const periods: Periods = {
  chatMs: option('chat-seconds', 300) * 1000,
  positionMs: option('position-seconds', 60) * 1000,
  presenceMs: option('presence-seconds', 300) * 1000,
  floorMs: option('floor-seconds', 20) * 1000,
};
const WORKERS = 2;
const MINUTE_MS = Math.min(60_000, (minutes * 60_000) / 2);

const rssMb = (pid: number) => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
};
const quantile = (values: number[], q: number) => {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};
const fmt = (value: number, digits = 1) => value.toFixed(digits);

console.log(`soak: ${sockets} sockets in rooms of ${ROOM_SIZE}, ${idleUsers} idle users, ${minutes} min`);
const server = spawn(
  process.execPath,
  [path.join(import.meta.dirname, 'server.ts'), String(sockets), String(idleUsers)],
  {
    stdio: ['ignore', 'pipe', 'inherit'],
  },
);
const info = await new Promise<SoakServerInfo>((resolve, reject) => {
  let buffered = '';
  server.stdout?.setEncoding('utf8');
  server.stdout?.on('data', (chunk: string) => {
    buffered += chunk;
    const end = buffered.indexOf('\n');
    if (end >= 0) resolve(JSON.parse(buffered.slice(0, end)) as SoakServerInfo);
  });
  server.once('exit', (code) => reject(new Error(`the soak server exited (${code}) before it served`)));
});
const url = `http://127.0.0.1:${info.port}`;
await sleep(3000);
const baseline = rssMb(info.pid);
console.log(`server pid ${info.pid}: RSS ${fmt(baseline)} MB before any socket (the baseline)`);

// The sockets, in worker threads.
const share = Math.ceil(sockets / WORKERS);
const workers = Array.from({ length: WORKERS }, (_, w) => {
  const first = w * share;
  return new Worker(path.join(import.meta.dirname, 'clients.ts'), {
    workerData: {
      url,
      first,
      tokens: info.tokens.slice(first, first + share),
      rooms: info.rooms,
      channelIds: info.channelIds,
      roomSize: ROOM_SIZE,
      periods,
    },
  });
});
const ask = (worker: Worker, type: string, answer: string) =>
  new Promise<unknown>((resolve) => {
    const listen = (message: { type: string; stats?: WorkerStats }) => {
      if (message.type !== answer) return;
      worker.off('message', listen);
      resolve(message.stats);
    };
    worker.on('message', listen);
    if (type) worker.postMessage({ type });
  });
const connectStart = performance.now();
await Promise.all(workers.map((worker) => ask(worker, '', 'ready')));
console.log(`${sockets} sockets connected and in their rooms in ${fmt((performance.now() - connectStart) / 1000)} s`);

// HTTP at a console's and the phones' pace: a read every 200 ms, a chat message over HTTP every 2 s.
const latencies: number[] = [];
let minuteLatencies: number[] = [];
let httpErrors = 0;
const httpErrorSamples: string[] = [];
const httpSentByRoom: Record<number, number> = {};
let httpRunning = true;
async function call(route: string, body: unknown, token: string): Promise<{ success?: boolean } | undefined> {
  const started = performance.now();
  try {
    const response = await fetch(`${url}/user/api/${route}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-access-token': token },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(15_000),
    });
    const answer = (await response.json()) as { success?: boolean };
    const took = performance.now() - started;
    latencies.push(took);
    minuteLatencies.push(took);
    if (!response.ok) throw new Error(`${route}: ${response.status} ${JSON.stringify(answer).slice(0, 120)}`);
    return answer;
  } catch (error) {
    httpErrors += 1;
    if (httpErrorSamples.length < 10) httpErrorSamples.push(String(error));
    return undefined;
  }
}
const someone = () => Math.floor(Math.random() * sockets);
const roomOf = (socket: number) => Math.floor(socket / ROOM_SIZE);
let httpSeq = 0;
const reads = (async () => {
  let turn = 0;
  while (httpRunning) {
    const socket = someone();
    const channelId = info.channelIds[roomOf(socket)];
    turn += 1;
    if (turn % 3 === 0) void call('getAllActivities/', { start: 0, limit: 20 }, info.admin);
    else if (turn % 3 === 1) void call('getUsersInChannel', { channelId }, info.tokens[socket]);
    else void call('getMyChannels', {}, info.tokens[socket]);
    await sleep(200);
  }
})();
const writes = (async () => {
  while (httpRunning) {
    const socket = someone();
    const room = roomOf(socket);
    httpSeq += 1;
    const answer = await call(
      'sendMessageToChannel',
      { channelId: info.channelIds[room], message: `soak-http-${httpSeq}` },
      info.tokens[socket],
    );
    if (answer?.success) httpSentByRoom[room] = (httpSentByRoom[room] ?? 0) + 1;
    await sleep(2000);
  }
})();

async function totals() {
  const all = (await Promise.all(workers.map((worker) => ask(worker, 'stats', 'stats')))) as WorkerStats[];
  const sum = (pick: (stats: WorkerStats) => number) => all.reduce((total, stats) => total + pick(stats), 0);
  const sentByRoom: Record<number, number> = { ...httpSentByRoom };
  for (const stats of all)
    for (const [room, count] of Object.entries(stats.sentByRoom))
      sentByRoom[Number(room)] = (sentByRoom[Number(room)] ?? 0) + count;
  const roomSockets = (room: number) => Math.min(ROOM_SIZE, sockets - room * ROOM_SIZE);
  const sent = Object.values(sentByRoom).reduce((a, b) => a + b, 0);
  const expected = Object.entries(sentByRoom).reduce(
    (total, [room, count]) => total + count * roomSockets(Number(room)),
    0,
  );
  return {
    connected: sum((stats) => stats.connected),
    disconnects: sum((stats) => stats.disconnects),
    errors: sum((stats) => stats.errors) + httpErrors,
    errorSamples: [...all.flatMap((stats) => stats.errorSamples), ...httpErrorSamples].slice(0, 10),
    sent,
    expected,
    received: sum((stats) => stats.received),
    presses: sum((stats) => stats.presses),
    grants: sum((stats) => stats.grants),
    refusals: sum((stats) => stats.refusals),
    positions: sum((stats) => stats.positions),
    presenceChanges: sum((stats) => stats.presenceChanges),
  };
}

const samples: { minute: number; rss: number }[] = [];
const shown = new Set<string>();
const started = performance.now();
console.log('minute  RSS MB  sockets  sent  received  HTTP p50 ms  p99 ms  errors');
while (performance.now() - started < minutes * 60_000) {
  await sleep(Math.min(MINUTE_MS, minutes * 60_000 - (performance.now() - started)));
  const minute = (performance.now() - started) / 60_000;
  const rss = rssMb(info.pid);
  samples.push({ minute, rss });
  const now = await totals();
  console.log(
    `${fmt(minute).padStart(6)}  ${fmt(rss).padStart(6)}  ${String(now.connected).padStart(7)}  ${String(now.sent).padStart(4)}  ${String(now.received).padStart(8)}  ${fmt(quantile(minuteLatencies, 0.5)).padStart(11)}  ${fmt(quantile(minuteLatencies, 0.99)).padStart(6)}  ${now.errors}`,
  );
  minuteLatencies = [];
  for (const sample of now.errorSamples.filter((sample) => !shown.has(sample))) {
    shown.add(sample);
    console.log(`        error: ${sample}`);
  }
}

// Stop sending, then wait for what is in flight.
httpRunning = false;
await Promise.all([reads, writes]);
await Promise.all(workers.map((worker) => ask(worker, 'stop', 'stopped')));
let end = await totals();
for (let waited = 0; end.received < end.expected && waited < 30_000; waited += 1000) {
  await sleep(1000);
  end = await totals();
}

const warm = samples.filter((sample) => sample.minute > Math.max(1, minutes / 5));
const slope = (() => {
  if (warm.length < 2) return 0;
  const mx = warm.reduce((a, s) => a + s.minute, 0) / warm.length;
  const my = warm.reduce((a, s) => a + s.rss, 0) / warm.length;
  const num = warm.reduce((a, s) => a + (s.minute - mx) * (s.rss - my), 0);
  const den = warm.reduce((a, s) => a + (s.minute - mx) ** 2, 0);
  return num / den;
})();
const last = samples.at(-1)?.rss ?? baseline;
console.log('');
console.log(`errors ${end.errors}, disconnects ${end.disconnects}`);
if (end.errorSamples.length > 0) console.log(`  e.g. ${end.errorSamples.join('\n       ')}`);
console.log(
  `chat messages sent ${end.sent} (socket and HTTP), deliveries expected ${end.expected}, received ${end.received}, lost ${end.expected - end.received}`,
);
console.log(
  `floor presses ${end.presses} (granted ${end.grants}, refused ${end.refusals}), positions ${end.positions}, presence changes ${end.presenceChanges}`,
);
console.log(
  `HTTP ${latencies.length} calls: p50 ${fmt(quantile(latencies, 0.5))} ms, p99 ${fmt(quantile(latencies, 0.99))} ms`,
);
console.log(
  `RSS: baseline ${fmt(baseline)} MB, last ${fmt(last)} MB (${fmt(last / baseline, 2)}x the baseline), ${fmt(((last - baseline) / sockets) * 1000)} MB per 1,000 sockets over the baseline, ${fmt((last / sockets) * 1000)} MB per 1,000 sockets in all`,
);
console.log(`RSS slope after warm-up: ${fmt(slope, 2)} MB/min over ${warm.length} samples`);

for (const worker of workers) worker.postMessage({ type: 'close' });
server.kill('SIGTERM');
await new Promise((resolve) => server.once('exit', resolve));
process.exit(0);
