/**
 * Where the server's memory stands (issue 36, point 3), tried as a new operator would: Talkgroup started as
 * `npm start` starts it (packages/server/start.js with the server's node flags) on an empty database, then filled
 * through its own API and joined by phones:
 *   1. idle on the empty database (no user yet), 10 s after /healthz first answers;
 *   2. after the first administrator signed up and imported 700 users (createMultipleUsers, a job) whose `canal`
 *      cells put them in 20,000 memberships of 40 channels (created by the import);
 *   3. with 500 sockets in 5 of those channels' rooms: 500 members signed in (`/user/api/login`), each with a
 *      socket.io-client socket that joins its room as the web app does (`pushes=once`, `mode: 'talk'`; `--spec`:
 *      as the spec's clients do, `join_room {room, name}` only), read once the rooms are quiet.
 * Each phase prints the server process's RSS from /proc/<pid>/status (anonymous and file-backed parts), the CPU
 * seconds it spent since the previous reading (start, import and sign-ins, sockets), and with
 * `--metrics` V8's heap and external memory as /metrics reports them (METRICS_TOKEN is then set, so prom-client
 * is loaded: a few MB more than an `npm start` without it). Figures only, never pass/fail; the goals are at most
 * 110 MB idle and at most 200 MB with the sockets.
 *
 *   npm run bench:memory                    SQLite in a temporary DATA_DIR
 *   npm run bench:memory -- --spec          the sockets as the spec's clients
 *   npm run bench:memory -- --metrics       V8's heap figures too (from /metrics)
 *   npm run bench:memory -- --until idle     stop after that phase (idle, populated or sockets)
 *   npm run bench:memory -- --snapshot idle|populated|sockets
 *                                           a heap snapshot of that phase, after its reading, then stop (writing
 *                                           one leaves the process bigger), into BENCH_SNAPSHOT_DIR
 *                                           (./bench-memory-snapshots); summed by bench/memory/heap-summary.ts
 *   BENCH_DATABASE_URL=postgres://…         on PostgreSQL (a schema of its own, dropped at the end)
 *   BENCH_WEB_DIR=/path/to/dist               serve that build of the web app (else packages/web/dist if built)
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  rmSync,
  statSync,
} from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { io, type Socket } from 'socket.io-client';
import { SERVER_NODE_FLAGS } from '../../packages/server/src/ops/node-flags.ts';
import { answering, freePort, START, sleep, stop } from '../server-process.ts';

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  const value = at >= 0 ? Number(process.argv[at + 1]) : fallback;
  if (!Number.isInteger(value) || value <= 0) throw new Error(`--${name} must be a positive whole number`);
  return value;
}

const USERS = option('users', 700);
const MEMBERSHIPS = option('memberships', 20_000);
const CHANNELS = option('channels', 40);
const ROOMS = option('rooms', 5);
const SOCKETS = option('sockets', 500);
const SPEC = process.argv.includes('--spec');
const METRICS = process.argv.includes('--metrics');
const snapshotAt = process.argv.indexOf('--snapshot');
const SNAPSHOT = snapshotAt >= 0 ? process.argv[snapshotAt + 1] : undefined;
if (SNAPSHOT !== undefined && !['idle', 'populated', 'sockets'].includes(SNAPSHOT))
  throw new Error('--snapshot takes idle, populated or sockets');
const SNAPSHOTS = path.resolve(process.env.BENCH_SNAPSHOT_DIR ?? 'bench-memory-snapshots');
const untilAt = process.argv.indexOf('--until');
const UNTIL = SNAPSHOT ?? (untilAt >= 0 ? process.argv[untilAt + 1] : 'sockets');
if (!['idle', 'populated', 'sockets'].includes(UNTIL)) throw new Error('--until takes idle, populated or sockets');
/** How long the server is left alone before each reading. */
const SETTLE_MS = 10_000;
const PASSWORD = 'Memory-bench-2026!';
const METRICS_TOKEN = randomBytes(16).toString('hex');
const ROOT = path.resolve(import.meta.dirname, '../..');
/** The built web app to serve: BENCH_WEB_DIR, else packages/web/dist when there is one. */
const WEB_DIR = path.resolve(process.env.BENCH_WEB_DIR ?? path.join(ROOT, 'packages/web/dist'));

const serving = existsSync(path.join(WEB_DIR, 'index.html'));

if (MEMBERSHIPS > USERS * CHANNELS) throw new Error('--memberships is more than --users times --channels');
if (SOCKETS > USERS || ROOMS > CHANNELS) throw new Error('more sockets than users, or more rooms than channels');

interface Reading {
  phase: string;
  /** The server's CPU seconds (user + system) since the previous reading. */
  cpuSeconds: number;
  rssMb: number;
  anonMb: number;
  fileMb: number;
  heapUsedMb: number;
  heapTotalMb: number;
  externalMb: number;
}

let cpuBefore = 0;
/** CPU seconds (user + system) of the process since the last call, from /proc. */
function cpuSince(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  const total = (Number(fields[11]) + Number(fields[12])) / 100;
  const spent = total - cpuBefore;
  cpuBefore = total;
  return spent;
}

function procStatus(pid: number): { rssMb: number; anonMb: number; fileMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024;
  return { rssMb: kb('VmRSS'), anonMb: kb('RssAnon'), fileMb: kb('RssFile') };
}

/** RSS first (reading /metrics allocates), then V8's figures from /metrics (with --metrics). */
async function read(phase: string, pid: number, base: string): Promise<Reading> {
  const rss = procStatus(pid);
  const cpuSeconds = cpuSince(pid);
  if (!METRICS)
    return { phase, cpuSeconds, ...rss, heapUsedMb: Number.NaN, heapTotalMb: Number.NaN, externalMb: Number.NaN };
  const text = await (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  const metric = (name: string) =>
    Number(new RegExp(`^talkgroup_${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text)?.[1] ?? Number.NaN) / 2 ** 20;
  return {
    phase,
    cpuSeconds,
    ...rss,
    heapUsedMb: metric('nodejs_heap_size_used_bytes'),
    heapTotalMb: metric('nodejs_heap_size_total_bytes'),
    externalMb: metric('nodejs_external_memory_bytes'),
  };
}

/**
 * Writes a heap snapshot of the server (SIGUSR2, --heapsnapshot-signal) into SNAPSHOTS as `<name>.heapsnapshot`.
 * Writing one leaves the process with more memory than before: it is taken after the phase's reading, and the run
 * stops there (`--snapshot idle|populated|sockets`).
 */
async function snapshot(server: ChildProcess, cwd: string, name: string): Promise<void> {
  if (!SNAPSHOT || !name.endsWith(SNAPSHOT)) return;
  const before = new Set(readdirSync(cwd));
  server.kill('SIGUSR2');
  for (let i = 0; i < 1200; i += 1) {
    await sleep(500);
    const written = readdirSync(cwd).find((file) => file.endsWith('.heapsnapshot') && !before.has(file));
    if (!written) continue;
    // Complete once the JSON is closed.
    const file = path.join(cwd, written);
    const { size } = statSync(file);
    if (size < 2) continue;
    const tail = Buffer.alloc(2);
    const fd = openSync(file, 'r');
    readSync(fd, tail, 0, 2, size - 2);
    closeSync(fd);
    if (tail.toString() !== ']}') continue;
    const target = path.join(SNAPSHOTS, `${name}.heapsnapshot`);
    mkdirSync(SNAPSHOTS, { recursive: true });
    copyFileSync(file, target);
    rmSync(file);
    console.log(`heap snapshot: ${target}`);
    return;
  }
  throw new Error('no heap snapshot was written');
}

async function call<T>(base: string, route: string, body: unknown, token?: string): Promise<T> {
  const response = await fetch(`${base}/user/api/${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { 'x-access-token': token } : {}) },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as T & { success?: boolean; result?: unknown };
  if (!response.ok || answer.success === false)
    throw new Error(`${route}: ${response.status} ${JSON.stringify(answer)}`);
  return answer;
}

/** Runs `task` over `items`, `width` at a time. */
async function pool<T, R>(items: T[], width: number, task: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await task(items[index], index);
      }
    }),
  );
  return results;
}

/**
 * Channel c's members: the MEMBERSHIPS / CHANNELS users from c * stride on, round the list (each channel as many
 * members, each user in about as many channels). The first ROOMS channels are the rooms; a room's sockets are
 * members of it that no other room took.
 */
function plan() {
  const perChannel = Math.floor(MEMBERSHIPS / CHANNELS);
  const stride = Math.max(1, Math.floor(USERS / CHANNELS));
  const channelsOf = Array.from({ length: USERS }, () => [] as number[]);
  for (let c = 0; c < CHANNELS; c += 1) {
    const extra = c < MEMBERSHIPS - perChannel * CHANNELS ? 1 : 0;
    for (let k = 0; k < perChannel + extra; k += 1) channelsOf[(c * stride + k) % USERS].push(c);
  }
  const taken = new Set<number>();
  const sockets: Array<{ user: number; room: number }> = [];
  for (let r = 0; r < ROOMS; r += 1) {
    const want = Math.floor(SOCKETS / ROOMS) + (r < SOCKETS % ROOMS ? 1 : 0);
    let found = 0;
    for (let u = 0; u < USERS && found < want; u += 1) {
      if (taken.has(u) || !channelsOf[u].includes(r)) continue;
      taken.add(u);
      sockets.push({ user: u, room: r });
      found += 1;
    }
    if (found < want) throw new Error(`channel ${r} has too few members for ${want} sockets`);
  }
  return { channelsOf, sockets };
}

const channelName = (c: number) => `Memory ${String(c).padStart(2, '0')}`;
const login = (u: number) => `memory${u}@example.org`;

function report(readings: Reading[]): void {
  const database = process.env.BENCH_DATABASE_URL ? 'PostgreSQL' : 'SQLite';
  console.log(
    `Server memory as \`npm start\` runs it (${database}, ${serving ? 'serving the web app' : 'no web app'}, flags ${SERVER_NODE_FLAGS.join(' ')}, load ${loadavg()[0].toFixed(1)})`,
  );
  console.log(
    'phase                                                    |  RSS MB | anon MB | file MB | heap used MB | heap total MB | external MB | CPU s',
  );
  const fmt = (value: number, width: number) => (Number.isNaN(value) ? '—' : value.toFixed(1)).padStart(width);
  for (const r of readings)
    console.log(
      `${r.phase.padEnd(56)} | ${fmt(r.rssMb, 7)} | ${fmt(r.anonMb, 7)} | ${fmt(r.fileMb, 7)} | ${fmt(r.heapUsedMb, 12)} | ${fmt(r.heapTotalMb, 13)} | ${fmt(r.externalMb, 11)} | ${fmt(r.cpuSeconds, 5)}`,
    );
  console.log('Goals: at most 110 MB RSS idle on an empty database; at most 200 MB with the sockets.');
  if (SNAPSHOT) console.log(`Summed: node bench/memory/heap-summary.ts ${SNAPSHOTS}/*.heapsnapshot`);
}

async function main() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'talkgroup-memory-'));
  const databaseUrl = process.env.BENCH_DATABASE_URL || undefined;
  const pgSchema = databaseUrl ? `memory_${randomBytes(6).toString('hex')}` : undefined;
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    // The built web app when there is one (as `npm start` serves it), without building it here; the report says which.
    WEB_DIR: serving ? WEB_DIR : '',
    LOG_LEVEL: 'warn',
    ...(METRICS ? { METRICS_TOKEN } : {}),
    // Every socket comes from 127.0.0.1: the per-address limits must not refuse them.
    CONNECTION_RATE_PER_MINUTE: '1000000',
  };
  if (databaseUrl && pgSchema) {
    const { openDatabase } = await import('../../packages/server/src/db/open.ts');
    await (await openDatabase({ dataDir, databaseUrl, pgSchema })).close();
    const url = new URL(databaseUrl);
    url.searchParams.set('options', `-c search_path=${pgSchema}`);
    env.DATABASE_URL = url.toString();
  }
  const port = await freePort();
  env.PORT = String(port);
  const base = `http://127.0.0.1:${port}`;
  const args = [...SERVER_NODE_FLAGS, ...(SNAPSHOT ? ['--heapsnapshot-signal=SIGUSR2'] : []), START];
  const server = spawn(process.execPath, args, { cwd: dataDir, env, stdio: ['ignore', 'ignore', 'inherit'] });
  const pid = server.pid as number;
  const sockets: Socket[] = [];
  const readings: Reading[] = [];
  try {
    await answering(port);
    await sleep(SETTLE_MS);
    readings.push(await read('idle, empty database', pid, base));
    await snapshot(server, dataDir, '1-idle');
    if (UNTIL === 'idle') return report(readings);

    // The first account of an empty database is its administrator.
    await call(base, 'signUpUser', {
      firstName: 'Memory',
      lastName: 'Admin',
      email: 'memory-admin@example.org',
      password: PASSWORD,
      phone_number: '',
    });
    const admin = (
      await call<{ user: { authToken: string } }>(base, 'login', {
        user_email: 'memory-admin@example.org',
        user_password: PASSWORD,
      })
    ).user.authToken;
    const { channelsOf, sockets: planned } = plan();
    const imported = await call<{ jobId?: number }>(
      base,
      'createMultipleUsers',
      {
        createChannels: true,
        userData: channelsOf.map((channels, u) => ({
          firstName: 'Memory',
          lastName: String(u),
          identifier: login(u),
          pseudo: `m${u}`,
          password: PASSWORD,
          mapRight: '1',
          canal: channels.map(channelName).join(';'),
        })),
      },
      admin,
    );
    for (;;) {
      if (imported.jobId === undefined) break;
      const job = await call<{ state: string; error: string | null }>(
        base,
        'getImportJob',
        { jobId: imported.jobId },
        admin,
      );
      if (job.state === 'done') break;
      if (job.state === 'failed') throw new Error(`the import failed: ${job.error}`);
      await sleep(1000);
    }
    const channels = (
      await call<{ res: Array<{ id: number; name: string; rtcSession: string; users: unknown[] }> }>(
        base,
        'getAllChannels',
        {},
        admin,
      )
    ).res;
    const memberships = channels.reduce((n, channel) => n + channel.users.length, 0);
    const rooms = Array.from({ length: ROOMS }, (_, r) => {
      const channel = channels.find((c) => c.name === channelName(r));
      if (!channel) throw new Error(`the import did not create ${channelName(r)}`);
      return channel.rtcSession;
    });
    await sleep(SETTLE_MS);
    readings.push(await read(`${USERS} users, ${memberships} memberships in ${channels.length} channels`, pid, base));
    await snapshot(server, dataDir, '2-populated');
    if (UNTIL === 'populated') return report(readings);

    // Each phone signs in, connects and joins its room.
    const tokens = await pool(planned, 8, async ({ user }) => {
      const signedIn = await call<{ user: { authToken: string } }>(base, 'login', {
        user_email: login(user),
        user_password: PASSWORD,
      });
      return signedIn.user.authToken;
    });
    let lastEventAt = Date.now();
    await pool(planned, 50, ({ user, room }, i) => {
      const socket = io(base, {
        transports: ['websocket'],
        query: SPEC ? { token: tokens[i] } : { token: tokens[i], pushes: 'once' },
        reconnection: false,
        forceNew: true,
      });
      sockets.push(socket);
      socket.onAny(() => {
        lastEventAt = Date.now();
      });
      return new Promise<void>((resolve, reject) => {
        socket.once('connect_error', reject);
        socket.once('connect', () => {
          const join = SPEC
            ? { room: rooms[room], name: `Memory ${user}` }
            : { room: rooms[room], name: `Memory ${user}`, mode: 'talk' };
          socket.timeout(60_000).emit('join_room', join, (error: Error | null, answer: { success: boolean }) => {
            if (error || !answer.success) reject(error ?? new Error(JSON.stringify(answer)));
            else resolve();
          });
        });
      });
    });
    while (Date.now() - lastEventAt < 2000) await sleep(250);
    await sleep(SETTLE_MS);
    const connected = sockets.filter((socket) => socket.connected).length;
    readings.push(await read(`${connected} sockets in ${ROOMS} rooms${SPEC ? " (spec's clients)" : ''}`, pid, base));
    await snapshot(server, dataDir, '3-sockets');
  } finally {
    for (const socket of sockets) socket.close();
    await stop(server);
    if (databaseUrl && pgSchema) {
      const { openDatabase } = await import('../../packages/server/src/db/open.ts');
      const { sql } = await import('kysely');
      const again = await openDatabase({ dataDir, databaseUrl, pgSchema });
      await sql`drop schema if exists ${sql.id(pgSchema)} cascade`.execute(again.db);
      await again.close();
    }
    rmSync(dataDir, { recursive: true, force: true });
  }

  report(readings);
}

await main();
process.exit(0);
