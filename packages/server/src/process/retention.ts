/**
 * Retention (VOICE_RETENTION_DAYS, VIDEO_RETENTION_DAYS): a periodic sweep deletes what is older than the retention,
 * rows and files together, a batch at a time. Every instance sweeps; deleting what another already deleted does
 * nothing.
 */
import { loopTurn } from './loop-turn.ts';

/**
 * Rows deleted per statement (issue 57): a transmission takes its `voice_heard` rows with it (tens per
 * transmission), and on SQLite a statement holds the main thread. 50 keep one short; the event loop turns between
 * them, so that a retention sweep of months (the first after a start) never stalls the floor: 500 a statement
 * held the loop 100 to 220 ms at a time (bench:isolation, idle on SQLite, before).
 */
export const REMOVED_PER_STATEMENT = 50;

/**
 * Deletes batch after batch (`readBatch` gives the next at most REMOVED_PER_STATEMENT rows to go, oldest first),
 * letting the event loop turn between them, until a batch comes short; returns how many went.
 */
export async function removeInBatches<Row>(
  readBatch: (limit: number) => Promise<Row[]>,
  removeRows: (rows: Row[]) => Promise<void>,
): Promise<number> {
  let removed = 0;
  for (;;) {
    const rows = await readBatch(REMOVED_PER_STATEMENT);
    await removeRows(rows);
    removed += rows.length;
    if (rows.length < REMOVED_PER_STATEMENT) return removed;
    await loopTurn();
  }
}

/** What a retention sweep deletes from: everything that started before a time. */
export interface Expiring {
  removeOlderThan(before: Date): Promise<number>;
}

const SWEEP_EVERY_MS = 60 * 60 * 1000;
/** The first sweep waits a little, so that a start is not slowed by it. */
const FIRST_SWEEP_AFTER_MS = 30 * 1000;

/** Sweeps soon after start, then every hour, what started more than `retentionMs` ago; returns its stop. */
export function startRetentionSweep(
  store: Expiring,
  retentionMs: number,
  onError: (error: unknown) => void,
): () => void {
  const sweep = () => {
    store.removeOlderThan(new Date(Date.now() - retentionMs)).catch(onError);
  };
  const first = setTimeout(sweep, FIRST_SWEEP_AFTER_MS);
  const every = setInterval(sweep, SWEEP_EVERY_MS);
  first.unref();
  every.unref();
  return () => {
    clearTimeout(first);
    clearInterval(every);
  };
}
