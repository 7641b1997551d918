import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Message } from '@talkgroup/protocol';
import { Server } from 'socket.io';
import { insertUsers, prepareDatabase, serveTalkgroup } from '../prepared-server.ts';
import type { SocketServerInfo } from '../server-process.ts';

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
  const prepared = await prepareDatabase('bench');
  const { channels, memberships, sessions, db } = prepared.app.services;
  const ids = await insertUsers(db, clients + 1, { name: 'Bench', login: 'bench' });
  const channel = await channels.create('Bench');
  await memberships.add(channel.id, ids);
  const tokens: string[] = [];
  for (const id of ids) tokens.push(await sessions.create(id));
  // The chat's rate limit is not what this measures: one sender sends every round.
  const { port, pid } = await serveTalkgroup(prepared, { CHAT_MESSAGES_PER_MINUTE: '1000000' });
  ready({ port, room: channel.rtcSession, channelId: channel.id, tokens, pid });
}

await (kind === 'bare' ? bare() : talkgroup());
