/**
 * The soak run's server (run.ts), in a process of its own: Talkgroup as `npm start` runs it, on a populated
 * database prepared here: one member per socket in channels of 50 (a room each), every member also in three
 * other channels, and idle users besides (`--idle`, default 700). Prints one JSON line
 * {port, pid, rooms, channelIds, tokens, admin}, then serves until SIGTERM.
 *
 *   node bench/soak/server.ts <sockets> [idleUsers]
 *
 * SQLite by default; BENCH_DATABASE_URL=postgres://... for PostgreSQL (in a schema of its own, dropped at the end).
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { buildApp } from '../../packages/server/src/app.ts';
import { loadConfig } from '../../packages/server/src/config.ts';
import { openDatabase } from '../../packages/server/src/db/open.ts';
import { SERVER_NODE_FLAGS } from '../../packages/server/src/ops/node-flags.ts';
import { answering, freePort, START, stop } from '../server-process.ts';
import { ROOM_SIZE, type SoakServerInfo } from './shape.ts';

const sockets = Number(process.argv[2]);
const idle = Number(process.argv[3] ?? 700);
if (!Number.isInteger(sockets) || sockets < 1 || !Number.isInteger(idle) || idle < 0) {
  console.error('usage: node bench/soak/server.ts <sockets> [idleUsers]');
  process.exit(2);
}

const dataDir = mkdtempSync(path.join(tmpdir(), 'talkgroup-soak-'));
const databaseUrl = process.env.BENCH_DATABASE_URL || undefined;
const pgSchema = databaseUrl ? `soak_${randomBytes(6).toString('hex')}` : undefined;
const database = await openDatabase({ dataDir, databaseUrl, pgSchema });
const app = await buildApp({ ...loadConfig({ DATA_DIR: dataDir }), webDir: undefined }, { database });
const { db, channels, memberships, sessions } = app.services;

// Users written directly (no password hashing: everyone here has a session token already).
const at = new Date().toISOString();
const ids: number[] = [];
const total = sockets + idle;
for (let i = 0; i < total; i += 500) {
  const rows = await db
    .insertInto('users')
    .values(
      Array.from({ length: Math.min(500, total - i) }, (_, k) => ({
        first_name: 'Soak',
        last_name: String(i + k),
        identifier: `soak${i + k}@example.org`,
        pseudo: '',
        display_name: `Soak ${i + k}`,
        phone_number: '',
        password_hash: 'none',
        map_right: 1,
        role: 'member' as const,
        created_at: at,
      })),
    )
    .returning('id')
    .execute();
  ids.push(...rows.map((row) => row.id));
}
const roomCount = Math.ceil(sockets / ROOM_SIZE);
const made = [];
for (let c = 0; c < Math.max(roomCount, 4); c++) made.push(await channels.create(`Soak ${c}`));
for (let c = 0; c < made.length; c++) {
  const own = ids.slice(c * ROOM_SIZE, Math.min((c + 1) * ROOM_SIZE, sockets));
  // Three other channels' members too, and a share of the idle users.
  const others = [1, 2, 3].flatMap((step) => {
    const from = ((c + step) % made.length) * ROOM_SIZE;
    return ids.slice(from, Math.min(from + ROOM_SIZE, sockets));
  });
  const idlers = ids.slice(sockets).filter((_, k) => k % made.length === c);
  await memberships.add(made[c].id, [...new Set([...own, ...others, ...idlers])]);
}
const tokens: string[] = [];
for (const id of ids.slice(0, sockets)) tokens.push(await sessions.create(id));
const [{ id: adminId }] = await db
  .insertInto('users')
  .values({
    first_name: 'Soak',
    last_name: 'Admin',
    identifier: 'soak-admin@example.org',
    pseudo: '',
    display_name: 'Soak Admin',
    phone_number: '',
    password_hash: 'none',
    map_right: 1,
    role: 'admin',
    created_at: at,
  })
  .returning('id')
  .execute();
const admin = await sessions.create(adminId);
await app.close();

const port = await freePort();
const url = new URL(databaseUrl ?? 'postgres://unused');
if (pgSchema) url.searchParams.set('options', `-c search_path=${pgSchema}`);
let stopping = false;
const server = spawn(process.execPath, [...SERVER_NODE_FLAGS, START], {
  env: {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    WEB_DIR: '',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    // Every socket comes from this one address: the per-address connection rate is for floods, not for this.
    CONNECTION_RATE_PER_MINUTE: '1000000',
    ...(databaseUrl ? { DATABASE_URL: url.toString() } : {}),
  },
  stdio: ['ignore', 'ignore', 'inherit'],
});
server.once('exit', (code) => {
  if (!stopping) process.exit(code ?? 1);
});
await answering(port);
const info: SoakServerInfo = {
  port,
  pid: server.pid as number,
  rooms: made.slice(0, roomCount).map((channel) => channel.rtcSession),
  channelIds: made.slice(0, roomCount).map((channel) => channel.id),
  tokens,
  admin,
};
process.stdout.write(`${JSON.stringify(info)}\n`);

process.on('SIGTERM', async () => {
  stopping = true;
  const timer = setTimeout(() => process.exit(1), 10_000);
  timer.unref();
  await stop(server);
  if (pgSchema) {
    const again = await openDatabase({ dataDir, databaseUrl, pgSchema });
    await sql`drop schema if exists ${sql.id(pgSchema)} cascade`.execute(again.db);
    await again.close();
  }
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
});
