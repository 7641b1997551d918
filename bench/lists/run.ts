/**
 * Whole lists at the size of a real organisation: getAllUsers and getAllChannels at 10,000 and 100,000 users,
 * against a bare Fastify route that sends the same bytes (measured in the same run, same process, one request
 * at a time). Per list and size:
 * - unchanged: p50/p95 of the plain JSON answer, of the compressed answer (as a browser asks: gzip, deflate,
 *   br), of the 304 a console gets for an unchanged list; the answer's size raw and compressed;
 * - right after a change (one new activity by one member in one channel, as a live organisation sees it every
 *   second): p50 of the plain answer with its ratio to the bare server, and of the compressed answer;
 * - right after many changes (1% of the users each got an activity): the same two figures;
 * - the process's RSS.
 * Figures only, never pass/fail; the goal is p50 within 3x the bare server at 10,000 users, even right after a
 * change.
 *
 * Also: the first answer after the start (built from scratch, as after a restart or 4.5 idle minutes).
 *
 *   npm run bench:lists                     BENCH_SIZES=10000,100000, BENCH_REQUESTS=15 per figure
 *   BENCH_DATABASE_URL=postgres://…         on PostgreSQL (a schema of its own, dropped after)
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import Fastify from 'fastify';
import { sql } from 'kysely';
import { buildApp } from '../../packages/server/src/app.ts';
import { loadConfig } from '../../packages/server/src/config/config.ts';
import { openDatabase } from '../../packages/server/src/db/open.ts';

const SIZES = (process.env.BENCH_SIZES ?? '10000,100000').split(',').map(Number);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 15);
const CHANNELS = 50;

interface Answer {
  status: number;
  body: Buffer;
  headers: Record<string, string | string[] | undefined>;
  ms: number;
}

function post(url: string, headers: Record<string, string>): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          body: Buffer.concat(chunks),
          headers: res.headers,
          ms: performance.now() - started,
        }),
      );
    });
    req.on('error', reject);
    req.end('{}');
  });
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};

async function times(
  url: string,
  headers: Record<string, string>,
  before?: () => Promise<unknown>,
): Promise<{ p50: number; p95: number; last: Answer; first: number }> {
  let last = await post(url, headers); // warm-up
  const first = last.ms;
  const ms: number[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    await before?.();
    last = await post(url, headers);
    ms.push(last.ms);
  }
  return { p50: percentile(ms, 50), p95: percentile(ms, 95), last, first };
}

async function measure(users: number) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'talkgroup-bench-lists-'));
  const databaseUrl = process.env.BENCH_DATABASE_URL;
  const pgSchema = databaseUrl ? `bench_lists_${process.pid}_${users}` : undefined;
  const database = await openDatabase({ dataDir, databaseUrl, pgSchema });
  const app = await buildApp({ ...loadConfig({ DATA_DIR: dataDir }), webDir: undefined }, { database });
  const { db, sessions } = app.services;
  const at = new Date().toISOString();
  // Users, their memberships (2 channels each), one activity and one position each; a tenth connected.
  const admin = await db
    .insertInto('users')
    .values({
      first_name: 'Ada',
      last_name: 'Admin',
      identifier: 'admin@example.org',
      pseudo: '',
      display_name: 'Ada Admin',
      phone_number: '',
      password_hash: 'none',
      map_right: 1,
      role: 'admin',
      created_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const channelIds: number[] = [];
  for (let c = 0; c < CHANNELS; c++)
    channelIds.push(
      (
        await db
          .insertInto('channels')
          .values({ name: `Canal ${c}`, rtc_session: `Canal${c}`, created_at: at })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id,
    );
  // Each member and the first channel it belongs to: the changes below are activities there.
  const members: Array<{ id: number; channelId: number }> = [];
  for (let i = 0; i < users; i += 500) {
    const n = Math.min(500, users - i);
    await db.transaction().execute(async (trx) => {
      const ids = (
        await trx
          .insertInto('users')
          .values(
            Array.from({ length: n }, (_, k) => ({
              first_name: `Bench${i + k}`,
              last_name: `Member${(i + k) % 977}`,
              identifier: `bench${i + k}@example.org`,
              pseudo: `b${i + k}`,
              display_name: `Bench${i + k} Member${(i + k) % 977}`,
              phone_number: '+33 6 00 00 00 00',
              password_hash: 'none',
              map_right: (i + k) % 2,
              role: 'member' as const,
              created_at: at,
            })),
          )
          .returning('id')
          .execute()
      ).map((r) => r.id);
      for (const [k, id] of ids.entries()) members.push({ id, channelId: channelIds[(i + k) % CHANNELS] as number });
      await trx
        .insertInto('channel_members')
        .values(
          ids.flatMap((id, k) => [
            { channel_id: channelIds[(i + k) % CHANNELS] as number, user_id: id, created_at: at },
            { channel_id: channelIds[(i + k + 7) % CHANNELS] as number, user_id: id, created_at: at },
          ]),
        )
        .execute();
      await trx
        .insertInto('activities')
        .values(
          ids.map((id, k) => ({
            type: 'login',
            user_id: id,
            user_first_name: `Bench${i + k}`,
            user_last_name: 'Member',
            user_display_name: `Bench${i + k} Member`,
            created_at: at,
          })),
        )
        .execute();
      await trx
        .insertInto('user_positions')
        .values(ids.map((id) => ({ user_id: id, lat: 48.85, lng: 2.35, accuracy: 12, created_at: at })))
        .execute();
      await trx
        .insertInto('user_sockets')
        .values(
          ids
            .filter((_, k) => (i + k) % 10 === 0)
            .map((id, k) => ({
              user_id: id,
              channel_id: channelIds[k % CHANNELS] as number,
              socket_id: `s${id}`,
              instance_id: app.services.config.instanceId,
              mic_state: 0,
              created_at: at,
            })),
        )
        .execute();
    });
  }
  const token = await sessions.create(admin.id);
  await app.fastify.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.fastify.server.address() as AddressInfo).port}`;

  const auth = { 'x-access-token': token };
  const asBrowser = { ...auth, 'accept-encoding': 'gzip, deflate, br' };
  const asPlain = { ...auth, 'accept-encoding': 'identity' };
  // What a live organisation does between two reads: someone talks in a channel (one new activity, seen by
  // both lists), or 1% of the members each did something.
  let tick = 0;
  const activityOf = (member: { id: number; channelId: number }) => ({
    type: 'channel_talk',
    user_id: member.id,
    user_first_name: 'Bench',
    user_last_name: 'Member',
    user_display_name: 'Bench Member',
    channel_id: member.channelId,
    channel_name: 'Canal',
    created_at: new Date(Date.parse(at) + ++tick).toISOString(),
  });
  const oneChange = () =>
    db
      .insertInto('activities')
      .values(activityOf(members[Math.floor(Math.random() * members.length)] as { id: number; channelId: number }))
      .execute();
  const manyChanges = async () => {
    const count = Math.max(1, Math.round(members.length / 100));
    const picked = Array.from(
      { length: count },
      () => members[Math.floor(Math.random() * members.length)] as { id: number; channelId: number },
    );
    for (let i = 0; i < picked.length; i += 500)
      await db
        .insertInto('activities')
        .values(picked.slice(i, i + 500).map(activityOf))
        .execute();
  };

  const rows: string[] = [];
  const changedRows: string[] = [];
  for (const [name, call] of [
    ['getAllUsers', '/user/api/getAllUsers'],
    ['getAllChannels', '/user/api/getAllChannels'],
  ] as const) {
    const url = `${base}${call}`;
    const plain = await times(url, asPlain);
    const br = await times(url, asBrowser);
    const changedPlain = await times(url, asPlain, oneChange);
    const changed = await times(url, asBrowser, oneChange);
    const manyPlain = await times(url, asPlain, manyChanges);
    const many = await times(url, asBrowser, manyChanges);
    const etag = String(many.last.headers.etag);
    const unchanged = await times(url, { ...auth, 'if-none-match': etag, 'accept-encoding': 'br' });

    // The bare server: the same bytes, from memory.
    const bare = Fastify();
    const plainBytes = plain.last.body;
    const brBytes = br.last.body;
    const encoding = String(br.last.headers['content-encoding'] ?? 'identity');
    bare.post('/plain', (_req, reply) => reply.header('content-type', 'application/json').send(plainBytes));
    bare.post('/br', (_req, reply) =>
      reply.header('content-type', 'application/json').header('content-encoding', encoding).send(brBytes),
    );
    await bare.listen({ port: 0, host: '127.0.0.1' });
    const bareBase = `http://127.0.0.1:${(bare.server.address() as AddressInfo).port}`;
    const barePlain = await times(`${bareBase}/plain`, {});
    const bareBr = await times(`${bareBase}/br`, {});
    await bare.close();

    const ratio = (a: number, b: number) => (a / b).toFixed(1);
    const ms = (v: number, width = 6) => v.toFixed(0).padStart(width);
    rows.push(
      `${name.padEnd(14)} | ${String(users).padStart(7)} | ${(plainBytes.length / 1e6).toFixed(1).padStart(6)} MB | ${(
        brBytes.length / 1e3
      )
        .toFixed(0)
        .padStart(
          6,
        )} KB ${encoding.padEnd(4)} | ${ms(plain.p50)} / ${ms(plain.p95, 5)} | ${ms(barePlain.p50)} | ${ratio(
        plain.p50,
        barePlain.p50,
      ).padStart(5)} | ${ms(br.p50)} | ${ms(bareBr.p50)} | ${ratio(br.p50, bareBr.p50).padStart(5)} | ${ms(
        unchanged.p50,
        5,
      )} (${unchanged.last.status}) | ${ms(plain.first, 7)}`,
    );
    changedRows.push(
      `${name.padEnd(14)} | ${String(users).padStart(7)} | ${ms(changedPlain.p50)} / ${ms(changedPlain.p95, 5)} | ${ms(
        barePlain.p50,
      )} | ${ratio(changedPlain.p50, barePlain.p50).padStart(5)} | ${ms(changed.p50)} / ${ms(changed.p95, 5)} ${String(
        changed.last.headers['content-encoding'] ?? 'identity',
      ).padEnd(4)} | ${ms(manyPlain.p50)} / ${ms(manyPlain.p95, 5)} | ${ratio(manyPlain.p50, barePlain.p50).padStart(
        5,
      )} | ${ms(many.p50)} / ${ms(many.p95, 5)}`,
    );
  }
  const rss = process.memoryUsage().rss / 1e6;
  await app.close();
  if (pgSchema) {
    const cleanup = await openDatabase({ dataDir, databaseUrl });
    await sql`drop schema ${sql.id(pgSchema)} cascade`.execute(cleanup.db);
    await cleanup.close();
  }
  rmSync(dataDir, { recursive: true, force: true });
  return { rows, changedRows, rss };
}

const results: Array<{ rows: string[]; changedRows: string[]; rss: number; users: number }> = [];
for (const users of SIZES) results.push({ ...(await measure(users)), users });

console.log(
  `Whole lists vs a bare Fastify sending the same bytes (${process.env.BENCH_DATABASE_URL ? 'PostgreSQL' : 'SQLite'}, ${REQUESTS} requests each, load ${loadavg()[0].toFixed(1)}); ms`,
);
console.log('Unchanged list (compressed: as a browser asks, gzip, deflate, br; the encoding the server chose)');
console.log(
  'list           |   users |   JSON    | compressed     | p50 / p95 plain | bare | ratio | p50 cmp | bare cmp | ratio | 304 p50 | first (built)',
);
for (const r of results) for (const row of r.rows) console.log(row);
console.log('Right after a change (one activity) and after many (1% of the users got an activity)');
console.log(
  'list           |   users | changed plain p50 / p95 | bare | ratio | changed cmp p50 / p95 | 1% plain p50 / p95 | ratio | 1% cmp p50 / p95',
);
for (const r of results) for (const row of r.changedRows) console.log(row);
for (const r of results) console.log(`  process RSS after ${r.users} users: ${r.rss.toFixed(0)} MB`);
console.log('Goal: p50 within 3x the bare server at 10,000 users, right after a change too.');
process.exit(0);
