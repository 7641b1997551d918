/**
 * Group commit for presence. A crowd joining at once (a shift change, every phone coming back after a
 * restart) means thousands of small writes: a presence row and a log entry per join, each an fsync'd commit
 * on SQLite, and the reads of the next joins waited behind them on the one connection. Writes handed in here
 * while a commit is on its way are gathered and committed together in one transaction; what must follow a
 * write (a push, an event) runs once it is committed.
 *
 * A socket's own writes keep their order (concerns/rooms.ts queues them one after the other); a failing
 * write is retried alone, so that it cannot take the others of its batch down with it.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/schema.ts';

/** Writes through `trx`; may return what to do once the write is committed. */
export type PresenceWrite = (trx: Db) => Promise<(() => void) | undefined>;

interface Pending {
  write: PresenceWrite;
  resolve: () => void;
  reject: (error: unknown) => void;
}

export function presenceWrites(db: Db, log: FastifyBaseLogger) {
  let queue: Pending[] = [];
  let running = false;

  function settle(batch: Pending[], afters: Array<(() => void) | undefined>) {
    for (const [i, pending] of batch.entries()) {
      try {
        afters[i]?.();
      } catch (error) {
        log.error({ err: error }, 'a step after a presence write failed');
      }
      pending.resolve();
    }
  }

  async function drain(): Promise<void> {
    running = true;
    while (queue.length > 0) {
      const batch = queue;
      queue = [];
      try {
        const afters: Array<(() => void) | undefined> = [];
        await db.transaction().execute(async (trx) => {
          for (const pending of batch) afters.push(await pending.write(trx));
        });
        settle(batch, afters);
      } catch {
        for (const pending of batch) {
          try {
            const after = await db.transaction().execute((trx) => pending.write(trx));
            settle([pending], [after]);
          } catch (error) {
            pending.reject(error);
          }
        }
      }
    }
    running = false;
  }

  return {
    /** Resolves once `write` is committed (with others of the moment) and what follows it has run. */
    write(write: PresenceWrite): Promise<void> {
      return new Promise<void>((resolve, reject) => {
        queue.push({ write, resolve, reject });
        if (!running) void drain();
      });
    },
  };
}

export type PresenceWrites = ReturnType<typeof presenceWrites>;
