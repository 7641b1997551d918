/**
 * A regroup's minutes running out (issue 59), from the deadlines kept in the database (a restart loses nothing):
 * every instance looks every REGROUP_SWEEP_MS, and between two looks sets a timer for the next deadline when it
 * comes sooner, so that a regroup ends at its time. Each end is one conditional write (regroups.ts `finish`): of
 * two instances at once, one ends it and brings its members back, the other finds it ended.
 */
import type { Regroups } from './regroups.ts';

/** How often each instance looks, whatever it was told. */
export const REGROUP_SWEEP_MS = 2000;

export function regroupSweep(deps: { regroups: Regroups; onError: (error: unknown, what: string) => void }) {
  let timer: NodeJS.Timeout | undefined;
  /** The timer set for the next deadline, when it comes before the next look. */
  let deadline: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;
  /** A database outage fails every pass: said once, until a pass succeeds again. */
  let failing = false;

  async function pass(): Promise<void> {
    await deps.regroups.expireDue();
    const next = await deps.regroups.nextExpiryIn();
    if (deadline) clearTimeout(deadline);
    deadline = undefined;
    if (stopped || next === undefined || next >= REGROUP_SWEEP_MS) return;
    deadline = setTimeout(() => void sweepNow(), next + 5);
    deadline.unref();
  }

  /** One pass now (at start, and when a regroup is made here); never two at once on this instance. */
  async function sweepNow(): Promise<void> {
    if (running) await running;
    running = pass()
      .then(() => {
        failing = false;
      })
      .catch((error) => {
        if (!failing) deps.onError(error, 'ending the regroups whose time ran out');
        failing = true;
      })
      .finally(() => {
        running = undefined;
      });
    await running;
  }

  return {
    sweepNow,
    start(): void {
      if (timer) return;
      // What ran out while no instance was up ends now.
      void sweepNow();
      timer = setInterval(() => {
        if (!running) void sweepNow();
      }, REGROUP_SWEEP_MS);
      timer.unref();
    },
    async stop(): Promise<void> {
      stopped = true;
      if (timer) clearInterval(timer);
      if (deadline) clearTimeout(deadline);
      timer = undefined;
      if (running) await running;
    },
  };
}
