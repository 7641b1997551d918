import { describe, expect, it } from 'vitest';
import { distanceMetres, shouldReport } from './positionThrottle.ts';

const eiffel = { lat: 48.8584, lng: 2.2945 };
/** About 111 m north of it. */
const north = { lat: 48.8594, lng: 2.2945 };

describe('position reports', () => {
  it('measures distances on the globe', () => {
    expect(distanceMetres(eiffel, north)).toBeGreaterThan(105);
    expect(distanceMetres(eiffel, north)).toBeLessThan(116);
    expect(distanceMetres(eiffel, eiffel)).toBe(0);
  });

  it('sends the first position at once', () => {
    expect(shouldReport(null, { ...eiffel, at: 0 })).toBe(true);
  });

  it('holds a move back until the interval has passed', () => {
    expect(shouldReport({ ...eiffel, at: 0 }, { ...north, at: 9_999 })).toBe(false);
    expect(shouldReport({ ...eiffel, at: 0 }, { ...north, at: 10_000 })).toBe(true);
  });

  it('ignores GPS jitter of a phone that stands still, however long', () => {
    const jitter = { lat: eiffel.lat + 0.0001, lng: eiffel.lng };
    expect(distanceMetres(eiffel, jitter)).toBeLessThan(20);
    expect(shouldReport({ ...eiffel, at: 0 }, { ...jitter, at: 3_600_000 })).toBe(false);
  });
});
