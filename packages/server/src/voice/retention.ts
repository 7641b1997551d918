/**
 * VOICE_RETENTION_DAYS: a periodic sweep deletes the transmissions older than the retention, rows and files
 * together (VIDEO_RETENTION_DAYS: the same for live video's recordings, video/store.ts). Every instance sweeps;
 * deleting what another already deleted does nothing.
 */
import { loopTurn } from '../ops/loop-turn.ts';
import type { VoiceStore } from './store.ts';

/**
 * Transmissions deleted per statement (issue 57): each takes its `voice_heard` rows with it (tens per
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

const SWEEP_EVERY_MS = 60 * 60 * 1000;
/** The first sweep waits a little, so that a start is not slowed by it. */
const FIRST_SWEEP_AFTER_MS = 30 * 1000;

/** One sweep: deletes what started more than `retentionMs` before `now`; returns how many went. */
export function sweepExpiredVoice(
  voice: Pick<VoiceStore, 'removeOlderThan'>,
  retentionMs: number,
  now = Date.now(),
): Promise<number> {
  return voice.removeOlderThan(new Date(now - retentionMs));
}

/** Sweeps soon after start, then every hour; returns the function that stops it. */
export function startRetentionSweep(
  voice: Pick<VoiceStore, 'removeOlderThan'>,
  retentionMs: number,
  onError: (error: unknown) => void,
): () => void {
  const sweep = () => {
    sweepExpiredVoice(voice, retentionMs).catch(onError);
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
