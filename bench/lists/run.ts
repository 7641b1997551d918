/**
 * Whole lists at the size of a real organisation: getAllUsers and getAllChannels at 10,000 and 100,000 users,
 * against a bare Fastify route that sends the same bytes (measured in the same run, same process, one request
 * at a time). Per list and size: p50/p95 of the plain JSON answer, of the Brotli answer (as a browser asks),
 * of the 304 a console gets for an unchanged list, and of the Brotli answer right after a change (the list built
 * and compressed again); the answer's size raw and compressed; the process's RSS.
 * Figures only, never pass/fail; the goal is p50 within 3x the bare server at 10,000 users.
 *
 *   npm run bench:lists                     BENCH_SIZES=10000,100000, BENCH_REQUESTS=15 per figure
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import Fastify from 'fastify';
import { buildApp } from '../../packages/server/src/app.ts';
import { loadConfig } from '../../packages/server/src/config.ts';
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
): Promise<{ p50: number; p95: number; last: Answer }> {
  let last = await post(url, headers); // warm-up
  const ms: number[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    await before?.();
    last = await post(url, headers);
    ms.push(last.ms);
  }
  return { p50: percentile(ms, 50), p95: percentile(ms, 95), last };
}

async function measure(users: number) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'talkgroup-bench-lists-'));
  const database = await openDatabase({ dataDir });
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

  const rows: string[] = [];
  for (const [name, call] of [
    ['getAllUsers', '/user/api/getAllUsers'],
    ['getAllChannels', '/user/api/getAllChannels'],
  ] as const) {
    const auth = { 'x-access-token': token };
    const plain = await times(`${base}${call}`, { ...auth, 'accept-encoding': 'identity' });
    const br = await times(`${base}${call}`, { ...auth, 'accept-encoding': 'gzip, deflate, br' });
    // After a change (a member's new position): the list is built again.
    const changed = await times(`${base}${call}`, { ...auth, 'accept-encoding': 'gzip, deflate, br' }, () =>
      db
        .insertInto('user_positions')
        .values({ user_id: admin.id, lat: 48.8 + Math.random() / 100, lng: 2.3, accuracy: 5, created_at: at })
        .execute(),
    );
    const etag = String(changed.last.headers.etag);
    const unchanged = await times(`${base}${call}`, { ...auth, 'if-none-match': etag, 'accept-encoding': 'br' });

    // The bare server: the same bytes, from memory.
    const bare = Fastify();
    const plainBytes = plain.last.body;
    const brBytes = br.last.body;
    bare.post('/plain', (_req, reply) => reply.header('content-type', 'application/json').send(plainBytes));
    bare.post('/br', (_req, reply) =>
      reply.header('content-type', 'application/json').header('content-encoding', 'br').send(brBytes),
    );
    await bare.listen({ port: 0, host: '127.0.0.1' });
    const bareBase = `http://127.0.0.1:${(bare.server.address() as AddressInfo).port}`;
    const barePlain = await times(`${bareBase}/plain`, {});
    const bareBr = await times(`${bareBase}/br`, {});
    await bare.close();

    const ratio = (a: number, b: number) => (a / b).toFixed(1);
    rows.push(
      `${name.padEnd(14)} | ${String(users).padStart(7)} | ${(plainBytes.length / 1e6).toFixed(1).padStart(6)} MB | ${(
        brBytes.length / 1e3
      )
        .toFixed(0)
        .padStart(6)} KB | ${plain.p50.toFixed(0).padStart(6)} / ${plain.p95.toFixed(0).padStart(5)} | ${barePlain.p50
        .toFixed(0)
        .padStart(6)} | ${ratio(plain.p50, barePlain.p50).padStart(5)} | ${br.p50.toFixed(0).padStart(6)} | ${bareBr.p50
        .toFixed(0)
        .padStart(6)} | ${ratio(br.p50, bareBr.p50).padStart(5)} | ${unchanged.p50.toFixed(0).padStart(5)} (${
        unchanged.last.status
      }) | ${changed.p50.toFixed(0).padStart(7)}`,
    );
  }
  const rss = process.memoryUsage().rss / 1e6;
  await app.close();
  rmSync(dataDir, { recursive: true, force: true });
  return { rows, rss };
}

const results: Array<{ rows: string[]; rss: number; users: number }> = [];
for (const users of SIZES) results.push({ ...(await measure(users)), users });

console.log(
  `Whole lists vs a bare Fastify sending the same bytes (SQLite, ${REQUESTS} requests each, load ${loadavg()[0].toFixed(1)}); ms`,
);
console.log(
  'list           |   users |   JSON    |   br      | p50 / p95 plain | bare | ratio | p50 br | bare br | ratio | 304 p50 | changed p50 (br)',
);
for (const r of results) {
  for (const row of r.rows) console.log(row);
  console.log(`  process RSS after ${r.users} users: ${r.rss.toFixed(0)} MB`);
}
console.log('Goal: p50 within 3x the bare server at 10,000 users.');
process.exit(0);
