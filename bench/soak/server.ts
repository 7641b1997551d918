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
import { insertUsers, prepareDatabase, serveTalkgroup } from '../prepared-server.ts';
import { ROOM_SIZE, type SoakServerInfo } from './shape.ts';

const sockets = Number(process.argv[2]);
const idle = Number(process.argv[3] ?? 700);
if (!Number.isInteger(sockets) || sockets < 1 || !Number.isInteger(idle) || idle < 0) {
  console.error('usage: node bench/soak/server.ts <sockets> [idleUsers]');
  process.exit(2);
}

const prepared = await prepareDatabase('soak');
const { db, channels, memberships, sessions } = prepared.app.services;
const ids = await insertUsers(db, sockets + idle, { name: 'Soak', login: 'soak', mapRight: true });
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
    created_at: new Date().toISOString(),
  })
  .returning('id')
  .execute();
const admin = await sessions.create(adminId);
const { port, pid } = await serveTalkgroup(prepared);
const info: SoakServerInfo = {
  port,
  pid,
  rooms: made.slice(0, roomCount).map((channel) => channel.rtcSession),
  channelIds: made.slice(0, roomCount).map((channel) => channel.id),
  tokens,
  admin,
};
process.stdout.write(`${JSON.stringify(info)}\n`);
