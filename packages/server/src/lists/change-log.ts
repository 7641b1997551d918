/**
 * What changed in the whole lists since a reader last looked (migration 0008: triggers write list_changes in
 * the writing transaction; every instance reads the same log, so each keeps its own lists up to date).
 *
 * A position says where a reader stands. SQLite: the last row id read; writers take turns, so a row committed
 * later always has a higher id. PostgreSQL: the oldest transaction still running when the reader looked (its
 * snapshot's xmin). Transaction ids are handed out before commit and transactions commit in any order, so a
 * higher id can be visible while a lower one is still to come: every transaction below the xmin has ended and
 * its rows are visible, and the reader reads again from there (what it reads twice is built twice, the same).
 */
import { sql } from 'kysely';
import type { Dialect } from '../db/open.ts';
import type { Db } from '../db/schema.ts';

/** The kinds of migration 0008. */
export const CHANGED = { user: 1, channel: 2, channelActivity: 3 } as const;

export type LogPosition = string;

export interface ListChanges {
  /** Users of getAllUsers to build again (or drop). */
  users: Set<number>;
  /** Channels of getAllChannels whose row or members changed. */
  channels: Set<number>;
  /** Channels whose connected count or latest activity changed. */
  channelActivity: Set<number>;
}

/** How long the log keeps a change: a reader that last looked longer ago builds its list from scratch. */
export const LOG_KEPT_MS = 5 * 60 * 1000;
const PRUNE_EVERY_MS = 60 * 1000;

export function listChangeLog(db: Db, dialect: Dialect) {
  const postgres = dialect === 'postgres';

  /** Where the log stands now: reading from here later gives every change committed after this call. */
  async function position(): Promise<LogPosition> {
    const { rows } = postgres
      ? await sql<{ at: string }>`select pg_snapshot_xmin(pg_current_snapshot())::text as at`.execute(db)
      : await sql<{ at: number | null }>`select max(id) as at from list_changes`.execute(db);
    return String(rows[0]?.at ?? 0);
  }

  return {
    position,

    /** The changes since `from`, and where to read from next time. */
    async since(from: LogPosition): Promise<{ changes: ListChanges; next: LogPosition }> {
      // The position first: whatever it says is behind is visible to the read that follows.
      const next = await position();
      const { rows } = postgres
        ? await sql<{ kind: number; entity_id: number }>`select distinct kind, entity_id from list_changes
            where txid >= ${from}::xid8`.execute(db)
        : await sql<{ kind: number; entity_id: number }>`select distinct kind, entity_id from list_changes
            where id > ${Number(from)}`.execute(db);
      const changes: ListChanges = { users: new Set(), channels: new Set(), channelActivity: new Set() };
      for (const { kind, entity_id } of rows) {
        if (kind === CHANGED.user) changes.users.add(entity_id);
        else if (kind === CHANGED.channel) changes.channels.add(entity_id);
        else if (kind === CHANGED.channelActivity) changes.channelActivity.add(entity_id);
      }
      // SQLite: rows committed between the two reads were read too; reading them again next time does no harm.
      return { changes, next };
    },

    /**
     * A user to build again that no trigger saw change (a column the lists' triggers do not watch: migration
     * 0022's `disabled_at`). Written after the change committed, so whoever reads it reads the change too.
     */
    async userChanged(userId: number): Promise<void> {
      await db.insertInto('list_changes').values({ kind: CHANGED.user, entity_id: userId }).execute();
    },

    /**
     * Deletes what every reader has had LOG_KEPT_MS to read: the positions sampled that long ago. SQLite keeps
     * the newest row, so that a row id is never handed out twice.
     */
    async prune(before: LogPosition): Promise<void> {
      if (postgres) await sql`delete from list_changes where txid < ${before}::xid8`.execute(db);
      else
        await sql`delete from list_changes where id <= ${Number(before)}
          and id < (select max(id) from list_changes)`.execute(db);
    },
  };
}

export type ListChangeLog = ReturnType<typeof listChangeLog>;

/**
 * Every minute, notes where the log stands and deletes what was there LOG_KEPT_MS ago. Every instance prunes;
 * deleting what another already deleted does nothing. Returns the function that stops it.
 */
export function startLogPruning(log: ListChangeLog, onError: (error: unknown) => void): () => void {
  const samples: Array<{ at: number; position: LogPosition }> = [];
  const tick = async () => {
    const now = performance.now();
    samples.push({ at: now, position: await log.position() });
    let due: LogPosition | undefined;
    while (samples.length > 0 && (samples[0] as { at: number }).at <= now - LOG_KEPT_MS) {
      due = (samples.shift() as { position: LogPosition }).position;
    }
    if (due !== undefined) await log.prune(due);
  };
  const every = setInterval(() => tick().catch(onError), PRUNE_EVERY_MS);
  every.unref();
  return () => clearInterval(every);
}
