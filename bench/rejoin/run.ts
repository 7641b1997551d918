/**
 * Rejoin after a restart (issue 12): 100 clients sit in a channel room; the server is stopped (SIGTERM, as
 * a deploy does, then SIGKILL, as a crash does) and started again on the same port. For each client: the
 * time from the server answering again to the client being back in its room (its next `all_users`).
 * The same clients and the same restart against a bare Socket.IO server give the floor (the clients'
 * back-off and the connection itself), measured in the same run. Figures only, never pass/fail; the goal
 * is every client back within 5 s.
 *
 *   npm run bench:rejoin             BENCH_CLIENTS=100 by default
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { io, type Socket } from 'socket.io-client';
import { answering, freePort, sleep, spawnServer, stop } from '../server-process.ts';

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 100);
const BARE = path.join(import.meta.dirname, 'bare-server.ts');
const GOAL_MS = 5000;
const ADMIN = { login: 'bench@example.org', password: 'bench-rejoin-password-1' };
type Kind = 'talkgroup' | 'bare';

async function setUp(kind: Kind, port: number): Promise<{ token: string; room: string }> {
  if (kind === 'bare') return { token: 'any', room: 'Bench' };
  const call = async (url: string, body: object, token?: string) =>
    (
      await fetch(`http://127.0.0.1:${port}${url}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { 'x-access-token': token } : {}) },
        body: JSON.stringify(body),
      })
    ).json();
  const token = (await call('/user/api/login', { user_email: ADMIN.login, user_password: ADMIN.password })).user
    .authToken;
  const channel = (await call('/user/api/createChannel', { channelName: 'Rejoin Bench' }, token)).res;
  return { token, room: channel.rtcSession };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function measure(kind: Kind): Promise<Record<string, number[]>> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'talkgroup-rejoin-'));
  let child = spawnServer(port, dataDir, { bare: kind === 'bare' ? BARE : undefined, admin: ADMIN });
  await answering(port);
  const { token, room } = await setUp(kind, port);
  // The web app's back-off (packages/web/src/api/socket.ts).
  const joinedAt: number[][] = Array.from({ length: CLIENTS }, () => []);
  const sockets: Socket[] = [];
  for (let i = 0; i < CLIENTS; i += 1) {
    const socket = io(`http://127.0.0.1:${port}`, {
      query: { token },
      transports: ['websocket'],
      reconnectionDelay: 500,
      reconnectionDelayMax: 5000,
      forceNew: true,
    });
    socket.on('connect', () => socket.emit('join_room', { room }));
    socket.on('all_users', () => joinedAt[i].push(performance.now()));
    sockets.push(socket);
  }
  while (joinedAt.some((times) => times.length === 0)) await sleep(20);

  const figures: Record<string, number[]> = {};
  for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
    const before = joinedAt.map((times) => times.length);
    await stop(child, signal);
    while (sockets.some((socket) => socket.connected)) await sleep(10);
    child = spawnServer(port, dataDir, { bare: kind === 'bare' ? BARE : undefined, admin: ADMIN });
    const upAt = await answering(port);
    const deadline = Date.now() + 30_000;
    while (joinedAt.some((times, i) => times.length === before[i]) && Date.now() < deadline) await sleep(10);
    figures[signal] = joinedAt
      .map((times, i) => (times.length > before[i] ? Math.max(0, times[before[i]] - upAt) : Number.POSITIVE_INFINITY))
      .sort((a, b) => a - b);
  }
  for (const socket of sockets) socket.disconnect();
  await stop(child, 'SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
  return figures;
}

const bare = await measure('bare');
const talkgroup = await measure('talkgroup');
console.log(`${CLIENTS} clients in one room; time from the server answering again to each client back in its room`);
console.log('restart   server      p50 ms   p95 ms   max ms   back within 5 s');
for (const signal of ['SIGTERM', 'SIGKILL']) {
  for (const [name, figures] of [
    ['bare', bare[signal]],
    ['talkgroup', talkgroup[signal]],
  ] as const) {
    const within = figures.filter((ms) => ms <= GOAL_MS).length;
    const cells = [50, 95, 100].map((p) => percentile(figures, p).toFixed(0).padStart(8));
    console.log(`${signal.padEnd(9)} ${name.padEnd(10)} ${cells.join(' ')}   ${within}/${figures.length}`);
  }
  const ratio = percentile(talkgroup[signal], 95) / Math.max(1, percentile(bare[signal], 95));
  console.log(`${signal.padEnd(9)} ratio p95 talkgroup/bare: ${ratio.toFixed(2)}`);
}
process.exit(0);
