/**
 * Web Push under an SOS (issue 34): how many pushes Talkgroup sends a second to a push service, and what 1,000
 * subscribers add to the SOS's own delivery to the pages that are connected.
 *
 *   npm run bench:push                 1,000 subscribers, 20 rounds of each kind, SQLite
 *   BENCH_SUBSCRIBERS, BENCH_ROUNDS    other sizes
 *   BENCH_DATABASE_URL=postgres://…    Talkgroup on PostgreSQL (a schema of its own)
 *
 * One Talkgroup process (npm start's flags) and, in this process, a local HTTPS push service (a certificate
 * made with openssl, trusted through NODE_EXTRA_CA_CERTS and PUSH_ENDPOINT_ALLOW) that answers 201 and counts
 * what it receives. Two channels of the same size: every member of "Pushed" has a push subscription, no member
 * of "Quiet" has one. Rounds alternate: a member of one channel sends an SOS (sendEmergencyAlert over HTTP),
 * and the time to an administrator's page getting `emergencyAlert` is that round's delivery; a "Pushed" round
 * waits until its pushes have all reached the push service. The "Quiet" rounds are the baseline measured in
 * the same run; the ratio is the figure (goal: no difference beyond the noise). Figures only, never pass/fail.
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

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const ms = (value: number) => `${value.toFixed(1)} ms`;

/** The push service: 201 to every push, the time of each arrival kept. */
async function pushService() {
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
  const arrivals: number[] = [];
  const server = createServer({ key: readFileSync(keyFile), cert: readFileSync(certFile) }, (req, res) => {
    req.resume();
    req.on('end', () => {
      arrivals.push(performance.now());
      res.writeHead(201).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    certFile,
    arrivals,
    close() {
      server.closeAllConnections();
      server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const service = await pushService();
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

const { port } = await serveTalkgroup(prepared, {
  PUSH_ENDPOINT_ALLOW: service.origin,
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

admin.close();
service.close();
process.kill(process.pid, 'SIGTERM');
