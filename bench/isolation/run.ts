/**
 * Does heavy work slow the voice (issue 57, item 7)? Three figures, read over a window of each state of a real
 * server (`npm start`'s process, SIP on loopback, one Janus scheduled as deployed):
 *
 * - the event loop's delay, p99 and max (the server's /metrics: prom-client's histogram, less its 10 ms period);
 * - a gateway call's largest gap between the packets the server's relay sends it (a SIP gateway of a few lines in
 *   a worker thread, gateway-worker.ts: the channel's mix comes 50 packets a second, silence included);
 * - press to `floor_taken` at p95 (two members' sockets in another channel: one presses and releases at a
 *   person's pace, the other sees it).
 *
 * The states: idle; during 365-day reports at bench:reports' size (one after the other, on SQLite and on
 * PostgreSQL: each database seeded as bench:reports seeds it, the server on it); during a 15,000-user import (a
 * job at full hash strength: its window is the job's first seconds, the job runs 30 minutes here); with 50
 * gateway calls up (baresip phones as bench:gateway starts them, one a channel holding the floor). Goals, against
 * idle on the same server in the same run: loop max ≤ 50 ms and relay gap ≤ 60 ms during the report; floor p95
 * ≤ 1.2x in every case. Figures only, never pass/fail.
 *
 *   npm run bench:isolation
 *   ISOLATION_SCENARIOS=idle,report-sqlite …   some states only (idle, report-sqlite, calls, import,
 *                                              report-postgres; idle on each server used, always)
 *   ISOLATION_WINDOW=30 ISOLATION_CALLS=50 ISOLATION_IMPORT_USERS=15000 …
 *   BENCH_REPORTS_SCALE=0.01 …                 a quick check of the harness (1% of the reports' rows)
 *
 * PostgreSQL is TEST_DATABASE_URL's (default postgres://postgres@127.0.0.1:5432/test), in a schema of its own.
 */
import { execSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { channelNumber } from '../../packages/protocol/src/api/gateways.ts';
import { JANUS_REALTIME_PRIORITY, randomSecret, startJanus } from '../../packages/server/src/ops/dev-media.ts';
import { writeToneWav } from '../../packages/server/test/baresip.ts';
import { freePort, sleep } from '../server-process.ts';
import { gatewayCallsLoad, importLoad, type Load, reportLoad } from './load.ts';
import { callsTo, epochNow, floorProbe, gatewayProbe, loopDelay, signIn } from './probes.ts';
import { percentile, printTable, type Row } from './report.ts';
import { ADMIN, type IsolationServer, pendingCleanUps, seededServer } from './server.ts';

const SCENARIOS = ['idle', 'report-sqlite', 'calls', 'import', 'report-postgres'] as const;
type Scenario = (typeof SCENARIOS)[number];
const wanted = new Set(
  (process.env.ISOLATION_SCENARIOS ?? SCENARIOS.join(',')).split(',').map((name) => name.trim()) as Scenario[],
);
for (const name of wanted) if (!SCENARIOS.includes(name)) throw new Error(`no scenario ${name}: ${SCENARIOS}`);
const WINDOW_MS = Number(process.env.ISOLATION_WINDOW ?? 30) * 1000;
const CALLS = Number(process.env.ISOLATION_CALLS ?? 50);
const IMPORT_USERS = Number(process.env.ISOLATION_IMPORT_USERS ?? 15_000);
const progress = (text: string) => process.stdout.write(text);
const load1 = () => loadavg()[0].toFixed(1);

// The bench's own event loop: a late timer here would read as the server's delay.
const ownLoop = monitorEventLoopDelay({ resolution: 10 });
ownLoop.enable();

const commit = execSync('git rev-parse --short HEAD', { cwd: import.meta.dirname })
  .toString()
  .trim();
console.log(
  `isolation bench at ${commit}, ${new Date().toISOString()}: windows of ${WINDOW_MS / 1000} s; ` +
    `load average ${loadavg()
      .map((value) => value.toFixed(2))
      .join(' ')}`,
);

const rtpBase = 30_000 + Math.floor(Math.random() * 19) * 1000;
const janus = await startJanus({
  wsPort: await freePort(),
  rtpPorts: [rtpBase, rtpBase + 999],
  apiSecret: randomSecret(),
  realtime: JANUS_REALTIME_PRIORITY,
});
const dir = mkdtempSync(path.join(tmpdir(), 'talkgroup-bench-isolation-'));
const tone = path.join(dir, 'tone.wav');
// baresip's aufile ends the call when its file runs out: longer than the whole bench.
await writeToneWav(tone, { hz: 1000, seconds: 1200, rate: 8000, amplitude: 0.3 });
const rows: Row[] = [];

/** The probes set up on a server: the floor's channel and members, the measured gateway's channel and call. */
async function probesOn(server: IsolationServer) {
  const call = callsTo(server.port);
  const admin = await signIn(call, ADMIN.login, ADMIN.password);
  const floorChannel = (
    await call('/user/api/createChannel', { channelName: 'Isolation floor', floorControl: true }, admin)
  ).res;
  const tokens: string[] = [];
  for (const name of ['talker', 'listener']) {
    const email = `isolation-${name}@example.org`;
    const password = `isolation-${name}-pw-1`;
    const made = await call('/user/api/signUpUser', { firstName: name, lastName: 'Isolation', email, password }, admin);
    await call('/user/api/addUserToChannel', { userId: made.user.id, channelId: floorChannel.id }, admin);
    tokens.push(await signIn(call, email, password));
  }
  const floor = await floorProbe(server.port, tokens as [string, string], floorChannel.rtcSession);
  const radioChannel = (await call('/user/api/createChannel', { channelName: 'Isolation radio' }, admin)).res;
  const gateway = await call(
    '/user/api/createGateway',
    {
      name: 'Measured radio',
      login: 'iso-measured',
      channelIds: [radioChannel.id],
      floorMode: 'dtmf',
      // The channel's mix all the time, silence included (a desk phone): a steady 50 packets a second to time.
      quietBetween: false,
    },
    admin,
  );
  const dial = () =>
    gatewayProbe({
      sipPort: server.sipPort,
      login: 'iso-measured',
      secret: gateway.secret,
      number: channelNumber(radioChannel) ?? '',
    });
  const relay = await dial();
  await floor.warmUp();
  await sleep(3000);
  return { call, admin, floor, relay, dial };
}

/** One window: the load started as it opens, the three figures read as it closes. */
async function measure(
  server: IsolationServer,
  probes: Awaited<ReturnType<typeof probesOn>>,
  scenario: string,
  load?: Load,
): Promise<Row> {
  const loadBefore = load1();
  await loopDelay(server.port, server.metricsToken);
  ownLoop.reset();
  const from = epochNow();
  load?.start();
  probes.floor.start();
  await sleep(WINDOW_MS);
  const presses = await probes.floor.stop();
  const loop = await loopDelay(server.port, server.metricsToken);
  const to = epochNow();
  const ownMax = ownLoop.max / 1e6 - 10;
  const relay = await probes.relay.stats(from, to);
  const note = (await load?.stop()) ?? '';
  const row: Row = {
    scenario,
    dialect: server.dialect,
    loop,
    relay,
    windowMs: to - from,
    presses,
    load: `${loadBefore} to ${load1()}`,
    note: `${note}${note ? '; ' : ''}the bench's own loop max ${Math.max(0, ownMax).toFixed(0)} ms`,
  };
  rows.push(row);
  progress(
    `  ${scenario}: loop p99 ${loop.p99.toFixed(1)} ms, max ${loop.max.toFixed(1)} ms; relay gap ` +
      `${relay.maxGapMs.toFixed(0)} ms (${relay.packets} packets); floor p50 ${percentile(presses, 50).toFixed(1)} ms, ` +
      `p95 ${percentile(presses, 95).toFixed(1)} ms (${presses.length} presses); load ${row.load}\n` +
      `    ${row.note}\n`,
  );
  if (probes.relay.ended()) {
    // The next window measures a new call: the server's words say why this one ended.
    row.note += `; the measured call ended in it (${probes.relay.ended()})`;
    progress(`    the measured call ended; the server's last output:\n${server.output().slice(-1500)}\n`);
    await probes.relay.close();
    probes.relay = await probes.dial();
    await sleep(2000);
  }
  return row;
}

// Interrupted: the server, its database (being seeded or served) and Janus go with the bench.
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    progress(`\n${signal}: stopping the server and Janus\n`);
    rmSync(dir, { recursive: true, force: true });
    void Promise.allSettled([...[...pendingCleanUps].map((cleanUp) => cleanUp()), janus.stop()]).finally(() =>
      process.exit(130),
    );
  });

async function onServer(dialect: 'sqlite' | 'postgres', scenarios: Scenario[]) {
  progress(`\n${dialect}: seeding at bench:reports' size…\n`);
  const server = await seededServer(
    dialect,
    { janusUrl: janus.url, janusSecret: janus.secret, rtpPorts: '55000-55999' },
    (line) => progress(`  ${line}\n`),
  );
  try {
    const probes = await probesOn(server);
    await measure(server, probes, 'idle');
    for (const scenario of scenarios) {
      // Idle again before the import (whose job runs on): how much idle itself moves on this machine.
      if (scenario === 'import') await measure(server, probes, 'idle, again');
      if (scenario === 'report-sqlite' || scenario === 'report-postgres')
        await measure(server, probes, 'report 365 days', reportLoad(probes.call, probes.admin));
      if (scenario === 'calls') {
        progress(`  setting up ${CALLS} gateway calls `);
        const calls = await gatewayCallsLoad(probes.call, probes.admin, {
          sipPort: server.sipPort,
          calls: CALLS,
          channels: Math.max(1, Math.ceil(CALLS / 5)),
          tone,
          progress,
        });
        progress('\n');
        await sleep(2000);
        await measure(server, probes, `${calls.established} gateway calls`, calls);
      }
      if (scenario === 'import')
        await measure(
          server,
          probes,
          `import ${IMPORT_USERS.toLocaleString('en')} users`,
          importLoad(probes.call, probes.admin, IMPORT_USERS),
        );
    }
    if (!scenarios.includes('import')) await measure(server, probes, 'idle, again');
    probes.floor.close();
    await probes.relay.close();
  } catch (error) {
    process.stderr.write(`\nthe server's last output:\n${server.output()}\n`);
    throw error;
  } finally {
    await server.stop();
  }
}

try {
  // The import last on its server: its job runs on for half an hour after its window.
  const onSqlite = (['report-sqlite', 'calls', 'import'] as const).filter((name) => wanted.has(name));
  if (onSqlite.length > 0 || wanted.has('idle')) await onServer('sqlite', onSqlite);
  if (wanted.has('report-postgres')) await onServer('postgres', ['report-postgres']);
  printTable(rows);
  console.log(
    `\nload average at the end ${loadavg()
      .map((value) => value.toFixed(2))
      .join(' ')}; commit ${commit}`,
  );
} finally {
  await janus.stop();
  rmSync(dir, { recursive: true, force: true });
}
