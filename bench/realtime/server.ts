/**
 * One server for the real-time benchmark, in a process of its own (so that clients do not share its event
 * loop). Prints one JSON line {port, room, channelId, tokens} on stdout, then serves until SIGTERM.
 *
 *   node bench/realtime/server.ts talkgroup <clients>   Talkgroup: buildApp on a fresh database, <clients>+1
 *                                                        members of one channel, each with a session token
 *   node bench/realtime/server.ts bare <clients>        a bare Socket.IO server that broadcasts a message of
 *                                                        the same shape to the room, nothing else
 */
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

const [kind, countArg] = process.argv.slice(2);
const clients = Number(countArg);
if (!['talkgroup', 'bare'].includes(kind) || !Number.isInteger(clients) || clients < 1) {
  console.error('usage: node bench/realtime/server.ts talkgroup|bare <clients>');
  process.exit(2);
}

function ready(info: { port: number; room: string; channelId: number; tokens: string[] }) {
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

async function talkgroup() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'talkgroup-bench-'));
  const databaseUrl = process.env.BENCH_DATABASE_URL || undefined;
  const pgSchema = databaseUrl ? `bench_${randomBytes(6).toString('hex')}` : undefined;
  const database = await openDatabase({ dataDir, databaseUrl, pgSchema });
  // The chat's rate limit is not what this measures: one sender sends every round.
  const config = { ...loadConfig({ DATA_DIR: dataDir, CHAT_MESSAGES_PER_MINUTE: '1000000' }), webDir: undefined };
  const app = await buildApp(config, { database });
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

  await app.fastify.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.fastify.server.address() as AddressInfo;
  ready({ port, room: channel.rtcSession, channelId: channel.id, tokens });

  process.on('SIGTERM', async () => {
    const timer = setTimeout(() => process.exit(1), 5000);
    timer.unref();
    if (pgSchema) await sql`drop schema if exists ${sql.id(pgSchema)} cascade`.execute(db);
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  });
}

await (kind === 'bare' ? bare() : talkgroup());
