/**
 * How many reports run at once (issue 57): one per user, and at most REPORTS_AT_ONCE on this server process
 * (each instance of a cluster counts its own). A report asked past either is refused at once with 429 and a
 * few seconds to wait, rather than queued: a queued request would hold its connection and its reader's place
 * for as long as the reports before it run, and a user who asks again while the first still computes (a second
 * tab, a change of period) gets the first one's answer in its own page soon after. The web page shows the
 * sentence with a button to ask again.
 */
import { HttpError } from '../http/errors.ts';

/** Reports read at once on one server: the SQLite reader's threads and PostgreSQL's pool are no larger. */
export const REPORTS_AT_ONCE = 2;
/** What a refused report is told to wait: about what a month's report takes (docs/benchmarks.md). */
export const REPORT_RETRY_SECONDS = 5;

export function reportGate(atOnce = REPORTS_AT_ONCE) {
  const running = new Set<number>();
  return {
    /** Runs the user's report, or throws 429 `report_running` (its own still runs) or `reports_busy`. */
    async run<T>(userId: number, read: () => Promise<T>): Promise<T> {
      if (running.has(userId)) throw new HttpError(429, 'report_running', { seconds: REPORT_RETRY_SECONDS });
      if (running.size >= atOnce) throw new HttpError(429, 'reports_busy', { seconds: REPORT_RETRY_SECONDS });
      running.add(userId);
      try {
        return await read();
      } finally {
        running.delete(userId);
      }
    },
  };
}

export type ReportGate = ReturnType<typeof reportGate>;
