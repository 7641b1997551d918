/**
 * Where reports are read (issue 57: a long read must not stop the voice): never on the main thread's SQLite
 * connection nor on the pool every request shares.
 * - SQLite: worker threads with read-only connections of their own (reader-threads.ts).
 * - PostgreSQL: a pool of its own of REPORTS_AT_ONCE connections; each report reads on one of them (its queries
 *   one after the other), so that reports never wait for each other's connections nor take the server's.
 * - SQLite in memory (':memory:'): a worker's connection would open another, empty database, so such a database
 *   is read on the main connection. openDatabase always opens a file; this is for a database handed in otherwise.
 */
import { threadId } from 'node:worker_threads';
import { type DatabaseLocation, openPostgresPool } from '../db/open.ts';
import type { Db } from '../db/schema.ts';
import { REPORTS_AT_ONCE } from './gate.ts';
import { type ReaderThreadsOptions, readerThreads } from './reader-threads.ts';
import type { ReadReport, ReportReader } from './reading.ts';
import { type ReportStore, reportMeasures, reportStore } from './store.ts';

export type { ReadReport, ReportReader };

export function reportReader(
  location: DatabaseLocation,
  store: ReportStore,
  options: Omit<ReaderThreadsOptions, 'hold'> = {},
): ReportReader {
  if (location.dialect === 'postgres') return postgresReader(location);
  if (location.file === ':memory:') return mainThreadReader(store);
  return readerThreads(location.file, options);
}

function mainThreadReader(store: ReportStore): ReportReader {
  return {
    where: 'main',
    read: async (scope) => ({ measures: await reportMeasures(store, scope), threadId }),
    close: async () => {},
  };
}

function postgresReader(location: Extract<DatabaseLocation, { dialect: 'postgres' }>): ReportReader {
  // Opened at the first report: a server whose reports nobody reads holds no connection for them.
  let pool: Promise<Db> | undefined;
  return {
    where: 'pool',
    async read(scope) {
      pool ??= openPostgresPool(location.url, location, REPORTS_AT_ONCE);
      const measures = await (await pool)
        .connection()
        .execute((connection) => reportMeasures(reportStore(connection, 'postgres'), scope));
      return { measures, threadId };
    },
    async close() {
      const opened = pool;
      pool = undefined;
      if (opened) await (await opened).destroy();
    },
  };
}
