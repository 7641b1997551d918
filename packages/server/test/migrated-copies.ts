/**
 * Each test deployment starts from a copy of a database migrated once per test process, instead of running
 * every migration again (about 0.4 s on SQLite and 1 s on PostgreSQL per test, a fifth of the suite):
 * - SQLite: the migrated file is copied into the test's data folder before it opens;
 * - PostgreSQL: a schema migrated once is dumped as SQL (pg_dump, the server's own client tools), and each test's
 *   schema is made by that script under its own name in one round trip.
 * The server still runs its migrations at open: they find every one of them applied. The migrations themselves
 * run from scratch once per test process here, and in every server process the tests start (process, cluster,
 * browser tests). Without pg_dump, a PostgreSQL schema is migrated the slow way.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { openDatabase } from '../src/db/open.ts';

const SQLITE_FILE = 'talkgroup.sqlite';

let sqliteTemplate: Promise<string> | undefined;

/** Copies the migrated SQLite file into `dataDir`, unless a database is already there. */
export async function copyMigratedSqlite(dataDir: string): Promise<void> {
  const target = path.join(dataDir, SQLITE_FILE);
  if (existsSync(target)) return;
  sqliteTemplate ??= (async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'talkgroup-template-'));
    process.once('exit', () => rmSync(folder, { recursive: true, force: true }));
    // Closing checkpoints the write-ahead log into the file: the one file holds everything.
    await (await openDatabase({ dataDir: folder })).close();
    return path.join(folder, SQLITE_FILE);
  })();
  copyFileSync(await sqliteTemplate, target);
}

let pgTemplate: Promise<{ name: string; script: string } | undefined> | undefined;

function dumpMigratedSchema(databaseUrl: string): Promise<{ name: string; script: string } | undefined> {
  pgTemplate ??= (async () => {
    const name = `tpl_${randomBytes(8).toString('hex')}`;
    const folder = mkdtempSync(path.join(tmpdir(), 'talkgroup-template-'));
    const database = await openDatabase({ dataDir: folder, databaseUrl, pgSchema: name });
    try {
      const url = new URL(databaseUrl);
      const dump = execFileSync(
        'pg_dump',
        ['--schema', name, '--no-owner', '--no-privileges', '--inserts', '--dbname', url.toString()],
        { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
      );
      // psql's meta-commands (\restrict) are not SQL; the rest is one script the server runs at once.
      const script = dump
        .split('\n')
        .filter((line) => !line.startsWith('\\'))
        .join('\n');
      return { name, script };
    } catch {
      return undefined;
    } finally {
      await sql`drop schema if exists ${sql.id(name)} cascade`.execute(database.db);
      await database.close();
      rmSync(folder, { recursive: true, force: true });
    }
  })();
  return pgTemplate;
}

/** Makes `schema` a migrated copy (see above); false when there is no pg_dump and migrations must run. */
export async function createMigratedSchema(databaseUrl: string, schema: string): Promise<boolean> {
  const template = await dumpMigratedSchema(databaseUrl);
  if (!template) return false;
  const { default: driver } = await import('pg');
  const client = new driver.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    // The template's name is random and unique: replacing it renames the schema and nothing else.
    await client.query(template.script.replaceAll(template.name, schema));
  } finally {
    await client.end();
  }
  return true;
}
