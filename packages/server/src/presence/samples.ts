/**
 * The most people connected at once, per minute (issue 50, the reports' peaks): every instance counts, every
 * SAMPLE_MS and when it starts, the distinct users connected now across the whole deployment (user_sockets
 * holds every instance's sockets, as the dashboard's "connected" counts them: any role, one per user however
 * many sockets), and writes it for the current minute. A user coming online (its first socket) is counted at
 * once too, so that a peak between two samples is not missed. Two instances writing the same minute keep the
 * larger number and the time it was first reached: a conditional upsert, the same on SQLite and PostgreSQL.
 */
import type { Db } from '../db/schema.ts';
import type { EventBus } from '../events.ts';

/** At least once a minute, as the issue asks; twice, so that a slow pass never leaves a minute out. */
export const SAMPLE_MS = 30_000;

/** The start of the minute `at` falls in, as ISO 8601 (presence_samples' key). */
export function minuteOf(at: number): string {
  return new Date(Math.floor(at / 60_000) * 60_000).toISOString();
}

export function presenceSamples(deps: {
  db: Db;
  events: EventBus;
  /** A pass that failed (the database away): said once until a pass succeeds again. */
  onError: (error: unknown, what: string) => void;
  now?: () => number;
}) {
  const { db } = deps;
  const now = deps.now ?? Date.now;
  let timer: NodeJS.Timeout | undefined;
  let stopFollowing: (() => void) | undefined;
  let running: Promise<void> | undefined;
  /** Someone came online during a pass: one more pass after it (many arrivals at once make one). */
  let again = false;
  let failing = false;

  /** Distinct users with a socket on any instance. */
  async function connectedNow(): Promise<number> {
    const row = await db
      .selectFrom('user_sockets')
      .select((eb) => eb.fn.count<number | string>('user_id').distinct().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async function sample(): Promise<void> {
    const connected = await connectedNow();
    const at = now();
    await db
      .insertInto('presence_samples')
      .values({ minute: minuteOf(at), connected, peak_at: new Date(at).toISOString() })
      .onConflict((oc) =>
        oc
          .column('minute')
          .doUpdateSet((eb) => ({ connected: eb.ref('excluded.connected'), peak_at: eb.ref('excluded.peak_at') }))
          // Only a larger number replaces the minute's: the first time the peak was reached stays.
          .whereRef('presence_samples.connected', '<', 'excluded.connected'),
      )
      .execute();
  }

  /** One pass now (tests, an arrival); never two at once on this instance: a pass asked meanwhile runs after. */
  async function sampleNow(): Promise<void> {
    if (running) {
      again = true;
      await running;
      if (running) return running;
    }
    again = false;
    running = sample()
      .then(() => {
        failing = false;
      })
      .catch((error) => {
        if (!failing) deps.onError(error, 'sampling the people connected');
        failing = true;
      })
      .finally(() => {
        running = undefined;
        if (again) void sampleNow();
      });
    await running;
  }

  return {
    sampleNow,
    start(): void {
      if (timer) return;
      void sampleNow();
      timer = setInterval(() => void sampleNow(), SAMPLE_MS);
      timer.unref();
      stopFollowing = deps.events.on('userCameOnline', () => void sampleNow());
    },
    async stop(): Promise<void> {
      if (timer) clearInterval(timer);
      timer = undefined;
      stopFollowing?.();
      stopFollowing = undefined;
      again = false;
      while (running) await running;
    },
  };
}

export type PresenceSamples = ReturnType<typeof presenceSamples>;
