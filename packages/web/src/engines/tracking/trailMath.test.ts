import type { UserPosition } from '@talkgroup/protocol';
import { describe, expect, it } from 'vitest';
import { fenceEnd, periodStart, positionAt, trailTimes } from './trailMath.ts';

const point = (lat: number, createdAt: string): UserPosition => ({ lat, lng: 2, accuracy: null, createdAt });

describe('trails', () => {
  const trail = [
    point(1, '2026-05-01T08:00:00.000Z'),
    point(2, '2026-05-01T08:00:10.000Z'),
    point(3, '2026-05-01T08:00:10.000Z'),
    point(4, '2026-05-01T08:05:00.000Z'),
  ];
  const times = trailTimes(trail);

  it('replays where a member was at a moment: its latest point then, none before its first', () => {
    expect(positionAt(trail, times, Date.parse('2026-05-01T07:59:59.999Z'))).toBeUndefined();
    expect(positionAt(trail, times, Date.parse('2026-05-01T08:00:00.000Z'))?.lat).toBe(1);
    expect(positionAt(trail, times, Date.parse('2026-05-01T08:00:10.000Z'))?.lat).toBe(3);
    expect(positionAt(trail, times, Date.parse('2026-05-01T08:04:59.000Z'))?.lat).toBe(3);
    expect(positionAt(trail, times, Date.parse('2026-05-02T00:00:00.000Z'))?.lat).toBe(4);
    expect(positionAt([], [], Date.now())).toBeUndefined();
  });

  it('starts a period on a whole minute, and ends a zone after its duration', () => {
    const now = Date.parse('2026-05-01T08:30:42.123Z');
    expect(periodStart('1h', now)).toBe('2026-05-01T07:30:00.000Z');
    expect(periodStart('7d', now)).toBe('2026-04-24T08:30:00.000Z');
    expect(fenceEnd('none', now)).toBeNull();
    expect(fenceEnd('8h', now)).toBe('2026-05-01T16:30:42.123Z');
  });
});
