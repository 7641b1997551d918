/**
 * Web Push under an SOS (issues 34 and 47): how many pushes Talkgroup sends a second to a push service, what
 * 1,000 subscribers add to the SOS's own delivery to the pages that are connected, and what 5,000 subscriptions
 * to a push service that never answers add to the SOS's push to a healthy one.
 *
 *   npm run bench:push                 1,000 subscribers, 20 rounds of each kind; 5,000 silent, 10 rounds; SQLite
 *   BENCH_SUBSCRIBERS, BENCH_ROUNDS    other sizes of the first part
 *   BENCH_SILENT, BENCH_SILENT_ROUNDS  other sizes of the second part
 *   BENCH_DATABASE_URL=postgres://…    Talkgroup on PostgreSQL (a schema of its own)
 *
 * One Talkgroup process (npm start's flags) and, in this process, two local HTTPS push services (one
 * certificate made with openssl, trusted through NODE_EXTRA_CA_CERTS and PUSH_ENDPOINT_ALLOW): a healthy one that
 * answers 201 and notes when each push arrives, and a silent one that reads every request and never answers.
 *
 * First part: two channels of the same size: every member of "Pushed" has a push subscription, no member of
 * "Quiet" has one. Rounds alternate: a member of one channel sends an SOS (sendEmergencyAlert over HTTP), and
 * the time to an administrator's page getting `emergencyAlert` is that round's delivery; a "Pushed" round waits
 * until its pushes have all reached the push service. The "Quiet" rounds are the baseline measured in the same
 * run; the ratio is the figure (goal: no difference beyond the noise).
 *
 * Second part (issue 47): the SOS's push to a healthy push service, from the call to its arrival there (a
 * watcher's subscription), in four kinds of rounds: in a small channel (the watcher and the sender: the
 * baseline, "none"); in a channel of 5,000 members whose subscriptions lead to another push service that
 * answers (what a channel that size costs, silence aside); then, once 5,000 members of a third channel lead to
 * a push service that reads every request and never answers, in that channel (each such round adds 5,000 sends
 * that never end before their time-out to what already waits) and in the small channel again (with that backlog
 * waiting). Rounds alternate within each half; the ratios to the baseline are the figures (goal: no difference
 * beyond the noise and the fan-out's own cost). Figures only, never pass/fail.
 */
import { execFileSync } from 'node:child_process';
import { createECDH, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { io, type Socket } from 'socket.io-client';
import { insertUsers, prepareDatabase, serveTalkgroup } from '../prepared-server.ts';

const SUBSCRIBERS = Number(process.env.BENCH_SUBSCRIBERS ?? 1000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20);
const SILENT = Number(process.env.BENCH_SILENT ?? 5000);
const SILENT_ROUNDS = Number(process.env.BENCH_SILENT_ROUNDS ?? 10);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const ms = (value: number) => `${value.toFixed(1)} ms`;

/**
 * A push service: 201 to every push, the time of each arrival kept (by path too); `silent`, it reads every
 * request and never answers.
 */
async function pushService(silent = false, tls?: { dir: string; keyFile: string; certFile: string }) {
  if (tls) return listenWith(tls, silent);
  const dir = mkdtempSync(path.join(tmpdir(), 'talkgroup-bench-push-'));
  const keyFile = path.join(dir, 'key.pem');
  const certFile = path.join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', keyFile].concat([
      '-out',
      certFile,
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ]),
    { stdio: 'ignore' },
  );
  return listenWith({ dir, keyFile, certFile }, silent);
}

async function listenWith(tls: { dir: string; keyFile: string; certFile: string }, silent: boolean) {
  const arrivals: number[] = [];
  const byPath = new Map<string, number[]>();
  let received = 0;
  const server = createServer({ key: readFileSync(tls.keyFile), cert: readFileSync(tls.certFile) }, (req, res) => {
    req.resume();
    req.on('end', () => {
      received += 1;
      if (silent) return;
      const at = performance.now();
      arrivals.push(at);
      const url = req.url ?? '';
      byPath.set(url, [...(byPath.get(url) ?? []), at]);
      res.writeHead(201).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    tls,
    certFile: tls.certFile,
    arrivals,
    byPath,
    received: () => received,
    close() {
      server.closeAllConnections();
      server.close();
      if (!silent) rmSync(tls.dir, { recursive: true, force: true });
    },
  };
}

const service = await pushService();
const crowdService = await pushService(false, service.tls);
const silent = await pushService(true, service.tls);
const prepared = await prepareDatabase('push');
const { services } = prepared.app;
const [pushed, quiet] = [await services.channels.create('Pushed'), await services.channels.create('Quiet')];
const pushedIds = await insertUsers(services.db, SUBSCRIBERS, { name: 'Pushed', login: 'pushed' });
const quietIds = await insertUsers(services.db, SUBSCRIBERS, { name: 'Quiet', login: 'quiet' });
const pushedSenders = await insertUsers(services.db, ROUNDS, { name: 'Sender', login: 'psender' });
const quietSenders = await insertUsers(services.db, ROUNDS, { name: 'Sender', login: 'qsender' });
const [adminId] = await insertUsers(services.db, 1, { name: 'Admin', login: 'admin' });
await services.db.updateTable('users').set({ role: 'admin' }).where('id', '=', adminId).execute();
await services.memberships.add(pushed.id, [...pushedIds, ...pushedSenders]);
await services.memberships.add(quiet.id, [...quietIds, ...quietSenders]);

/** A session for each user (a token), and a subscription for each member of "Pushed". */
const tokens = new Map<number, string>();
for (const id of [...pushedIds, ...pushedSenders, ...quietSenders, adminId])
  tokens.set(id, await services.sessions.create(id));
const sessionOf = new Map(
  (await services.db.selectFrom('sessions').select(['id', 'user_id']).execute()).map((row) => [row.user_id, row.id]),
);
const p256dh = createECDH('prime256v1');
p256dh.generateKeys();
const now = new Date().toISOString();
for (let i = 0; i < pushedIds.length; i += 500) {
  await services.db
    .insertInto('push_subscriptions')
    .values(
      pushedIds.slice(i, i + 500).map((userId) => ({
        user_id: userId,
        session_id: sessionOf.get(userId) as number,
        endpoint: `${service.origin}/push/${userId}`,
        p256dh: p256dh.getPublicKey('base64url'),
        auth: randomBytes(16).toString('base64url'),
        expiration_time: null,
        language: 'fr' as const,
        created_at: now,
        updated_at: now,
      })),
    )
    .execute();
}

/**
 * The second part's users: two crowds of 5,000 with a session and a subscription each (one crowd to an answering
 * push service, one to the silent one), a watcher per channel on the measuring push service, senders.
 */
const [small, crowd, silentCrowd] = [
  await services.channels.create('Small'),
  await services.channels.create('Crowd'),
  await services.channels.create('Silent crowd'),
];
const crowdIds = await insertUsers(services.db, SILENT, { name: 'Crowd', login: 'crowd' });
const silentIds = await insertUsers(services.db, SILENT, { name: 'Silent', login: 'silent' });
const [smallWatcher, crowdWatcher, silentWatcher] = (await insertUsers(services.db, 3, {
  name: 'Watcher',
  login: 'watcher',
})) as [number, number, number];
const smallSenders = await insertUsers(services.db, 2 * SILENT_ROUNDS, { name: 'Sender', login: 'ssender' });
const crowdSenders = await insertUsers(services.db, SILENT_ROUNDS, { name: 'Sender', login: 'csender' });
const silentSenders = await insertUsers(services.db, SILENT_ROUNDS, { name: 'Sender', login: 'xsender' });
await services.memberships.add(small.id, [smallWatcher, ...smallSenders]);
await services.memberships.add(crowd.id, [...crowdIds, crowdWatcher, ...crowdSenders]);
await services.memberships.add(silentCrowd.id, [...silentIds, silentWatcher, ...silentSenders]);
for (const id of [...smallSenders, ...crowdSenders, ...silentSenders])
  tokens.set(id, await services.sessions.create(id));
const endpointOf = new Map<number, string>([
  [smallWatcher, `${service.origin}/watch/small`],
  [crowdWatcher, `${service.origin}/watch/crowd`],
  [silentWatcher, `${service.origin}/watch/silent`],
  ...crowdIds.map((id) => [id, `${crowdService.origin}/push/${id}`] as [number, string]),
  ...silentIds.map((id) => [id, `${silent.origin}/push/${id}`] as [number, string]),
]);
const expires = new Date(Date.now() + 7 * 24 * 3600 * 1000).toISOString();
const subscribed = [...endpointOf.keys()];
for (let i = 0; i < subscribed.length; i += 500) {
  const sessions = await services.db
    .insertInto('sessions')
    .values(
      subscribed.slice(i, i + 500).map((userId) => ({
        user_id: userId,
        token_hash: randomBytes(32).toString('hex'),
        created_at: now,
        expires_at: expires,
      })),
    )
    .returning(['id', 'user_id'])
    .execute();
  await services.db
    .insertInto('push_subscriptions')
    .values(
      sessions.map((session) => ({
        user_id: session.user_id,
        session_id: session.id,
        endpoint: endpointOf.get(session.user_id) as string,
        p256dh: p256dh.getPublicKey('base64url'),
        auth: randomBytes(16).toString('base64url'),
        expiration_time: null,
        language: 'en' as const,
        created_at: now,
        updated_at: now,
      })),
    )
    .execute();
}

const { port } = await serveTalkgroup(prepared, {
  PUSH_ENDPOINT_ALLOW: [service.origin, crowdService.origin, silent.origin].join(','),
  NODE_EXTRA_CA_CERTS: service.certFile,
});
const base = `http://127.0.0.1:${port}`;
const admin: Socket = io(base, { transports: ['websocket'], query: { token: tokens.get(adminId) as string } });
await new Promise<void>((resolve, reject) => {
  admin.once('connect', () => resolve());
  admin.once('connect_error', reject);
});

/** One SOS from `senderId`: the time from the call to the administrator's page getting it. */
async function sos(senderId: number, channelId: number): Promise<number> {
  const arrived = new Promise<number>((resolve) => {
    const on = (alert: { userId: number }) => {
      if (alert.userId !== senderId) return;
      admin.off('emergencyAlert', on);
      resolve(performance.now());
    };
    admin.on('emergencyAlert', on);
  });
  const started = performance.now();
  const answer = await fetch(`${base}/user/api/sendEmergencyAlert`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-access-token': tokens.get(senderId) as string },
    body: JSON.stringify({ channelId }),
  });
  if (!answer.ok) throw new Error(`sendEmergencyAlert answered ${answer.status}: ${await answer.text()}`);
  return (await arrived) - started;
}

const delays = { pushed: [] as number[], quiet: [] as number[] };
let sendingMs = 0;
for (let round = 0; round < ROUNDS; round += 1) {
  const before = service.arrivals.length;
  const started = performance.now();
  delays.pushed.push(await sos(pushedSenders[round] as number, pushed.id));
  // Every subscriber of the channel gets the SOS; the round ends once the push service has them all.
  while (service.arrivals.length < before + SUBSCRIBERS) await sleep(5);
  sendingMs += (service.arrivals.at(-1) as number) - started;
  await sleep(200);
  delays.quiet.push(await sos(quietSenders[round] as number, quiet.id));
  await sleep(200);
}

const sent = ROUNDS * SUBSCRIBERS;
const line = (name: string, values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return { name, p50: percentile(sorted, 50), p95: percentile(sorted, 95), max: sorted.at(-1) as number };
};
const [withPush, without] = [line(`${SUBSCRIBERS} subscribed`, delays.pushed), line('none subscribed', delays.quiet)];
console.log(`bench:push — ${SUBSCRIBERS} subscribers, ${ROUNDS} rounds, load ${loadavg()[0].toFixed(1)}`);
console.log(
  `pushes sent: ${sent} in ${(sendingMs / 1000).toFixed(1)} s of sending: ${Math.round(sent / (sendingMs / 1000))} a second`,
);
console.log('SOS to a connected administrator page:');
for (const row of [withPush, without])
  console.log(`  ${row.name.padEnd(18)} p50 ${ms(row.p50)}  p95 ${ms(row.p95)}  max ${ms(row.max)}`);
console.log(
  `  ratio (subscribed / none): p50 ${(withPush.p50 / without.p50).toFixed(2)}x, p95 ${(withPush.p95 / without.p95).toFixed(2)}x`,
);

/** One SOS in `channelId`: the time from the call to the watcher's push reaching the measuring push service. */
async function pushDelay(senderId: number, channelId: number, watchPath: string): Promise<number> {
  const before = service.byPath.get(watchPath)?.length ?? 0;
  const started = performance.now();
  const answer = await fetch(`${base}/user/api/sendEmergencyAlert`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-access-token': tokens.get(senderId) as string },
    body: JSON.stringify({ channelId }),
  });
  if (!answer.ok) throw new Error(`sendEmergencyAlert answered ${answer.status}: ${await answer.text()}`);
  const deadline = Date.now() + 120_000;
  while ((service.byPath.get(watchPath)?.length ?? 0) <= before) {
    if (Date.now() > deadline) throw new Error(`no push reached ${watchPath} in 2 minutes`);
    await sleep(1);
  }
  return (service.byPath.get(watchPath)?.[before] as number) - started;
}

const pushDelays = { none: [] as number[], crowd: [] as number[], silent: [] as number[], backlog: [] as number[] };
// First half: nothing waits for a silent push service.
let crowdSendingMs = 0;
for (let round = 0; round < SILENT_ROUNDS; round += 1) {
  pushDelays.none.push(await pushDelay(smallSenders[round] as number, small.id, '/watch/small'));
  await sleep(200);
  const before = crowdService.arrivals.length;
  const started = performance.now();
  pushDelays.crowd.push(await pushDelay(crowdSenders[round] as number, crowd.id, '/watch/crowd'));
  // The round ends once the answering push service has the whole crowd's pushes.
  while (crowdService.arrivals.length < before + SILENT) await sleep(5);
  crowdSendingMs += performance.now() - started;
  await sleep(200);
}
const SETTLE_MS = Math.max(200, crowdSendingMs / SILENT_ROUNDS);
// Second half: every round in the silent crowd leaves 5,000 more sends waiting for a push service that never answers.
for (let round = 0; round < SILENT_ROUNDS; round += 1) {
  pushDelays.silent.push(await pushDelay(silentSenders[round] as number, silentCrowd.id, '/watch/silent'));
  // As long as a first-half round lasts (the crowd's 5,000 sends): the small round then finds the server at rest.
  await sleep(SETTLE_MS);
  pushDelays.backlog.push(await pushDelay(smallSenders[SILENT_ROUNDS + round] as number, small.id, '/watch/small'));
  await sleep(200);
}
const rows = [
  line('none (small channel)', pushDelays.none),
  line(`${SILENT} answering`, pushDelays.crowd),
  line(`${SILENT} silent`, pushDelays.silent),
  line('small, silent backlog', pushDelays.backlog),
] as const;
console.log(
  `SOS push to a healthy push service (call to arrival), ${SILENT_ROUNDS} rounds each, load ${loadavg()[0].toFixed(1)}:`,
);
for (const row of rows)
  console.log(`  ${row.name.padEnd(24)} p50 ${ms(row.p50)}  p95 ${ms(row.p95)}  max ${ms(row.max)}`);
const ratio = (a: (typeof rows)[number], b: (typeof rows)[number]) =>
  `p50 ${(a.p50 / b.p50).toFixed(2)}x, p95 ${(a.p95 / b.p95).toFixed(2)}x`;
const [none, answering, silentRow, backlog] = rows;
console.log(`  ratio ${SILENT} silent / none: ${ratio(silentRow, none)}`);
console.log(`  ratio ${SILENT} silent / ${SILENT} answering (the silence alone): ${ratio(silentRow, answering)}`);
console.log(`  ratio small with the silent backlog / none: ${ratio(backlog, none)}`);
console.log(
  `  the silent push service read ${silent.received()} requests and answered none (${SILENT_ROUNDS * SILENT} pushes were queued for it)`,
);

admin.close();
silent.close();
crowdService.close();
service.close();
process.kill(process.pid, 'SIGTERM');
