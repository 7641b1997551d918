/**
 * Who holds which functional alias, kept in memory for the real-time path (issue 59): `floor_taken` and a room's
 * peers name the talker's alias without a database read. This instance reads the holders again after each of its
 * own changes (before its call answers), and every few seconds for the changes other instances made.
 */
import type { AliasStore } from './store.ts';

/** How often another instance's change is picked up at the latest. */
const REFRESH_MS = 5_000;

export function aliasLabels(store: Pick<AliasStore, 'labels'>, onError: (error: unknown) => void) {
  let labels = new Map<number, string>();
  let timer: NodeJS.Timeout | undefined;

  async function refresh(): Promise<void> {
    labels = await store.labels();
  }

  return {
    /** The user's aliases' names ("Chef de quart, Secouriste"), or undefined when it holds none. */
    of: (userId: number): string | undefined => labels.get(userId),
    refresh,
    /** Starts the periodic read (the server; a test's services may leave it off). */
    start(): void {
      if (timer) return;
      void refresh().catch(onError);
      timer = setInterval(() => void refresh().catch(onError), REFRESH_MS);
      timer.unref();
    },
    stop(): void {
      clearInterval(timer);
      timer = undefined;
    },
  };
}

export type AliasLabels = ReturnType<typeof aliasLabels>;
