/**
 * Does a report stay fast at a real organisation's size (issue 50, point 5)? Seeds a year of 50 channels and
 * 2,000 users (1,000,000 activities, 200,000 transmissions and who heard them, 5,000 SOS alerts, a presence
 * sample a minute: seed.ts) on SQLite and on PostgreSQL, then times each measure of the reports' store
 * (talk, hours, sos, queue, missed, peaks) and the whole report for 30 days, against 1 day (the baseline) and
 * 365 days measured in the same run; prints the plans' use of indexes, and the heap the report leaves after it.
 * Figures only, never pass/fail (goal: a 30-day report in 1 s or less on both databases).
 *
 *   npm run bench:reports                          SQLite (temp file) and PostgreSQL (TEST_DATABASE_URL, default
 *                                                  postgres://postgres@127.0.0.1:5432/test, in a schema of its
 *                                                  own, dropped after)
 *   BENCH_REPORTS_DATABASES=sqlite …               one database only
 *   BENCH_REPORTS_SCALE=0.01 …                     a quick check of the harness (1% of the bulk rows)
 *
 * The store is called directly on a database handle the way the server's route does (no HTTP), with a Kysely
 * plugin that records the queries each measure runs (plans.ts). Each time is the median of 5 runs after one
 * warm-up (a measure whose warm-up takes over 5 s: that run alone). Memory: the heap used after a full
 * collection (--expose-gc, set at start) once a 1-day, 30-day and 365-day report is computed and held, and what
 * computing it allocated. Interrupted (SIGINT, SIGTERM), it drops its schema and temp folder first.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import type { Dialect } from '../../packages/server/src/db/dialect.ts';
import { type OpenedDatabase, openDatabase } from '../../packages/server/src/db/open.ts';
import type { Db } from '../../packages/server/src/db/schema.ts';
import { type ReportScope, reportStore } from '../../packages/server/src/reports/store.ts';
import { dropSchema, PG_URL } from '../pg-schema.ts';
import { type ExplainedQuery, explain, queryCapture } from './plans.ts';
import { type DatabaseFigures, type PeriodFigures, printDatabase } from './report.ts';
import { type Seeded, SIZES, seed } from './seed.ts';

// Full collections on demand (as node --expose-gc gives), in this process: no child to outlive a signal.
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;
const collect = () => {
  gc();
  gc();
};

export const MEASURES = ['talk', 'hours', 'sos', 'queue', 'missed', 'peaks'] as const;
export type Measure = (typeof MEASURES)[number];
const PERIODS = [1, 30, 365];
const RUNS = 5;
/** A measure whose warm-up takes longer is timed by that one run, so that a slow one keeps the run to minutes. */
const LONG_MS = 5_000;
const DAY_MS = 86_400_000;
const TIME_ZONE = 'Europe/Paris';
const DATABASES = (process.env.BENCH_REPORTS_DATABASES ?? 'sqlite,postgres').split(',') as Dialect[];

type Store = ReturnType<typeof reportStore>;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** CPU time of this process (user and system), in ms: SQLite's work is done in it. */
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/**
 * The median of RUNS timed runs after one warm-up (the one given, if any, else a plain one), wall clock and
 * CPU of this process; the warm-up's own times when it took over LONG_MS (`once`).
 */
async function timeOf(
  run: () => Promise<unknown>,
  warmUp: () => Promise<unknown> = run,
): Promise<{ ms: number; cpu: number; once: boolean }> {
  const first = performance.now();
  const firstCpu = cpuMs();
  await warmUp();
  const firstMs = performance.now() - first;
  if (firstMs > LONG_MS) return { ms: firstMs, cpu: cpuMs() - firstCpu, once: true };
  const times: number[] = [];
  const cpus: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    const startedCpu = cpuMs();
    await run();
    times.push(performance.now() - started);
    cpus.push(cpuMs() - startedCpu);
  }
  return { ms: median(times), cpu: median(cpus), once: false };
}

/** The whole report: the channels and every measure at once, as getReport asks for them (reports/routes.ts). */
async function whole(store: Store, scope: ReportScope) {
  const [channels, ...parts] = await Promise.all([
    store.channels(scope),
    ...MEASURES.map((measure) => store[measure](scope)),
  ]);
  return { channels, ...Object.fromEntries(MEASURES.map((measure, i) => [measure, parts[i]])) };
}

const scopeOf = (seeded: Seeded, days: number): ReportScope => ({
  from: new Date(seeded.endMs - days * DAY_MS).toISOString(),
  to: new Date(seeded.endMs).toISOString(),
  channelIds: null,
  timeZone: TIME_ZONE,
});

async function measurePeriod(db: Db, dialect: Dialect, seeded: Seeded, days: number): Promise<PeriodFigures> {
  const capture = queryCapture();
  const store = reportStore(db.withPlugin(capture.plugin), dialect);
  const scope = scopeOf(seeded, days);
  const measures = {} as Record<Measure, number>;
  const cpu = {} as Record<Measure | 'report', number>;
  const once: string[] = [];
  const queries = {} as Record<Measure, ExplainedQuery[]>;
  for (const measure of MEASURES) {
    let captured: Awaited<ReturnType<typeof capture.stop>> = [];
    const warmUp = async () => {
      capture.start();
      try {
        await store[measure](scope);
      } finally {
        captured = capture.stop();
      }
    };
    const timed = await timeOf(() => store[measure](scope), warmUp);
    measures[measure] = timed.ms;
    cpu[measure] = timed.cpu;
    if (timed.once) once.push(measure);
    queries[measure] = await explain(db, dialect, captured);
    process.stdout.write(`  ${days} d ${measure} ${measures[measure].toFixed(0)} ms\n`);
  }
  const report = await timeOf(() => whole(store, scope));
  if (report.once) once.push('report');
  cpu.report = report.cpu;
  process.stdout.write(`  ${days} d whole report ${report.ms.toFixed(0)} ms\n`);
  return { days, measures, report: report.ms, cpu, once, queries };
}

/** The heap after a full collection with the report held, and what computing it allocated (GC profile). */
async function heapOf(db: Db, dialect: Dialect, seeded: Seeded, days: number) {
  const store = reportStore(db, dialect);
  collect();
  const before = process.memoryUsage().heapUsed;
  const profiler = new v8.GCProfiler();
  profiler.start();
  const report = await whole(store, scopeOf(seeded, days));
  const rightAfter = process.memoryUsage().heapUsed;
  const profile = profiler.stop();
  const collected = (profile?.statistics ?? []).reduce(
    (sum, gcRun) => sum + gcRun.beforeGC.heapStatistics.usedHeapSize - gcRun.afterGC.heapStatistics.usedHeapSize,
    0,
  );
  collect();
  const after = process.memoryUsage().heapUsed;
  return { days, heapUsed: after, allocated: rightAfter - before + collected, json: JSON.stringify(report).length };
}

function withApplicationName(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set('application_name', name);
  return parsed.toString();
}

async function open(dialect: Dialect): Promise<{ database: OpenedDatabase; drop: () => Promise<void> }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'talkgroup-bench-reports-'));
  const pgSchema = dialect === 'postgres' ? `bench_reports_${randomBytes(4).toString('hex')}` : undefined;
  if (pgSchema) console.log(`  schema ${pgSchema}`);
  // Its connections carry the schema's name, so that an interruption can end them (below).
  const databaseUrl = pgSchema ? withApplicationName(PG_URL, pgSchema) : undefined;
  const database = await openDatabase({ dataDir, databaseUrl, pgSchema });
  let dropped: Promise<void> | undefined;
  const drop = () => {
    dropped ??= (async () => {
      process.off('SIGINT', interrupted);
      process.off('SIGTERM', interrupted);
      try {
        if (pgSchema) await dropSchema(pgSchema);
      } finally {
        await database.close().catch(() => {});
        rmSync(dataDir, { recursive: true, force: true });
      }
    })();
    return dropped;
  };
  const interrupted = () => {
    console.log('\ninterrupted: dropping the bench data');
    void drop().finally(() => process.exit(130));
  };
  process.on('SIGINT', interrupted);
  process.on('SIGTERM', interrupted);
  return { database, drop };
}

async function bench(dialect: Dialect): Promise<DatabaseFigures> {
  console.log(`\n${dialect}: seeding…`);
  const { database, drop } = await open(dialect);
  try {
    const started = performance.now();
    const seeded = await seed(database.db, dialect, (line) => console.log(`  ${line}`));
    const seedSeconds = (performance.now() - started) / 1000;
    console.log(`  seeding took ${seedSeconds.toFixed(1)} s`);
    const periods: PeriodFigures[] = [];
    for (const days of PERIODS) periods.push(await measurePeriod(database.db, dialect, seeded, days));
    const heap = [];
    for (const days of PERIODS) heap.push(await heapOf(database.db, dialect, seeded, days));
    return { dialect, seeded, seedSeconds, periods, heap };
  } finally {
    await drop();
  }
}

console.log(
  `reports bench: ${SIZES.activities.toLocaleString('en')} activities, ${SIZES.transmissions.toLocaleString('en')} ` +
    `transmissions, ${SIZES.alerts.toLocaleString('en')} SOS alerts over 365 days; time zone ${TIME_ZONE}; ` +
    `load average ${loadavg()[0].toFixed(1)}`,
);
for (const dialect of DATABASES) printDatabase(await bench(dialect));
console.log(`\nload average at the end ${loadavg()[0].toFixed(1)} (figures move with the machine's load)`);
