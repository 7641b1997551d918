/** The import's password hashing pool: hashes that sign-in verifies, on as many workers as it was given. */
import { availableParallelism } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPool } from '../src/auth/hash-pool.ts';
import { needsRehash, OWASP_FIGURES, setScryptFiguresForTests, verifyPassword } from '../src/auth/passwords.ts';
import { TEST_FIGURES } from './setup-figures.ts';

// The other files hash with cheap figures (setup-figures.ts); the pool is checked with OWASP's.
beforeAll(() => setScryptFiguresForTests(OWASP_FIGURES));
afterAll(() => setScryptFiguresForTests(TEST_FIGURES));

describe('hash pool', () => {
  it('hashes with today’s figures, in a form sign-in verifies, each password its own salt', async () => {
    const pool = hashPool(1);
    try {
      const [first, second, again] = await Promise.all([
        pool.hash('first-secret'),
        pool.hash('second-secret'),
        pool.hash('first-secret'),
      ]);
      expect(await verifyPassword('first-secret', first)).toBe(true);
      expect(await verifyPassword('second-secret', second)).toBe(true);
      expect(await verifyPassword('second-secret', first)).toBe(false);
      expect(again).not.toBe(first);
      expect(needsRehash(first)).toBe(false);
      expect(first).toMatch(/^scrypt\$16384\$8\$5\$/);
      // The same NFKC normalisation as sign-in: a composed and a decomposed é are one password.
      expect(await verifyPassword('caf\u0065\u0301', await pool.hash('caf\u00e9'))).toBe(true);
    } finally {
      pool.stop();
    }
  });

  it('leaves a core to the rest: at most one worker fewer than the machine has cores, and at least one', () => {
    const pool = hashPool();
    expect(pool.size).toBe(Math.max(1, availableParallelism() - 1));
    pool.stop();
  });

  it('drops the hashes still waiting for a worker when their signal aborts (an import job that stops)', async () => {
    const pool = hashPool(1);
    try {
      const stop = new AbortController();
      const running = pool.hash('first-secret', stop.signal);
      const waiting = [pool.hash('second-secret', stop.signal), pool.hash('third-secret', stop.signal)];
      expect(pool.waiting).toBe(2);
      stop.abort();
      expect(pool.waiting).toBe(0);
      for (const hash of waiting) await expect(hash).rejects.toThrow(/aborted/);
      // The one a worker had already taken ends normally.
      expect(await verifyPassword('first-secret', await running)).toBe(true);
      await expect(pool.hash('late', stop.signal)).rejects.toThrow(/aborted/);
    } finally {
      pool.stop();
    }
  });
});
