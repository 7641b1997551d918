/** Opens the database the configuration names: SQLite in DATA_DIR by default, PostgreSQL with DATABASE_URL. */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { Kysely, type LogConfig, PostgresDialect, SqliteDialect, sql } from 'kysely';
import type pg from 'pg';
import type { Dialect } from './dialect.ts';
import { migrate } from './migrations/index.ts';
import type { Database, Db } from './schema.ts';
import { sqliteAdapter } from './sqlite-adapter.ts';

export type { Dialect } from './dialect.ts';

export interface OpenedDatabase {
  db: Db;
  dialect: Dialect;
  /** Is the database answering? For /health. */
  ping(): Promise<boolean>;
  /** Calls the listener after each query with its duration (process/metrics.ts). */
  onQuery(listener: QueryListener): void;
  close(): Promise<void>;
  /** Where it is, for a connection of its own beside this one (the reports' reader: reports/reader.ts). */
  location: DatabaseLocation;
}

/** SQLite's file, or PostgreSQL's address with the options the server's pool was opened with. */
export type DatabaseLocation =
  | { dialect: 'sqlite'; file: string }
  | ({ dialect: 'postgres'; url: string } & Pick<DatabaseOptions, 'pgSchema' | 'timeoutMs' | 'onIdleError'>);

export type QueryListener = (durationMs: number, failed: boolean) => void;

export interface DatabaseOptions {
  dataDir: string;
  databaseUrl?: string;
  /** PostgreSQL schema to use (tests give each run its own). */
  pgSchema?: string;
  /**
   * The longest a query of the server may wait on PostgreSQL (DATABASE_TIMEOUT_SECONDS, 5 s by default): for a
   * connection from the pool, for a new connection, and for the statement itself. Past it the query fails (503).
   * Unset (the tools), statements are not bounded; connections are, by DATABASE_TIMEOUT_MS.
   */
  timeoutMs?: number;
  /** Told of a pooled connection that broke while idle (the database restarted): the pool replaces it. */
  onIdleError?: (error: Error) => void;
}

export const DATABASE_TIMEOUT_MS = 5000;
/** /readyz answers within this, whatever the database does. */
const PING_TIMEOUT_MS = 1500;

const TIMESTAMPTZ_OID = 1184;
const TIMESTAMP_OID = 1114;
const INT8_OID = 20;

/** Timestamps come back as ISO 8601 strings, counts as numbers, as they do from SQLite. */
function pgTypes(driver: typeof pg) {
  return {
    getTypeParser(oid: number, format?: 'text' | 'binary') {
      if (oid === TIMESTAMPTZ_OID || oid === TIMESTAMP_OID) return (value: string) => new Date(value).toISOString();
      if (oid === INT8_OID) return (value: string) => Number(value);
      return driver.types.getTypeParser(oid, format);
    },
  };
}

/** The SQLite database's file in the data folder. */
const sqliteFile = (dataDir: string) => path.join(dataDir, 'talkgroup.sqlite');

function openSqlite(dataDir: string, log: LogConfig): { db: Kysely<Database>; database: DatabaseSync } {
  mkdirSync(dataDir, { recursive: true });
  const database = new DatabaseSync(sqliteFile(dataDir));
  // WAL with synchronous=FULL: an acknowledged write survives kill -9 and power loss.
  database.exec('PRAGMA journal_mode = WAL');
  database.exec('PRAGMA synchronous = FULL');
  database.exec('PRAGMA foreign_keys = ON');
  database.exec('PRAGMA busy_timeout = 5000');
  return {
    db: new Kysely<Database>({ dialect: new SqliteDialect({ database: sqliteAdapter(database) }), log }),
    database,
  };
}

/**
 * A pool of `max` connections (the server's has 10). Also opened on its own, beside the server's, by the reports'
 * reader (reports/reader.ts: 2 connections), so that long reads never take the connections every request needs.
 */
export async function openPostgresPool(
  url: string,
  options: Pick<DatabaseOptions, 'pgSchema' | 'timeoutMs' | 'onIdleError'>,
  max: number,
  log?: LogConfig,
): Promise<Kysely<Database>> {
  const { pgSchema: schema } = options;
  // The tools (backup, restore, admin) give no timeout: their long statements are meant; they still do not
  // wait for ever on a connection.
  const timeoutMs = options.timeoutMs;
  // The driver is loaded only for PostgreSQL: an embedded SQLite deployment never holds it in memory.
  const { default: driver } = await import('pg');
  // Every wait is bounded: a database that restarts, fails over or drops its connections makes requests fail
  // fast with 503 (http/outages.ts) instead of hanging, and the pool makes new connections once it is back.
  const pool = new driver.Pool({
    connectionString: url,
    max,
    types: pgTypes(driver),
    // Waiting for a free pooled connection and opening a new one.
    connectionTimeoutMillis: timeoutMs ?? DATABASE_TIMEOUT_MS,
    // The server cancels a statement that runs longer; the client gives up on one whose answer never comes.
    ...(timeoutMs ? { statement_timeout: timeoutMs, query_timeout: timeoutMs } : {}),
    // A connection silently cut (a failover behind a load balancer) is found by TCP keep-alive.
    keepAlive: true,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  // A pooled connection that breaks while idle is dropped by the pool; without a listener it would crash the process.
  pool.on('error', (error) => options.onIdleError?.(error));
  // pg-pool listens for errors only while a connection is idle: one that breaks while checked out (between the
  // statements of a transaction) would crash the process. Its query fails by itself, and the pool drops it on
  // release (it is no longer queryable).
  pool.on('connect', (client) => {
    client.on('error', () => {});
  });
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }), ...(log ? { log } : {}) });
}

export async function openDatabase(options: DatabaseOptions): Promise<OpenedDatabase> {
  const dialect: Dialect = options.databaseUrl ? 'postgres' : 'sqlite';
  if (options.pgSchema && !/^[a-z_][a-z0-9_]*$/.test(options.pgSchema)) throw new Error('invalid schema name');
  const listeners: QueryListener[] = [];
  const log: LogConfig = (event) => {
    for (const listener of listeners) listener(event.queryDurationMillis, event.level === 'error');
  };
  const sqlite = options.databaseUrl ? undefined : openSqlite(options.dataDir, log);
  const db = sqlite ? sqlite.db : await openPostgresPool(options.databaseUrl as string, options, 10, log);
  if (options.pgSchema) await sql`create schema if not exists ${sql.id(options.pgSchema)}`.execute(db);
  // Node opens SQLite in defensive mode, which forbids editing sqlite_schema: a migration may need it (0010
  // drops a CHECK constraint the way SQLite's documentation gives), so it is lifted while migrations run only.
  sqlite?.database.enableDefensive(false);
  try {
    await migrate(db as unknown as Kysely<unknown>, dialect);
  } finally {
    sqlite?.database.enableDefensive(true);
  }
  return {
    db,
    dialect,
    async ping() {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), PING_TIMEOUT_MS);
      });
      const answered = sql`select 1`.execute(db).then(
        () => true,
        () => false,
      );
      try {
        return await Promise.race([answered, late]);
      } finally {
        clearTimeout(timer);
      }
    },
    onQuery(listener) {
      listeners.push(listener);
    },
    close: () => db.destroy(),
    location: options.databaseUrl
      ? {
          dialect: 'postgres',
          url: options.databaseUrl,
          pgSchema: options.pgSchema,
          timeoutMs: options.timeoutMs,
          onIdleError: options.onIdleError,
        }
      : { dialect: 'sqlite', file: sqliteFile(options.dataDir) },
  };
}
