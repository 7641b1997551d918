/**
 * VOICE_RETENTION_DAYS: a periodic sweep deletes the transmissions older than the retention, rows and files
 * together. Every instance sweeps; deleting what another already deleted does nothing.
 */
import type { VoiceStore } from './store.ts';

const SWEEP_EVERY_MS = 60 * 60 * 1000;
/** The first sweep waits a little, so that a start is not slowed by it. */
const FIRST_SWEEP_AFTER_MS = 30 * 1000;

/** One sweep: deletes what started more than `retentionMs` before `now`; returns how many went. */
export function sweepExpiredVoice(voice: VoiceStore, retentionMs: number, now = Date.now()): Promise<number> {
  return voice.removeOlderThan(new Date(now - retentionMs));
}

/** Sweeps soon after start, then every hour; returns the function that stops it. */
export function startRetentionSweep(
  voice: VoiceStore,
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
