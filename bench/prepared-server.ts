/**
 * Talkgroup for the socket benchmarks (bench/realtime, bench/soak): a database prepared in this process
 * (users written directly, without password hashing: everyone gets a session token), then served by
 * packages/server/start.js in a process of its own, as `npm start` runs it, with the server's node flags.
 * SQLite in a temporary DATA_DIR, or BENCH_DATABASE_URL's PostgreSQL in a schema of its own; both are removed
 * when this process gets SIGTERM.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { buildApp } from '../packages/server/src/app.ts';
import { loadConfig } from '../packages/server/src/config/config.ts';
import { openDatabase } from '../packages/server/src/db/open.ts';
import type { Db } from '../packages/server/src/db/schema.ts';
import { SERVER_NODE_FLAGS } from '../packages/server/src/ops/node-flags.ts';
import { answering, freePort, START, stop } from './server-process.ts';

/** A fresh database and the app's services on it, to write a benchmark's data with. */
export async function prepareDatabase(prefix: string) {
  const dataDir = mkdtempSync(path.join(tmpdir(), `talkgroup-${prefix}-`));
  const databaseUrl = process.env.BENCH_DATABASE_URL || undefined;
  const pgSchema = databaseUrl ? `${prefix}_${randomBytes(6).toString('hex')}` : undefined;
  const database = await openDatabase({ dataDir, databaseUrl, pgSchema });
  const app = await buildApp({ ...loadConfig({ DATA_DIR: dataDir }), webDir: undefined }, { database });
  return { dataDir, databaseUrl, pgSchema, app };
}

/** `count` users named `${name} ${i}` (logins `${login}${i}@example.org`), written 500 at a time; their ids. */
export async function insertUsers(
  db: Db,
  count: number,
  names: { name: string; login: string; mapRight?: boolean },
): Promise<number[]> {
  const at = new Date().toISOString();
  const ids: number[] = [];
  for (let i = 0; i < count; i += 500) {
    const rows = await db
      .insertInto('users')
      .values(
        Array.from({ length: Math.min(500, count - i) }, (_, k) => ({
          first_name: names.name,
          last_name: String(i + k),
          identifier: `${names.login}${i + k}@example.org`,
          pseudo: '',
          display_name: `${names.name} ${i + k}`,
          phone_number: '',
          password_hash: 'none',
          map_right: names.mapRight ? 1 : 0,
          role: 'member' as const,
          created_at: at,
        })),
      )
      .returning('id')
      .execute();
    ids.push(...rows.map((row) => row.id));
  }
  return ids;
}

/**
 * Serves the prepared database (its app closed first) on a free port; this process exits if the server dies
 * unasked, and on SIGTERM stops it and removes its data. Every client connects from 127.0.0.1: the
 * per-address connection rate is lifted.
 */
export async function serveTalkgroup(
  prepared: Awaited<ReturnType<typeof prepareDatabase>>,
  env: Record<string, string> = {},
): Promise<{ port: number; pid: number }> {
  const { dataDir, databaseUrl, pgSchema, app } = prepared;
  await app.close();
  const port = await freePort();
  const url = new URL(databaseUrl ?? 'postgres://unused');
  if (pgSchema) url.searchParams.set('options', `-c search_path=${pgSchema}`);
  let stopping = false;
  const server = spawn(process.execPath, [...SERVER_NODE_FLAGS, START], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      WEB_DIR: '',
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
      CONNECTION_RATE_PER_MINUTE: '1000000',
      ...env,
      ...(databaseUrl ? { DATABASE_URL: url.toString() } : {}),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  server.once('exit', (code) => {
    if (!stopping) process.exit(code ?? 1);
  });
  await answering(port);
  process.on('SIGTERM', async () => {
    stopping = true;
    const timer = setTimeout(() => process.exit(1), 10_000);
    timer.unref();
    await stop(server);
    if (pgSchema) {
      const again = await openDatabase({ dataDir, databaseUrl, pgSchema });
      await sql`drop schema if exists ${sql.id(pgSchema)} cascade`.execute(again.db);
      await again.close();
    }
    rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  });
  return { port, pid: server.pid as number };
}
