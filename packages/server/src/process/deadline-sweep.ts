/**
 * Deadlines kept in the database, so that a restart loses none: the dispatch queue's reminders, expiries and
 * transfers (issue 49), regroups' ends (issue 59), lone workers' steps (issue 60). Every instance looks every
 * DEADLINE_SWEEP_MS and, when the deadlines say when the next one falls, sets a timer for it between two looks, so
 * that a step falls at its time. Each step is one conditional write: of two instances at once, one takes it and
 * tells it, the other finds it taken (periodic-sweep.ts).
 */
import { type PeriodicSweep, periodicSweep } from './periodic-sweep.ts';

/** How often each instance looks, whatever it was told. */
export const DEADLINE_SWEEP_MS = 2000;

/** What a domain hands its deadline sweep. */
export interface Deadlines {
  /** What a pass does, for the log: "ending the regroups whose time ran out". */
  what: string;
  /** Takes every step due now, each one conditional write. */
  takeDue(): Promise<unknown>;
  /** Milliseconds to the next deadline (0 when overdue); undefined: none. Without it, a step waits for a look. */
  nextIn?(): Promise<number | undefined>;
  /** What fell due while no instance was up is taken at start (without: each due step keeps its time). */
  takeAtStart: boolean;
}

export function deadlineSweep(deadlines: Deadlines, onError: (error: unknown, what: string) => void): PeriodicSweep {
  const { nextIn } = deadlines;
  return periodicSweep({
    everyMs: DEADLINE_SWEEP_MS,
    what: deadlines.what,
    pass: () => deadlines.takeDue(),
    nextIn: nextIn && (() => nextIn.call(deadlines)),
    atStart: deadlines.takeAtStart,
    onError,
  });
}
