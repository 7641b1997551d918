/**
 * Chat throughput: how many messages per second a room of N clients gets, and how many per second of the
 * server's CPU, on Talkgroup (each message validated, membership checked, stored with its activity in one
 * transaction, pushed) and on a bare Socket.IO server that only broadcasts it, in the same run. SENDERS
 * sockets take turns (a socket may send 10 messages a second: realtime/event-limits.ts), WINDOW messages in
 * flight; a message counts once every receiving client has it. Server CPU from /proc (user + system).
 * The receiving clients speak the spec's events (messageResponse is what they count). Figures only.
 *
 *   npm run bench:chat      BENCH_CLIENTS=100 receivers, BENCH_MESSAGES=400, BENCH_WINDOW=20, BENCH_SENDERS=20
 *   BENCH_DATABASE_URL=postgres://…    Talkgroup on PostgreSQL
 */
import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { io, type Socket } from 'socket.io-client';
import { type SocketServerInfo, startSocketServer, stop } from '../server-process.ts';

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 100);
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 400);
const WINDOW = Number(process.env.BENCH_WINDOW ?? 20);
const SENDERS = Number(process.env.BENCH_SENDERS ?? 20);
const WORKERS = Number(process.env.BENCH_WORKERS ?? Math.max(1, Math.min(4, availableParallelism() - 1)));
const REALTIME = new URL('../realtime/', import.meta.url);
type Kind = 'bare' | 'talkgroup';

type ServerInfo = SocketServerInfo;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function connectSender(url: string, info: ServerInfo, token: string): Promise<Socket> {
  const socket = io(url, { transports: ['websocket'], query: { token }, reconnection: false, forceNew: true });
  return new Promise((resolve, reject) => {
    socket.once('connect_error', reject);
    socket.once('connect', () => {
      socket.emit('join_room', { room: info.room, name: 'sender' });
      socket.once('all_users', () => resolve(socket));
    });
  });
}

async function run(kind: Kind) {
  const { info, child } = await startSocketServer(new URL('server.ts', REALTIME).pathname, [kind, String(CLIENTS)]);
  const { pid } = info;
  const url = `http://127.0.0.1:${info.port}`;
  const workers: Worker[] = [];
  const senders: Socket[] = [];
  try {
    const receivers = info.tokens.slice(1, CLIENTS + 1);
    const share = Math.ceil(receivers.length / WORKERS);
    const done = new Map<number, number>();
    let wake: (() => void) | undefined;
    const readies: Promise<void>[] = [];
    for (let w = 0; w * share < receivers.length; w++) {
      const worker = new Worker(new URL('clients.ts', REALTIME), {
        workerData: { url, room: info.room, tokens: receivers.slice(w * share, (w + 1) * share) },
      });
      readies.push(
        new Promise((resolve, reject) => {
          worker.once('error', reject);
          worker.on('message', (message: { type: string; round?: number }) => {
            if (message.type === 'ready') resolve();
            if (message.type === 'round') {
              const round = message.round as number;
              done.set(round, (done.get(round) ?? 0) + 1);
              wake?.();
            }
          });
        }),
      );
      workers.push(worker);
    }
    await Promise.all(readies);
    for (let s = 0; s < SENDERS; s++) senders.push(await connectSender(url, info, info.tokens[s] as string));
    await sleep(2000); // the joins' pushes settle
    const complete = (round: number) => done.get(round) === workers.length;
    const cpuBefore = cpuSeconds(pid);
    const started = performance.now();
    let sent = 0;
    let delivered = 0;
    while (delivered < MESSAGES) {
      while (delivered < sent && complete(delivered)) delivered += 1;
      while (sent < MESSAGES && sent - delivered < WINDOW) {
        senders[sent % SENDERS]?.emit('message', { channelId: info.channelId, message: `bench-${sent}` });
        sent += 1;
      }
      if (delivered < sent && !complete(delivered))
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, 1000);
        });
    }
    const seconds = (performance.now() - started) / 1000;
    const cpu = cpuSeconds(pid) - cpuBefore;
    return { kind, perSecond: MESSAGES / seconds, perCpuSecond: MESSAGES / cpu, cpu, seconds };
  } finally {
    for (const sender of senders) sender.close();
    for (const worker of workers) {
      worker.postMessage({ type: 'close' });
      await worker.terminate();
    }
    await stop(child);
  }
}

const bare = await run('bare');
const ours = await run('talkgroup');
console.log(
  `Chat throughput: ${MESSAGES} messages to ${CLIENTS} clients of one room, ${WINDOW} in flight from ${SENDERS} ` +
    `sockets (Talkgroup on ${process.env.BENCH_DATABASE_URL ? 'PostgreSQL' : 'SQLite'}, load ${loadavg()[0].toFixed(1)})`,
);
console.log('server     | messages/s | messages per server CPU-second | server CPU s | wall s');
for (const r of [bare, ours])
  console.log(
    `${r.kind.padEnd(10)} | ${r.perSecond.toFixed(0).padStart(10)} | ${r.perCpuSecond.toFixed(0).padStart(30)} | ${r.cpu
      .toFixed(2)
      .padStart(12)} | ${r.seconds.toFixed(1).padStart(6)}`,
  );
console.log(
  `Talkgroup / bare: ${(ours.perSecond / bare.perSecond).toFixed(2)} of the messages per second, ` +
    `${(ours.perCpuSecond / bare.perCpuSecond).toFixed(2)} of the messages per CPU-second`,
);
process.exit(0);
