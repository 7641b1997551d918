/**
 * The lone workers' deadlines (issue 60), from the rows kept in the database (a restart loses none): every
 * instance looks every LONE_WORKER_SWEEP_MS and, between two looks, sets a timer for the next deadline when it
 * comes sooner. Each step is one conditional write (lone-worker-store.ts `claim`): of two instances at once,
 * one takes it and tells it, the other finds it taken.
 */
import type { LoneWorkers } from './lone-workers.ts';

export const LONE_WORKER_SWEEP_MS = 2000;

export function loneWorkerSweep(deps: { loneWorkers: LoneWorkers; onError: (error: unknown, what: string) => void }) {
  let timer: NodeJS.Timeout | undefined;
  let deadline: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;
  /** A database outage fails every pass: said once, until a pass succeeds again. */
  let failing = false;

  async function pass(): Promise<void> {
    await deps.loneWorkers.stepDue();
    const next = await deps.loneWorkers.nextStepIn();
    if (deadline) clearTimeout(deadline);
    deadline = undefined;
    if (stopped || next === undefined || next >= LONE_WORKER_SWEEP_MS) return;
    deadline = setTimeout(() => void sweepNow(), next + 5);
    deadline.unref();
  }

  /** One pass now (at start, and when lone work starts or is answered here); never two at once here. */
  async function sweepNow(): Promise<void> {
    if (running) await running;
    if (stopped) return;
    running = pass()
      .then(() => {
        failing = false;
      })
      .catch((error) => {
        if (!failing) deps.onError(error, 'taking the lone workers’ due steps');
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
      // What fell due while no instance was up is taken now.
      void sweepNow();
      timer = setInterval(() => {
        if (!running) void sweepNow();
      }, LONE_WORKER_SWEEP_MS);
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
