/**
 * A pass that every instance runs every `everyMs` over what the database says is due (the dispatch queue's
 * reminders and expiries, regroups' ends, lone workers' steps, area channels' exits): each change it makes is a
 * conditional write, so that of two instances at once one makes it and the other finds it made. Shared here:
 * - never two passes at once on this instance (a pass asked for while one runs waits for it, then runs);
 * - a failing pass (a database outage fails every one) is said once, until a pass succeeds again;
 * - with `nextIn`, a timer for the next deadline when it comes before the next look, so that a step falls at its
 *   time and not up to `everyMs` late;
 * - with `atStart`, a pass at start: what fell due while no instance was up is taken at once.
 */
export interface PeriodicSweepOptions {
  everyMs: number;
  /** What the pass does, for the log: "ending the regroups whose time ran out". */
  what: string;
  pass: () => Promise<unknown>;
  /** Milliseconds to the next deadline after a pass; undefined: none. */
  nextIn?: () => Promise<number | undefined>;
  atStart?: boolean;
  onError: (error: unknown, what: string) => void;
}

export interface PeriodicSweep {
  /** One pass now (at start, tests, and a change made here that brings a deadline closer). */
  sweepNow(): Promise<void>;
  start(): void;
  /** No more passes; resolves once the one running is over. */
  stop(): Promise<void>;
}

/** A deadline's timer fires this much after it, so that the pass finds it due. */
const PAST_DEADLINE_MS = 5;

export function periodicSweep(options: PeriodicSweepOptions): PeriodicSweep {
  let timer: NodeJS.Timeout | undefined;
  let deadline: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;
  let failing = false;

  async function pass(): Promise<void> {
    await options.pass();
    if (!options.nextIn) return;
    const next = await options.nextIn();
    if (deadline) clearTimeout(deadline);
    deadline = undefined;
    if (stopped || next === undefined || next >= options.everyMs) return;
    deadline = setTimeout(() => void sweepNow(), next + PAST_DEADLINE_MS);
    deadline.unref();
  }

  async function sweepNow(): Promise<void> {
    // A loop: of two callers waiting on the same pass, the first starts the next one, the other waits for it too.
    while (running) await running;
    if (stopped) return;
    running = pass()
      .then(() => {
        failing = false;
      })
      .catch((error: unknown) => {
        if (!failing) options.onError(error, options.what);
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
      stopped = false;
      if (options.atStart) void sweepNow();
      timer = setInterval(() => {
        if (!running) void sweepNow();
      }, options.everyMs);
      timer.unref();
    },
    async stop(): Promise<void> {
      stopped = true;
      if (timer) clearInterval(timer);
      if (deadline) clearTimeout(deadline);
      timer = undefined;
      deadline = undefined;
      if (running) await running;
    },
  };
}
