/**
 * How long an area channel waits (issue 59): AREA_EXIT_SECONDS (60) outside the zone before a member is taken
 * out, AREA_SILENCE_MINUTES (15) without a report before it counts as gone; the sweep looks every 5 s.
 */
import { parsePositiveSeconds } from './values.ts';

export interface AreaTimings {
  /** Outside this long (from the first position outside): taken out. */
  exitMs: number;
  /** No report this long: counted as gone. */
  silenceMs: number;
  /** How often the sweep looks (the exits land within this after their time). */
  sweepMs: number;
}

export function parseAreaTimings(env: NodeJS.ProcessEnv): AreaTimings {
  return {
    exitMs: parsePositiveSeconds('AREA_EXIT_SECONDS', env.AREA_EXIT_SECONDS, 60) * 1000,
    silenceMs: parsePositiveSeconds('AREA_SILENCE_MINUTES', env.AREA_SILENCE_MINUTES, 15) * 60_000,
    sweepMs: 5_000,
  };
}
