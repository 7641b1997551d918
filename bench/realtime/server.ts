/**
 * One server for the real-time benchmarks, in a process of its own (so that clients do not share its event
 * loop). Prints one JSON line {port, room, channelId, tokens, pid?} on stdout, then serves until SIGTERM.
 *
 *   node bench/realtime/server.ts talkgroup <clients>   Talkgroup (start.js, as npm start runs it) on a fresh
 *                                                        database: <clients>+1 members of one channel, each
 *                                                        with a session token
 *   node bench/realtime/server.ts bare <clients>        a bare Socket.IO server that broadcasts a message of
 *                                                        the same shape to the room, nothing else
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Message } from '@talkgroup/protocol';
import { sql } from 'kysely';
import { Server } from 'socket.io';
import { buildApp } from '../../packages/server/src/app.ts';
import { loadConfig } from '../../packages/server/src/config.ts';
import { openDatabase } from '../../packages/server/src/db/open.ts';
import { SERVER_NODE_FLAGS } from '../../packages/server/src/ops/node-flags.ts';
import { answering, freePort, type SocketServerInfo, START, stop } from '../server-process.ts';

const [kind, countArg] = process.argv.slice(2);
const clients = Number(countArg);
if (!['talkgroup', 'bare'].includes(kind) || !Number.isInteger(clients) || clients < 1) {
  console.error('usage: node bench/realtime/server.ts talkgroup|bare <clients>');
  process.exit(2);
}

function ready(info: SocketServerInfo) {
  process.stdout.write(`${JSON.stringify(info)}\n`);
}

async function bare() {
  const http = createServer();
  const io = new Server(http, { serveClient: false });
  let id = 0;
  io.on('connection', (socket) => {
    socket.on('join_room', (payload: { room: string }) => {
      socket.join(payload.room);
      socket.emit('all_users', []);
    });
    socket.on('message', (payload: { channelId: number; message: string }) => {
      id += 1;
      const message: Message = {
        id,
        userId: 1,
        channelId: payload.channelId,
        textMsg: payload.message,
        createdAt: new Date().toISOString(),
        file: null,
        user: { display_name: 'Bench 0' },
      };
      io.to('Bench').emit('messageResponse', message);
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const tokens = Array.from({ length: clients + 1 }, () => 'any');
  ready({ port: (http.address() as AddressInfo).port, room: 'Bench', channelId: 1, tokens });
  process.on('SIGTERM', () => {
    io.close();
    process.exit(0);
  });
}

/**
 * Talkgroup as `npm start` runs it: the database is prepared here (members, one channel, a session each), then
 * packages/server/start.js serves it in a process of its own, with the server's node flags; its pid is in
 * the line printed, so that the benchmarks read the memory and CPU of the server, not of this launcher.
 */
async function talkgroup() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'talkgroup-bench-'));
  const databaseUrl = process.env.BENCH_DATABASE_URL || undefined;
  const pgSchema = databaseUrl ? `bench_${randomBytes(6).toString('hex')}` : undefined;
  const database = await openDatabase({ dataDir, databaseUrl, pgSchema });
  const app = await buildApp({ ...loadConfig({ DATA_DIR: dataDir }), webDir: undefined }, { database });
  const { db, channels, memberships, sessions } = app.services;

  // Members written directly (no password hashing: nobody signs in with a password here).
  const at = new Date().toISOString();
  const ids: number[] = [];
  for (let i = 0; i <= clients; i += 500) {
    const rows = await db
      .insertInto('users')
      .values(
        Array.from({ length: Math.min(500, clients + 1 - i) }, (_, k) => ({
          first_name: 'Bench',
          last_name: String(i + k),
          identifier: `bench${i + k}@example.org`,
          pseudo: '',
          display_name: `Bench ${i + k}`,
          phone_number: '',
          password_hash: 'none',
          map_right: 0,
          role: 'member' as const,
          created_at: at,
        })),
      )
      .returning('id')
      .execute();
    ids.push(...rows.map((r) => r.id));
  }
  const channel = await channels.create('Bench');
  await memberships.add(channel.id, ids);
  const tokens: string[] = [];
  for (const id of ids) tokens.push(await sessions.create(id));
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
      // The chat's rate limit is not what this measures: one sender sends every round.
      CHAT_MESSAGES_PER_MINUTE: '1000000',
      // Every simulated client connects from 127.0.0.1: the per-address flood limit must not refuse them.
      CONNECTION_RATE_PER_MINUTE: '1000000',
      ...(databaseUrl ? { DATABASE_URL: url.toString() } : {}),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  server.once('exit', (code) => {
    if (!stopping) process.exit(code ?? 1);
  });
  await answering(port);
  ready({ port, room: channel.rtcSession, channelId: channel.id, tokens, pid: server.pid as number });

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
}

await (kind === 'bare' ? bare() : talkgroup());
