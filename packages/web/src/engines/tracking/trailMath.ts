/** The arithmetic of trails and zones, apart from the map: periods, where a trail was at a moment, fence ends. */
import type { UserPosition } from '@talkgroup/protocol';

const HOUR = 3600_000;

/** The periods a trail is drawn over (the server keeps positions 30 days by default). */
export const TRAIL_PERIODS = {
  '1h': HOUR,
  '6h': 6 * HOUR,
  '24h': 24 * HOUR,
  '7d': 7 * 24 * HOUR,
  '30d': 30 * 24 * HOUR,
};
export type TrailPeriod = keyof typeof TRAIL_PERIODS;

/** How long a new zone watches (WAVE's geofences last from an hour to a week), or until it is deleted. */
export const FENCE_DURATIONS = { none: 0, '1h': HOUR, '8h': 8 * HOUR, '24h': 24 * HOUR, '7d': 7 * 24 * HOUR };
export type FenceDuration = keyof typeof FENCE_DURATIONS;

/** The start of a period ending now, rounded down to the minute (so that a query key stays the same a while). */
export function periodStart(period: TrailPeriod, now = Date.now()): string {
  const start = now - TRAIL_PERIODS[period];
  return new Date(start - (start % 60_000)).toISOString();
}

/** When a zone drawn now for `duration` stops watching (null: until deleted). */
export function fenceEnd(duration: FenceDuration, now = Date.now()): string | null {
  return duration === 'none' ? null : new Date(now + FENCE_DURATIONS[duration]).toISOString();
}

/** The times of a trail's points, parsed once (the trail is oldest first). */
export function trailTimes(trail: UserPosition[]): number[] {
  return trail.map((point) => Date.parse(point.createdAt));
}

/** Where the trail was at `at`: its latest point at or before that moment; none before its first point. */
export function positionAt(trail: UserPosition[], times: number[], at: number): UserPosition | undefined {
  let low = 0;
  let high = times.length - 1;
  let found = -1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (times[middle] <= at) {
      found = middle;
      low = middle + 1;
    } else high = middle - 1;
  }
  return found >= 0 ? trail[found] : undefined;
}
