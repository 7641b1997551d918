/**
 * Does a big user import stall the service (issue 29)? A real server (`npm start`'s process, SQLite in a temp dir,
 * or DATABASE_URL when set) imports N users (15,000 by default) as one job, at full hash strength, while another
 * user signs in over and over; the same sign-ins measured first with no import give the baseline of this machine
 * in this run. Figures only, never pass/fail: the issue's goal is sign-ins under 1 s while the job runs.
 *
 *   npm run bench:import                    15,000 users (long on 2 cores: each costs a full scrypt hash)
 *   npm run bench:import -- --users 2000    another size
 *
 * Printed: how long the call took to answer (the job's id), the job's users per second from that answer to its
 * end, the progress it showed on the way, and the sign-in times (p50, p95, max) during the job and before it,
 * with their ratio. Bounded: sign-ins stop with the job, and the whole run stops after --max-minutes (90).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { answering, freePort, sleep, spawnServer, stop } from '../server-process.ts';

const { values } = parseArgs({
  options: {
    users: { type: 'string', default: '15000' },
    'baseline-signins': { type: 'string', default: '40' },
    'max-minutes': { type: 'string', default: '90' },
  },
});
const USERS = Number(values.users);
const BASELINE_SIGNINS = Number(values['baseline-signins']);
const DEADLINE = Date.now() + Number(values['max-minutes']) * 60_000;
if (!Number.isInteger(USERS) || USERS < 101 || USERS > 20_000)
  throw new Error('--users must be a whole number from 101 (above the job threshold) to 20000');

const ADMIN = { login: 'bench-admin@example.org', password: 'bench-admin-pw-1' };
const MEMBER = { login: 'bench-member@example.org', password: 'bench-member-pw-1' };

let port = 0;
async function call(pathName: string, body: object, token?: string) {
  const response = await fetch(`http://127.0.0.1:${port}${pathName}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { 'x-access-token': token } : {}) },
    body: JSON.stringify(body),
  });
  const json = (await response.json()) as any;
  if (response.status !== 200) throw new Error(`${pathName}: ${response.status} ${JSON.stringify(json).slice(0, 200)}`);
  return json;
}

async function signIn(account: { login: string; password: string }) {
  const answer = await call('/user/api/login', { user_email: account.login, user_password: account.password });
  return answer.user.authToken as string;
}

/** One timed sign-in of the member. */
async function timedSignIn(): Promise<number> {
  const started = performance.now();
  await signIn(MEMBER);
  return performance.now() - started;
}

function percentile(values: number[], p: number) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN;
}

const ms = (value: number) => `${value.toFixed(0)} ms`;
const summary = (times: number[]) =>
  `p50 ${ms(percentile(times, 50))}, p95 ${ms(percentile(times, 95))}, max ${ms(Math.max(...times))} (${times.length} sign-ins)`;

const rows = Array.from({ length: USERS }, (_, i) => ({
  firstName: 'Bench',
  lastName: `Import ${i}`,
  identifier: `import${i}@example.org`,
  pseudo: `imp${i}`,
  password: `Import-pass-${i}-2025`,
  mapRight: i % 2 ? 'vrai' : 'faux',
  canal: '',
}));

const dataDir = mkdtempSync(path.join(tmpdir(), 'talkgroup-bench-import-'));
port = await freePort();
const server = spawnServer(port, dataDir, { admin: ADMIN });
try {
  await answering(port);
  const adminToken = await signIn(ADMIN);
  await call(
    '/user/api/signUpUser',
    { firstName: 'Mia', lastName: 'Member', email: MEMBER.login, password: MEMBER.password },
    adminToken,
  );

  console.log(
    `import of ${USERS} users as a job, ${availableParallelism()} cores, load ${loadavg()[0].toFixed(2)}, ${process.env.DATABASE_URL ? 'PostgreSQL' : 'SQLite'}`,
  );
  const baseline: number[] = [];
  for (let i = 0; i < BASELINE_SIGNINS; i++) baseline.push(await timedSignIn());
  console.log(`sign-ins with no import:     ${summary(baseline)}`);

  const sent = performance.now();
  const started = await call('/user/api/createMultipleUsers', { userData: rows }, adminToken);
  const answeredAt = performance.now();
  if (started.jobId === undefined) throw new Error('the import was not made a job');
  console.log(`createMultipleUsers answered in ${ms(answeredAt - sent)}: job ${started.jobId}, ${started.state}`);

  const during: number[] = [];
  let job = started;
  let ended = false;
  // Sign-ins one after the other while the job runs, and the job's progress once a second.
  const signIns = (async () => {
    while (!ended && Date.now() < DEADLINE) {
      during.push(await timedSignIn());
      await sleep(50);
    }
  })();
  let lastPrint = 0;
  while (Date.now() < DEADLINE) {
    job = (await call('/user/api/getImportJob', { jobId: started.jobId }, adminToken)).res;
    if (job.state === 'done' || job.state === 'failed') break;
    if (performance.now() - lastPrint > 30_000) {
      lastPrint = performance.now();
      const seconds = (performance.now() - answeredAt) / 1000;
      console.log(
        `  ${job.done} / ${job.total} rows after ${seconds.toFixed(0)} s (${(job.done / seconds).toFixed(1)}/s)`,
      );
    }
    await sleep(1000);
  }
  const endedAt = performance.now();
  ended = true;
  await signIns;

  if (job.state !== 'done') console.log(`the job did not end in time: ${job.state}, ${job.done} / ${job.total}`);
  const added = job.result?.added.length ?? job.done;
  const seconds = (endedAt - answeredAt) / 1000;
  console.log(
    `job ${job.state}: ${added} users added in ${seconds.toFixed(1)} s: ${(added / seconds).toFixed(1)} users/s`,
  );
  console.log(`sign-ins during the import:  ${summary(during)}`);
  const ratio = percentile(during, 95) / percentile(baseline, 95);
  console.log(`sign-in p95 during / without: ${ratio.toFixed(2)}x (goal: under 1 s during the import)`);
} finally {
  await stop(server);
  rmSync(dataDir, { recursive: true, force: true });
}
