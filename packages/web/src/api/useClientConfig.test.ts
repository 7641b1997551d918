import { describe, expect, it } from 'vitest';
import { renewalDelay } from './useClientConfig.ts';

describe('client configuration renewal', () => {
  const HOUR = 3_600_000;
  it('fetches again before the TURN credentials expire, with a sixth of their lifetime to spare', () => {
    const fetchedAt = Date.parse('2026-11-24T08:00:00Z');
    const config = { iceServersExpireAt: new Date(fetchedAt + 12 * HOUR).toISOString() };
    expect(renewalDelay(config, fetchedAt, fetchedAt)).toBe(12 * HOUR * 0.85);
    // Later in the day, the wait shrinks; past the renewal time it is a minute (never a busy loop).
    expect(renewalDelay(config, fetchedAt + 6 * HOUR, fetchedAt)).toBe(12 * HOUR * 0.85 - 6 * HOUR);
    expect(renewalDelay(config, fetchedAt + 11 * HOUR, fetchedAt)).toBe(60_000);
  });

  it("renews the server's default hour-long credentials 9 minutes before they expire", () => {
    const fetchedAt = Date.parse('2026-11-24T08:00:00Z');
    const config = { iceServersExpireAt: new Date(fetchedAt + HOUR).toISOString() };
    expect(renewalDelay(config, fetchedAt, fetchedAt)).toBe(51 * 60_000);
    expect(renewalDelay(config, fetchedAt + 55 * 60_000, fetchedAt)).toBe(60_000);
  });

  it('never fetches again when nothing in the configuration expires', () => {
    expect(renewalDelay({}, Date.now(), Date.now())).toBe(false);
    expect(renewalDelay(undefined, Date.now(), Date.now())).toBe(false);
  });
});
