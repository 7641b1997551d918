/**
 * The sessions' sweep (issue 47): sessions past their lifetime (TOKEN_TTL_DAYS) or idle (SESSION_IDLE_HOURS) are
 * deleted at start and then every few minutes, not only when their token is next presented, so that what hangs on
 * them (push subscriptions, by cascade) goes too. Every instance sweeps; deleting what another already deleted
 * does nothing. Stopping waits for a sweep under way, so that the database is never closed beneath it.
 */
import type { SessionStore } from './sessions.ts';

export const SESSION_SWEEP_EVERY_MS = 10 * 60 * 1000;

export function startSessionSweep(
  sessions: Pick<SessionStore, 'purgeExpired'>,
  onError: (error: unknown) => void,
  everyMs = SESSION_SWEEP_EVERY_MS,
): () => Promise<void> {
  let running: Promise<void> | undefined;
  const sweep = () => {
    running ??= sessions
      .purgeExpired()
      .then(() => undefined, onError)
      .finally(() => {
        running = undefined;
      });
  };
  sweep();
  const every = setInterval(sweep, everyMs);
  every.unref();
  return async () => {
    clearInterval(every);
    await running;
  };
}
