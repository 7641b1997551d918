/**
 * The lone workers' deadlines (issue 60), from the rows kept in the database (a restart loses none): every
 * instance looks every LONE_WORKER_SWEEP_MS and, between two looks, sets a timer for the next deadline when it
 * comes sooner (process/periodic-sweep.ts). Each step is one conditional write (lone-worker-store.ts `claim`): of two
 * instances at once, one takes it and tells it, the other finds it taken.
 */
import { type PeriodicSweep, periodicSweep } from '../process/periodic-sweep.ts';
import type { LoneWorkers } from './lone-workers.ts';

export const LONE_WORKER_SWEEP_MS = 2000;

export function loneWorkerSweep(deps: {
  loneWorkers: LoneWorkers;
  onError: (error: unknown, what: string) => void;
}): PeriodicSweep {
  return periodicSweep({
    everyMs: LONE_WORKER_SWEEP_MS,
    what: 'taking the lone workers’ due steps',
    pass: () => deps.loneWorkers.stepDue(),
    nextIn: () => deps.loneWorkers.nextStepIn(),
    // What fell due while no instance was up is taken now.
    atStart: true,
    onError: deps.onError,
  });
}
