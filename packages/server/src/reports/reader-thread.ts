/**
 * A report reader's worker thread (reader-threads.ts starts it): the reports' store over a read-only connection
 * of its own to the SQLite file, so that node:sqlite's synchronous reads block this thread, never the server's
 * main one. WAL (db/open.ts) lets it read while the main connection writes. It reads one report at a time:
 * `{ id, scope }` in, `{ id, measures, threadId }` or `{ id, error }` out.
 *
 * Only the store and its helpers are loaded here (no migrations, no pg): the thread stays small.
 */
import { DatabaseSync } from 'node:sqlite';
import { parentPort, threadId, workerData } from 'node:worker_threads';
import { Kysely, SqliteDialect } from 'kysely';
import type { Database } from '../db/schema.ts';
import { sqliteAdapter } from '../db/sqlite-adapter.ts';
import { backgroundThread } from '../process/thread-priority.ts';
import type { ReportScope } from './scope.ts';
import { type ReportMeasures, reportMeasures, reportStore } from './store.ts';

export interface ReaderThreadData {
  file: string;
  /**
   * Tests only (reader-threads.ts, `hold`): each report first adds 1 to word 1, then waits, blocking this thread
   * as a long synchronous read would, until word 0 is no longer 0. 2 there ends the thread, as a crash would
   * (once: the word is set to 1 first, so that the next thread reads on).
   */
  hold?: Int32Array;
}

export type ReaderThreadRequest = { id: number; scope: ReportScope };
export type ReaderThreadAnswer =
  | { id: number; measures: ReportMeasures; threadId: number }
  | { id: number; error: string };

// A report's reads yield the CPU to the floor and the SIP relay (process/thread-priority.ts).
backgroundThread();
const { file, hold } = workerData as ReaderThreadData;
const database = new DatabaseSync(file, { readOnly: true });
// A checkpoint that truncates the log holds its lock briefly: wait for it, as the main connection does.
database.exec('PRAGMA busy_timeout = 5000');
const store = reportStore(
  new Kysely<Database>({ dialect: new SqliteDialect({ database: sqliteAdapter(database) }) }),
  'sqlite',
);
const port = parentPort;
if (!port) throw new Error('reader-thread.ts runs in a worker thread');

port.on('message', async ({ id, scope }: ReaderThreadRequest) => {
  try {
    if (hold) {
      Atomics.add(hold, 1, 1);
      Atomics.wait(hold, 0, 0);
      if (Atomics.compareExchange(hold, 0, 2, 1) === 2) process.exit(1);
    }
    const answer: ReaderThreadAnswer = { id, measures: await reportMeasures(store, scope), threadId };
    port.postMessage(answer);
  } catch (error) {
    port.postMessage({ id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  }
});
