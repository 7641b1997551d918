/**
 * Each test deployment starts from a copy of a database migrated once per test process, instead of running
 * every migration again (about 0.4 s on SQLite and 1 s on PostgreSQL per test, a fifth of the suite):
 * - SQLite: the migrated file is copied into the test's data folder before it opens;
 * - PostgreSQL: a schema migrated once per run is dumped as SQL (pg_dump, the server's own client tools), and a
 *   test's schema is made by that script under its own name in one round trip, or is one an earlier test of the
 *   run gave back, emptied (schema-pool.ts).
 * The server still runs its migrations at open: they find every one of them applied. The migrations themselves
 * run from scratch once per test process (SQLite) or run (PostgreSQL) here, and in every server process the tests
 * start (process, cluster, browser tests). Without pg_dump, a PostgreSQL schema is migrated the slow way.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { openDatabase } from '../src/db/open.ts';
import {
  giveBackSchema,
  recordSchema,
  type SchemaTemplate,
  schemaShape,
  sharedSqliteTemplate,
  sharedTemplate,
  takeSchema,
  testRun,
  withClient,
} from './schema-pool.ts';

const SQLITE_FILE = 'talkgroup.sqlite';

let sqliteTemplate: Promise<string> | undefined;

/** Copies the migrated SQLite file into `dataDir`, unless a database is already there. */
export async function copyMigratedSqlite(dataDir: string): Promise<void> {
  const target = path.join(dataDir, SQLITE_FILE);
  if (existsSync(target)) return;
  sqliteTemplate ??= (async () => {
    const run = testRun();
    const shared = run ? sharedSqliteTemplate(run) : undefined;
    if (shared && existsSync(shared)) return shared;
    const folder = mkdtempSync(path.join(tmpdir(), 'talkgroup-template-'));
    process.once('exit', () => rmSync(folder, { recursive: true, force: true }));
    // Closing checkpoints the write-ahead log into the file: the one file holds everything.
    await (await openDatabase({ dataDir: folder })).close();
    const made = path.join(folder, SQLITE_FILE);
    if (!shared) return made;
    // Copied beside, then renamed: another file of the run sees the whole file or none (two that make it at
    // once put the same file there).
    const beside = `${shared}.${process.pid}`;
    copyFileSync(made, beside);
    renameSync(beside, shared);
    return shared;
  })();
  copyFileSync(await sqliteTemplate, target);
}

let pgTemplate: Promise<SchemaTemplate | undefined> | undefined;

function makeTemplate(databaseUrl: string): Promise<SchemaTemplate | undefined> {
  return (async () => {
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
      const shape = await withClient(databaseUrl, (client) => schemaShape(client, name));
      return shape ? { name, script, shape } : undefined;
    } catch (error) {
      // No pg_dump on this machine: each schema is migrated the slow way.
      if ((error as { code?: string }).code === 'ENOENT') return undefined;
      throw error;
    } finally {
      await sql`drop schema if exists ${sql.id(name)} cascade`.execute(database.db);
      await database.close();
      rmSync(folder, { recursive: true, force: true });
    }
  })();
}

/** The migrated template: the run's (schema-pool.ts), or this process's when there is no run. */
function migratedTemplate(databaseUrl: string): Promise<SchemaTemplate | undefined> {
  const run = testRun();
  pgTemplate ??= run ? sharedTemplate(databaseUrl, run, () => makeTemplate(databaseUrl)) : makeTemplate(databaseUrl);
  return pgTemplate;
}

/** A migrated schema one test uses, and what hands it back when every connection to it is closed. */
export interface SchemaLease {
  schema: string;
  giveBack(): Promise<void>;
}

/**
 * A migrated schema for one test: a free one of the run, emptied (schema-pool.ts), or a new copy of the template;
 * undefined when there is no pg_dump and the caller's schema must be migrated the slow way.
 */
export async function leaseMigratedSchema(databaseUrl: string, run = testRun()): Promise<SchemaLease | undefined> {
  const template = await migratedTemplate(databaseUrl);
  if (!template) return undefined;
  const free = run ? await takeSchema(databaseUrl, run) : undefined;
  if (run && free) return { schema: free, giveBack: () => giveBackSchema(databaseUrl, run, free, template) };
  const schema = `t_${randomBytes(6).toString('hex')}`;
  // Recorded before it exists: the run's end drops it even if its test never gives it back.
  if (run) await recordSchema(databaseUrl, run, schema);
  // The template's name is random and unique: replacing it renames the schema and nothing else.
  await withClient(databaseUrl, (client) => client.query(template.script.replaceAll(template.name, schema)));
  return {
    schema,
    giveBack: run ? () => giveBackSchema(databaseUrl, run, schema, template) : () => dropSchema(databaseUrl, schema),
  };
}

async function dropSchema(databaseUrl: string, schema: string): Promise<void> {
  await withClient(databaseUrl, (client) => client.query(`drop schema if exists ${schema} cascade`));
}
