/**
 * Real-time fan-out: how long does one chat message take to reach every client of a room, on Talkgroup and
 * on a bare Socket.IO server that only broadcasts a message of the same shape, in the same run?
 *
 *   npm run bench:realtime                        100 and 1,000 clients, SQLite
 *   BENCH_CLIENTS=100,1000,2000 npm run bench:realtime
 *   BENCH_DATABASE_URL=postgres://… npm run bench:realtime     Talkgroup on PostgreSQL (a schema of its own)
 *   BENCH_ROUNDS, BENCH_WORKERS                   messages measured per size; client threads
 *
 * Each server runs in a process of its own; the receiving clients run in worker threads, the sender in this
 * one. A round: the sender emits `message`; the delivery time of a client is from that emit to the arrival
 * of `messageResponse`. Talkgroup validates, checks membership, stores the message, then pushes it (and
 * onSendMessage, and the activity); the bare server pushes at once. Both servers run at the same time and
 * their rounds alternate, spaced as chat messages are. Figures only, never pass/fail: the ratio is the
 * point, and its target is at most 1.5 at 1,000 clients.
 */
import { availableParallelism, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { io, type Socket } from 'socket.io-client';
import { type SocketServerInfo, startSocketServer, stop } from '../server-process.ts';

const SIZES = (process.env.BENCH_CLIENTS ?? '100,1000').split(',').map(Number);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 100);
const WARMUP = 5;
const PAUSE_MS = 50;
const WORKERS = Number(process.env.BENCH_WORKERS ?? Math.max(1, Math.min(4, availableParallelism() - 1)));
type Kind = 'bare' | 'talkgroup';

type ServerInfo = SocketServerInfo;

const now = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function connectSender(url: string, info: ServerInfo): Promise<Socket> {
  const socket = io(url, { transports: ['websocket'], query: { token: info.tokens[0] }, reconnection: false });
  return new Promise((resolve, reject) => {
    socket.once('connect_error', reject);
    socket.once('connect', () => {
      socket.emit('join_room', { room: info.room, name: 'sender' });
      socket.once('all_users', () => resolve(socket));
    });
  });
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

interface Rig {
  kind: Kind;
  info: ServerInfo;
  sender: Socket;
  setupS: number;
  /** Sends round `round` and resolves with the delivery times of every receiving client, in ms. */
  round(round: number): Promise<number[]>;
  close(): Promise<void>;
}

/** A server with its sender and its receiving clients, all in the room and quiet. */
async function rig(kind: Kind, clients: number): Promise<Rig> {
  const { info, child } = await startSocketServer(new URL('./server.ts', import.meta.url).pathname, [
    kind,
    String(clients),
  ]);
  const url = `http://127.0.0.1:${info.port}`;
  const workers: Worker[] = [];
  const close = async () => {
    for (const worker of workers) {
      worker.postMessage({ type: 'close' });
      await worker.terminate();
    }
    await stop(child);
  };
  try {
    const started = now();
    const sender = await connectSender(url, info);
    const receivers = info.tokens.slice(1, clients + 1);
    const share = Math.ceil(receivers.length / WORKERS);
    const waiting: Array<Map<number, (times: number[]) => void>> = [];
    const readies: Promise<void>[] = [];
    const lastFrames = new Map<Worker, (at: number) => void>();
    for (let w = 0; w < WORKERS && w * share < receivers.length; w++) {
      const worker = new Worker(new URL('./clients.ts', import.meta.url), {
        workerData: { url, room: info.room, tokens: receivers.slice(w * share, (w + 1) * share) },
      });
      const pending = new Map<number, (times: number[]) => void>();
      waiting.push(pending);
      readies.push(
        new Promise((resolve, reject) => {
          worker.once('error', reject);
          worker.on('message', (message: { type: string; round?: number; times?: number[]; at?: number }) => {
            if (message.type === 'ready') resolve();
            if (message.type === 'round') pending.get(message.round as number)?.(message.times as number[]);
            if (message.type === 'lastFrame') lastFrames.get(worker)?.(message.at as number);
          });
        }),
      );
      workers.push(worker);
    }
    await Promise.all(readies);
    // The joins' side effects (user joined, status pushes to the room) keep flowing after the last client is
    // in: measure only once the clients have received nothing for a second.
    for (;;) {
      await sleep(250);
      const last = await Promise.all(
        workers.map(
          (worker) =>
            new Promise<number>((resolve) => {
              lastFrames.set(worker, resolve);
              worker.postMessage({ type: 'lastFrame' });
            }),
        ),
      );
      if (now() - Math.max(...last) > 1000) break;
    }
    const setupS = (now() - started) / 1000 - 1;
    return {
      kind,
      info,
      sender,
      setupS,
      async round(round) {
        const arrivals = waiting.map((pending) => new Promise<number[]>((resolve) => pending.set(round, resolve)));
        const sentAt = now();
        sender.emit('message', { channelId: info.channelId, message: `bench-${round}` });
        return (await Promise.all(arrivals)).flat().map((at) => at - sentAt);
      },
      async close() {
        sender.close();
        await close();
      },
    };
  } catch (error) {
    await close();
    throw error;
  }
}

interface Result {
  p50: number;
  p99: number;
  setupS: number;
}

/**
 * Both servers are up with their clients at once, and their rounds alternate: a hiccup of the machine
 * (a noisy neighbour, a frequency change) falls on both, not on whichever happened to run at that moment.
 */
async function compare(clients: number): Promise<Record<Kind, Result>> {
  const rigs: Rig[] = [];
  try {
    rigs.push(await rig('bare', clients));
    rigs.push(await rig('talkgroup', clients));
    const samples = new Map<Rig, number[]>(rigs.map((r) => [r, []]));
    for (let round = 0; round < WARMUP + ROUNDS; round++) {
      for (const r of round % 2 === 0 ? rigs : [...rigs].reverse()) {
        const times = await r.round(round);
        if (round >= WARMUP) samples.get(r)?.push(...times);
        await sleep(PAUSE_MS);
      }
    }
    const result = {} as Record<Kind, Result>;
    for (const r of rigs) {
      const sorted = (samples.get(r) ?? []).sort((a, b) => a - b);
      result[r.kind] = { p50: percentile(sorted, 50), p99: percentile(sorted, 99), setupS: r.setupS };
    }
    return result;
  } finally {
    for (const r of rigs) await r.close();
  }
}

const ms = (value: number) => value.toFixed(2).padStart(8);
console.log(
  `Real-time fan-out: one chat message to every client of one room (send -> messageResponse received)\n` +
    `node ${process.version}, ${availableParallelism()} CPUs, ${WORKERS} client thread(s), ${ROUNDS} messages per size, ` +
    `Talkgroup on ${process.env.BENCH_DATABASE_URL ? 'PostgreSQL' : 'SQLite'}\n` +
    // Other work on the machine shows in the figures (Talkgroup waits on the disk for every stored message).
    `load average at start: ${loadavg()
      .map((n) => n.toFixed(1))
      .join(' ')}\n`,
);
console.log('clients  server       p50 ms    p99 ms   setup s (all connected, joined and quiet)');
const summary: string[] = [];
for (const clients of SIZES) {
  const { bare, talkgroup: ours } = await compare(clients);
  const line = (name: string, r: Result) =>
    console.log(
      `${String(clients).padStart(7)}  ${name.padEnd(9)} ${ms(r.p50)}  ${ms(r.p99)}  ${r.setupS.toFixed(1).padStart(8)}`,
    );
  line('bare', bare);
  line('talkgroup', ours);
  summary.push(
    `${String(clients).padStart(7)} clients: ratio Talkgroup / bare  p50 ${(ours.p50 / bare.p50).toFixed(2)}  p99 ${(ours.p99 / bare.p99).toFixed(2)}`,
  );
}
console.log(
  `\n${summary.join('\n')}\n(target: at most 1.5 at 1,000 clients; load average at end: ${loadavg()
    .map((n) => n.toFixed(1))
    .join(' ')})`,
);
