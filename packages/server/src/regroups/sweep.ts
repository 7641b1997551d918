/**
 * A regroup's minutes running out (issue 59), from the deadlines kept in the database (a restart loses nothing):
 * every instance looks every REGROUP_SWEEP_MS, and between two looks sets a timer for the next deadline when it
 * comes sooner, so that a regroup ends at its time (process/periodic-sweep.ts). Each end is one conditional write
 * (regroups.ts `finish`): of two instances at once, one ends it and brings its members back, the other finds it
 * ended.
 */
import { type PeriodicSweep, periodicSweep } from '../process/periodic-sweep.ts';
import type { Regroups } from './regroups.ts';

/** How often each instance looks, whatever it was told. */
export const REGROUP_SWEEP_MS = 2000;

export function regroupSweep(deps: {
  regroups: Regroups;
  onError: (error: unknown, what: string) => void;
}): PeriodicSweep {
  return periodicSweep({
    everyMs: REGROUP_SWEEP_MS,
    what: 'ending the regroups whose time ran out',
    pass: () => deps.regroups.expireDue(),
    nextIn: () => deps.regroups.nextExpiryIn(),
    // What ran out while no instance was up ends now.
    atStart: true,
    onError: deps.onError,
  });
}
