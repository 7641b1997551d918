/**
 * Join storm (issue 18): N clients connect and join one channel room at once, as a thousand phones do at a
 * shift change. Measured on Talkgroup and on a bare Socket.IO server that sends the same join traffic (the
 * peer list to the joiner, one `user joined` to the others) in the same run:
 *   - known: until every client knows every other one (all_users + user joined);
 *   - settled: until the last frame of the storm (presence pushes included), i.e. the room is quiet;
 *   - frames per client, the server's CPU seconds, and its RSS once settled (memory with N sockets in a room).
 * Talkgroup runs with the web app's clients (`pushes=once`: one push per change) and, at a smaller size,
 * with clients that speak only the spec's events (twin events, one presence event per user).
 * Figures only, never pass/fail; the goals: settled within 3x the bare server at 1,000 clients, under 200 MB RSS
 * with 1,000 sockets in rooms, and a spec client at most 2x the bare server's frames (issue 36), with the frames
 * per client by event printed below the table.
 *
 *   npm run bench:join-storm                 1,000 clients (BENCH_CLIENTS), spec clients 200 (BENCH_SPEC_CLIENTS,
 *                                            0 to skip), BENCH_WORKERS client threads
 *   BENCH_DATABASE_URL=postgres://…          Talkgroup on PostgreSQL (a schema of its own)
 */
import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { startSocketServer, stop } from '../server-process.ts';

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 1000);
const SPEC_CLIENTS = Number(process.env.BENCH_SPEC_CLIENTS ?? 200);
const WORKERS = Number(process.env.BENCH_WORKERS ?? Math.max(1, Math.min(4, availableParallelism() - 1)));
const QUIET_MS = 1000;
const LIMIT_MS = 300_000;
const TICKS_PER_SECOND = 100;

interface Result {
  label: string;
  clients: number;
  knownMs: number;
  settledMs: number;
  framesPerClient: number;
  kbPerClient: number;
  cpuSeconds: number;
  rssMb: number;
  idleRssMb: number;
  /** Frames per client by event name (or packet type). */
  kinds: Record<string, number>;
}

const now = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function startServer(kind: 'bare' | 'talkgroup', clients: number) {
  return kind === 'bare'
    ? startSocketServer(new URL('./bare-server.ts', import.meta.url).pathname, [String(clients)])
    : startSocketServer(new URL('../realtime/server.ts', import.meta.url).pathname, ['talkgroup', String(clients - 1)]);
}

/** CPU seconds (user + system) of a process so far, from /proc. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Number(line?.match(/\d+/)?.[0] ?? 0) / 1024;
}

function ask<T>(worker: Worker, type: string, answer: string): Promise<T> {
  return new Promise((resolve) => {
    const listener = (message: { type: string } & T) => {
      if (message.type !== answer) return;
      worker.off('message', listener);
      resolve(message);
    };
    worker.on('message', listener);
    worker.postMessage({ type });
  });
}

async function storm(label: string, kind: 'bare' | 'talkgroup', clients: number, once: boolean): Promise<Result> {
  const { info, child } = await startServer(kind, clients);
  const { pid } = info;
  try {
    const url = `http://127.0.0.1:${info.port}`;
    const workers = Array.from({ length: Math.min(WORKERS, clients) }, (_, w) => {
      const tokens = info.tokens.filter((_, i) => i % WORKERS === w);
      return new Worker(new URL('./clients.ts', import.meta.url), {
        workerData: { url, room: info.room, tokens, total: clients, once },
      });
    });
    await Promise.all(
      workers.map((worker) => new Promise((resolve) => worker.once('message', resolve))), // ready
    );
    await sleep(500);
    const idleRss = rssMb(pid);
    const cpuBefore = cpuSeconds(pid);
    const t0 = now();
    const known = Promise.all(
      workers.map(
        (worker) =>
          new Promise<number>((resolve) => {
            const listener = (message: { type: string; at: number }) => {
              if (message.type !== 'known') return;
              worker.off('message', listener);
              resolve(message.at);
            };
            worker.on('message', listener);
          }),
      ),
    );
    for (const worker of workers) worker.postMessage({ type: 'go' });
    const knownAt = await Promise.race([known.then((ats) => Math.max(...ats)), sleep(LIMIT_MS).then(() => Number.NaN)]);
    // Quiet: no frame anywhere for QUIET_MS.
    let stats: Array<{ lastFrameAt: number; frames: number; bytes: number; byKind: Record<string, number> }> = [];
    for (;;) {
      stats = await Promise.all(workers.map((w) => ask<(typeof stats)[number]>(w, 'stats', 'stats')));
      const last = Math.max(...stats.map((s) => s.lastFrameAt));
      if (now() - last >= QUIET_MS || now() - t0 > LIMIT_MS) break;
      await sleep(250);
    }
    const settledAt = Math.max(...stats.map((s) => s.lastFrameAt));
    const result: Result = {
      label,
      clients,
      knownMs: knownAt - t0,
      settledMs: settledAt - t0,
      framesPerClient: stats.reduce((n, s) => n + s.frames, 0) / clients,
      kbPerClient: stats.reduce((n, s) => n + s.bytes, 0) / clients / 1024,
      cpuSeconds: cpuSeconds(pid) - cpuBefore,
      rssMb: rssMb(pid),
      idleRssMb: idleRss,
      kinds: {},
    };
    for (const { byKind } of stats)
      for (const [kind, count] of Object.entries(byKind))
        result.kinds[kind] = (result.kinds[kind] ?? 0) + count / clients;
    for (const worker of workers) worker.postMessage({ type: 'close' });
    await Promise.all(workers.map((worker) => worker.terminate()));
    return result;
  } finally {
    await stop(child);
  }
}

const results: Result[] = [];
results.push(await storm('bare Socket.IO', 'bare', CLIENTS, false));
results.push(await storm('Talkgroup (pushes=once)', 'talkgroup', CLIENTS, true));
if (SPEC_CLIENTS > 0) {
  results.push(await storm('bare Socket.IO', 'bare', SPEC_CLIENTS, false));
  results.push(await storm("Talkgroup (spec's events)", 'talkgroup', SPEC_CLIENTS, false));
}

const database = process.env.BENCH_DATABASE_URL ? 'PostgreSQL' : 'SQLite';
console.log(
  `Join storm: N clients connect and join one room at once (${database}, ${WORKERS} client threads, load ${loadavg()[0].toFixed(1)})`,
);
console.log(
  'server                     | clients | known ms | settled ms | vs bare | frames/client | frames vs bare | KB/client | server CPU s | RSS MB (idle→settled)',
);
for (const r of results) {
  const bare = results.find((b) => b.label === 'bare Socket.IO' && b.clients === r.clients);
  const ratio = bare ? (r.settledMs / bare.settledMs).toFixed(2) : '';
  const frames = bare ? (r.framesPerClient / bare.framesPerClient).toFixed(2) : '';
  console.log(
    `${r.label.padEnd(26)} | ${String(r.clients).padStart(7)} | ${r.knownMs.toFixed(0).padStart(8)} | ${r.settledMs
      .toFixed(0)
      .padStart(
        10,
      )} | ${ratio.padStart(7)} | ${r.framesPerClient.toFixed(0).padStart(13)} | ${frames.padStart(14)} | ${r.kbPerClient
      .toFixed(0)
      .padStart(9)} | ${r.cpuSeconds.toFixed(2).padStart(12)} | ${r.idleRssMb.toFixed(0)}→${r.rssMb.toFixed(0)}`,
  );
}
console.log('Frames per client, by event (or packet type: 0 open, 40 connect, 2 ping):');
for (const r of results) {
  const kinds = Object.entries(r.kinds)
    .sort((a, b) => b[1] - a[1])
    .map(([kind, count]) => `${kind} ${count.toFixed(1)}`)
    .join(', ');
  console.log(`  ${r.label} (${r.clients}): ${kinds}`);
}
console.log(
  "Goals: settled within 3x the bare server at 1,000 clients; under 200 MB RSS with 1,000 sockets in rooms; a spec client at most 2x the bare server's frames.",
);
process.exit(0);
