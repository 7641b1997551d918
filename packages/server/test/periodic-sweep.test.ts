/**
 * The periodic sweep (process/periodic-sweep.ts) never runs two passes at once on an instance: passes asked for while
 * one runs wait for it, then run one after the other (two that waited on the same pass used to start together).
 */
import { describe, expect, it } from 'vitest';
import { periodicSweep } from '../src/process/periodic-sweep.ts';

describe('periodicSweep', () => {
  it('runs the passes asked for meanwhile one after the other, never two at once', async () => {
    let active = 0;
    let most = 0;
    let passes = 0;
    const gates: Array<() => void> = [];
    const sweep = periodicSweep({
      everyMs: 60_000,
      what: 'a test pass',
      onError: (error) => {
        throw error;
      },
      pass: async () => {
        active += 1;
        passes += 1;
        most = Math.max(most, active);
        await new Promise<void>((resolve) => gates.push(resolve));
        active -= 1;
      },
    });
    const asked = [sweep.sweepNow(), sweep.sweepNow(), sweep.sweepNow()];
    // Each pass is let go once it has started: the next may start only then.
    while (passes < 3 || gates.length > 0) {
      await expect.poll(() => gates.length).toBeGreaterThan(0);
      gates.shift()?.();
      await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all(asked);
    expect(passes).toBe(3);
    expect(most).toBe(1);
  });
});
