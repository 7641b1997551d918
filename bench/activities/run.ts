/**
 * Does the activity log stay fast at scale? Seeds 1,000 activities, times the calls the Activities page and
 * the dashboard make, then grows the log to 1,000,000 and times them again, in the same run, through
 * fastify.inject (routing, auth, validation, SQL and JSON included).
 *
 *   npm run bench:activities                      SQLite in a temp dir
 *   TEST_DATABASE_URL=postgres://… npm run bench:activities   PostgreSQL too, in a schema of its own
 *   BENCH_ACTIVITIES=200000 …                     a smaller target (quick check)
 *
 * The ratio column is the point: a call whose ratio stays near 1 does not depend on the log's size; and the
 * middle page of the large log is compared with its first page (keyset paging inside the store).
 */
import { performance } from 'node:perf_hooks';
import { ACTIVITIES_PAGE_SIZE, ACTIVITY_TYPES } from '@talkgroup/protocol';
import { sql } from 'kysely';
import type { Db } from '../../packages/server/src/db/schema.ts';
import { databases, signUpAdmin, startApp, type TestApp } from '../../packages/server/test/harness.ts';

const BASELINE = 1_000;
const TARGET = Number(process.env.BENCH_ACTIVITIES ?? 1_000_000);
const USERS = 200;
const CHANNELS = 40;
const ROUNDS = 15;
const SPAN_MS = 120 * 24 * 3600 * 1000;

interface Measured {
  name: string;
  path: string;
  body: (total: number) => object;
}

function pageStart(page: number): number {
  return (page - 1) * ACTIVITIES_PAGE_SIZE;
}
const lastPage = (total: number) => Math.max(1, Math.ceil(total / ACTIVITIES_PAGE_SIZE));

const CALLS: Measured[] = [
  {
    name: 'getAllActivities first page',
    path: '/user/api/getAllActivities/',
    body: () => ({ start: 0, limit: ACTIVITIES_PAGE_SIZE }),
  },
  {
    name: 'getAllActivities middle page',
    path: '/user/api/getAllActivities/',
    body: (total) => ({ start: pageStart(Math.ceil(lastPage(total) / 2)), limit: ACTIVITIES_PAGE_SIZE }),
  },
  {
    name: 'getAllActivities last page',
    path: '/user/api/getAllActivities/',
    body: (total) => ({ start: pageStart(lastPage(total)), limit: ACTIVITIES_PAGE_SIZE }),
  },
  { name: 'getLastActivities', path: '/user/api/getLastActivities/', body: () => ({}) },
  { name: 'getStatistics', path: '/user/api/getStatistics', body: () => ({}) },
  { name: 'getAllUsers (dashboard table)', path: '/user/api/getAllUsers', body: () => ({}) },
  { name: 'getAllChannels (dashboard table)', path: '/user/api/getAllChannels', body: () => ({}) },
];

/** Deterministic pseudo-random numbers, so every run seeds the same log. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1664525 + 1013904223) % 4294967296;
    return state / 4294967296;
  };
}

async function seedPeople(db: Db): Promise<{ users: number[]; channels: Array<{ id: number; name: string }> }> {
  const now = new Date().toISOString();
  const users = await db
    .insertInto('users')
    .values(
      Array.from({ length: USERS }, (_, i) => ({
        first_name: `First${i}`,
        last_name: `Last${i}`,
        identifier: `bench${i}@example.org`,
        display_name: `First${i} Last${i}`,
        password_hash: 'x',
        pseudo: '',
        phone_number: '',
        map_right: 0,
        role: 'member' as const,
        created_at: now,
      })),
    )
    .returning('id')
    .execute();
  const channels = await db
    .insertInto('channels')
    .values(
      Array.from({ length: CHANNELS }, (_, i) => ({ name: `Bench ${i}`, rtc_session: `Bench${i}`, created_at: now })),
    )
    .returning(['id', 'name'])
    .execute();
  const members = channels.flatMap((channel, c) =>
    users
      .filter((_, u) => u % (c + 2) === 0)
      .map((user) => ({ channel_id: channel.id, user_id: user.id, created_at: now })),
  );
  for (let i = 0; i < members.length; i += 1000)
    await db
      .insertInto('channel_members')
      .values(members.slice(i, i + 1000))
      .execute();
  return { users: users.map((u) => u.id), channels };
}

/** Adds activities up to `target`, in multi-row inserts inside transactions of 50,000 rows. */
async function seedActivities(
  db: Db,
  from: number,
  target: number,
  people: Awaited<ReturnType<typeof seedPeople>>,
): Promise<void> {
  const next = random(from + 1);
  const now = Date.now();
  const perInsert = 1000; // 8 values a row: 8,000 parameters, below both databases' limits.
  for (let done = from; done < target; ) {
    const batchEnd = Math.min(target, done + 50_000);
    await db.transaction().execute(async (trx) => {
      while (done < batchEnd) {
        const count = Math.min(perInsert, batchEnd - done);
        const rows = Array.from({ length: count }, () => {
          const u = Math.floor(next() * people.users.length);
          const channel = next() < 0.7 ? people.channels[Math.floor(next() * people.channels.length)] : undefined;
          return {
            type: ACTIVITY_TYPES[Math.floor(next() * ACTIVITY_TYPES.length)],
            user_id: people.users[u],
            user_first_name: `First${u}`,
            user_last_name: `Last${u}`,
            user_display_name: `First${u} Last${u}`,
            channel_id: channel?.id ?? null,
            channel_name: channel?.name ?? null,
            created_at: new Date(now - Math.floor(next() * SPAN_MS)).toISOString(),
          };
        });
        await trx.insertInto('activities').values(rows).execute();
        done += count;
      }
    });
    process.stdout.write(`\r  seeded ${done.toLocaleString('en')} activities`);
  }
  process.stdout.write('\n');
}

async function median(app: TestApp, token: string, call: Measured, total: number): Promise<number> {
  const body = call.body(total);
  const times: number[] = [];
  for (let i = 0; i < ROUNDS + 2; i++) {
    const started = performance.now();
    const response = await app.call(call.path, body, token);
    const elapsed = performance.now() - started;
    if (response.status !== 200)
      throw new Error(`${call.path} answered ${response.status}: ${JSON.stringify(response.body)}`);
    if (i >= 2) times.push(elapsed); // two warm-up rounds
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

async function measureAll(app: TestApp, token: string, total: number): Promise<number[]> {
  const results: number[] = [];
  for (const call of CALLS) results.push(await median(app, token, call, total));
  return results;
}

async function bench(dialect: 'sqlite' | 'postgres'): Promise<void> {
  console.log(`\n${dialect}: ${BASELINE.toLocaleString('en')} then ${TARGET.toLocaleString('en')} activities`);
  const app = await startApp(dialect);
  try {
    const admin = await signUpAdmin(app);
    const db = app.services.db;
    const people = await seedPeople(db);
    const existing = await app.services.activities.count();
    await seedActivities(db, existing, BASELINE, people);
    const baseline = await measureAll(app, admin.token, BASELINE);

    const started = performance.now();
    await seedActivities(db, BASELINE, TARGET, people);
    console.log(`  seeding took ${((performance.now() - started) / 1000).toFixed(1)} s`);
    // What autovacuum (PostgreSQL) does on its own after a bulk load; SQLite needs nothing.
    if (dialect === 'postgres') await sql`vacuum analyze activities`.execute(db);
    const large = await measureAll(app, admin.token, TARGET);

    const width = Math.max(...CALLS.map((c) => c.name.length));
    console.log(
      `  ${'call'.padEnd(width)}  ${`${BASELINE / 1000}k (ms)`.padStart(10)}  ${`${TARGET / 1000}k (ms)`.padStart(12)}  ratio`,
    );
    CALLS.forEach((call, i) => {
      console.log(
        `  ${call.name.padEnd(width)}  ${baseline[i].toFixed(2).padStart(10)}  ${large[i].toFixed(2).padStart(12)}  ${(large[i] / baseline[i]).toFixed(2).padStart(5)}`,
      );
    });
    // Keyset paging inside the store (issue 18 point 5): a page in the middle costs what the first does.
    console.log(
      `  middle page / first page at ${TARGET.toLocaleString('en')}: ${(large[1] / large[0]).toFixed(2)} (goal: about 1)`,
    );
  } finally {
    await app.close();
  }
}

for (const dialect of databases) await bench(dialect);
