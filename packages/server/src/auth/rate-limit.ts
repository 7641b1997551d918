/**
 * Sign-in attempts limited per address and per (address, login) in a sliding window.
 * Kept in memory: behind several instances each counts its own share, which still bounds guessing.
 */
export interface RateLimiter {
  /** True when another attempt is allowed now. */
  allowed(keys: string[]): boolean;
  fail(keys: string[]): void;
  reset(keys: string[]): void;
}

export function rateLimiter(maxFailures: number, windowMs: number): RateLimiter {
  const failures = new Map<string, number[]>();
  const recent = (key: string, now: number) => (failures.get(key) ?? []).filter((t) => now - t < windowMs);
  return {
    allowed(keys) {
      const now = Date.now();
      return keys.every((key) => recent(key, now).length < maxFailures);
    },
    fail(keys) {
      const now = Date.now();
      for (const key of keys) failures.set(key, [...recent(key, now), now]);
      if (failures.size > 100_000) failures.clear();
    },
    reset(keys) {
      for (const key of keys) failures.delete(key);
    },
  };
}
