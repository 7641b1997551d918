/**
 * VOICE_RETENTION_DAYS: the transmissions older than the retention go, rows and files together (the sweep itself,
 * shared with live video's recordings: process/retention.ts).
 */
import type { VoiceStore } from './store.ts';

export { startRetentionSweep } from '../process/retention.ts';

/** One sweep: deletes what started more than `retentionMs` before `now`; returns how many went. */
export function sweepExpiredVoice(
  voice: Pick<VoiceStore, 'removeOlderThan'>,
  retentionMs: number,
  now = Date.now(),
): Promise<number> {
  return voice.removeOlderThan(new Date(now - retentionMs));
}
