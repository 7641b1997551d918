/**
 * POSITION_RETENTION_DAYS: a periodic sweep deletes the positions reported before the retention, like voice
 * history's (voice/retention.ts). Every instance sweeps; deleting what another already deleted does nothing.
 */
import type { PositionStore } from './store.ts';

const SWEEP_EVERY_MS = 60 * 60 * 1000;
/** The first sweep waits a little, so that a start is not slowed by it. */
const FIRST_SWEEP_AFTER_MS = 45 * 1000;

/** One sweep: deletes what was reported more than `retentionMs` before `now`; returns how many went. */
export function sweepExpiredPositions(
  positions: PositionStore,
  retentionMs: number,
  now = Date.now(),
): Promise<number> {
  return positions.removeOlderThan(new Date(now - retentionMs));
}

/** Sweeps soon after start, then every hour; returns the function that stops it. */
export function startPositionSweep(
  positions: PositionStore,
  retentionMs: number,
  onError: (error: unknown) => void,
  timing: { firstAfterMs?: number; everyMs?: number } = {},
): () => void {
  const sweep = () => {
    sweepExpiredPositions(positions, retentionMs).catch(onError);
  };
  const first = setTimeout(sweep, timing.firstAfterMs ?? FIRST_SWEEP_AFTER_MS);
  const every = setInterval(sweep, timing.everyMs ?? SWEEP_EVERY_MS);
  first.unref();
  every.unref();
  return () => {
    clearTimeout(first);
    clearInterval(every);
  };
}
