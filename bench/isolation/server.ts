/**
 * bench:isolation's servers: a database seeded at bench:reports' size (a year of 50 channels and 2,000 users,
 * 1,000,000 activities, 200,000 transmissions: bench/reports/seed.ts), an administrator written beside it, then
 * Talkgroup served on it by packages/server/start.js in a process of its own, as `npm start` runs it (the
 * server's node flags), with /metrics open to a token (its event-loop delay is prom-client's), SIP on loopback
 * and the one Janus of the run. SQLite in a temporary DATA_DIR, or PostgreSQL in a schema of its own, dropped
 * when the server stops.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { hashPassword } from '../../packages/server/src/auth/passwords.ts';
import type { Dialect } from '../../packages/server/src/db/dialect.ts';
import { openDatabase } from '../../packages/server/src/db/open.ts';
import { SERVER_NODE_FLAGS } from '../../packages/server/src/ops/node-flags.ts';
import { dropSchema, PG_URL } from '../pg-schema.ts';
import { seed } from '../reports/seed.ts';
import { answering, freePort, freeSipPort, START, stop } from '../server-process.ts';

export const ADMIN = { login: 'isolation-admin@example.org', password: 'isolation-admin-pw-1' };

export interface IsolationServer {
  dialect: Dialect;
  port: number;
  pid: number;
  sipPort: number;
  metricsToken: string;
  /** The server's last lines on stderr (what it said before failing). */
  output(): string;
  stop(): Promise<void>;
}

/** What an interrupted bench removes: the database and data folder of a server being seeded or served. */
export const pendingCleanUps = new Set<() => Promise<void>>();

/** Seeds a database of `dialect` and serves it; `log` gets the seeding's steps. */
export async function seededServer(
  dialect: Dialect,
  media: { janusUrl: string; janusSecret: string; rtpPorts: string },
  log: (line: string) => void,
): Promise<IsolationServer> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'talkgroup-bench-isolation-'));
  const pgSchema = dialect === 'postgres' ? `bench_isolation_${randomBytes(4).toString('hex')}` : undefined;
  let databaseUrl: string | undefined;
  if (pgSchema) {
    const url = new URL(PG_URL);
    // Its connections carry the schema's name, so that the drop can end any left over.
    url.searchParams.set('application_name', pgSchema);
    databaseUrl = url.toString();
  }
  const cleanUp = async () => {
    if (pgSchema) await dropSchema(pgSchema).catch((error) => log(`dropping ${pgSchema} failed: ${error}`));
    rmSync(dataDir, { recursive: true, force: true });
  };
  let child: ReturnType<typeof spawn> | undefined;
  const interrupted = async () => {
    if (child && child.exitCode === null) await stop(child);
    await cleanUp();
  };
  pendingCleanUps.add(interrupted);
  try {
    const database = await openDatabase({ dataDir, databaseUrl, pgSchema });
    try {
      const started = performance.now();
      await seed(database.db, dialect, log);
      await database.db
        .insertInto('users')
        .values({
          first_name: 'Isolation',
          last_name: 'Admin',
          identifier: ADMIN.login,
          pseudo: 'isolation-admin',
          display_name: 'Isolation Admin',
          phone_number: '',
          password_hash: await hashPassword(ADMIN.password),
          map_right: 1,
          role: 'admin',
          created_at: new Date().toISOString(),
        })
        .execute();
      log(`seeded in ${((performance.now() - started) / 1000).toFixed(0)} s`);
    } finally {
      await database.close();
    }

    const port = await freePort();
    const sipPort = await freeSipPort();
    const metricsToken = randomBytes(16).toString('hex');
    const served = new URL(databaseUrl ?? 'postgres://unused');
    if (pgSchema) served.searchParams.set('options', `-c search_path=${pgSchema}`);
    let output = '';
    child = spawn(process.execPath, [...SERVER_NODE_FLAGS, START], {
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        WEB_DIR: '',
        LOG_LEVEL: process.env.ISOLATION_LOG_LEVEL ?? 'warn',
        // Every client of the bench connects from 127.0.0.1: the per-address limits are the tests' business.
        CONNECTION_RATE_PER_MINUTE: '1000000',
        METRICS_TOKEN: metricsToken,
        JANUS_URL: media.janusUrl,
        JANUS_API_SECRET: media.janusSecret,
        SIP_PORT: String(sipPort),
        SIP_HOST: '127.0.0.1',
        SIP_RTP_PORTS: media.rtpPorts,
        SIP_REQUESTS_PER_MINUTE: '100000',
        ...(databaseUrl ? { DATABASE_URL: served.toString() } : {}),
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      output = (output + chunk).slice(-8000);
    });
    const running = child;
    await Promise.race([
      answering(port),
      new Promise((_, reject) =>
        running.once('exit', (code) => reject(new Error(`the server exited (${code}) before it served: ${output}`))),
      ),
    ]);
    return {
      dialect,
      port,
      pid: running.pid as number,
      sipPort,
      metricsToken,
      output: () => output,
      async stop() {
        pendingCleanUps.delete(interrupted);
        if (running.exitCode === null) await stop(running);
        await cleanUp();
      },
    };
  } catch (error) {
    pendingCleanUps.delete(interrupted);
    await interrupted();
    throw error;
  }
}
