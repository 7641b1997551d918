/**
 * Member positions: every report is kept for POSITION_RETENTION_DAYS (the trails, issue 28); the map and a
 * user's row read the latest, getPositionHistory and the exports read a user's in time order on the index
 * (user_id, created_at), and the retention sweep deletes by time (user_positions_time).
 */
import type { UserPosition } from '@talkgroup/protocol';
import type { Db } from '../db/schema.ts';
import { loopTurn } from '../process/loop-turn.ts';

/** A kept position and its row id (the id stays on the server). */
export interface StoredPosition extends UserPosition {
  id: number;
}

const COLUMNS = ['id', 'lat', 'lng', 'accuracy', 'created_at'] as const;
type Row = { id: number; lat: number; lng: number; accuracy: number | null; created_at: string };

function toPosition(row: Row): StoredPosition {
  return { id: row.id, lat: row.lat, lng: row.lng, accuracy: row.accuracy, createdAt: row.created_at };
}

/**
 * Rows deleted per statement by the sweep: a month of a large team is millions of rows, not one transaction; and
 * on SQLite a statement holds the main thread, so a batch stays under about 10 ms and the event loop turns
 * between them (issue 57).
 */
const SWEEP_BATCH = 1000;

export function positionStore(db: Db) {
  return {
    async add(userId: number, position: { lat: number; lng: number; accuracy?: number }): Promise<StoredPosition> {
      const row = await db
        .insertInto('user_positions')
        .values({
          user_id: userId,
          lat: position.lat,
          lng: position.lng,
          accuracy: position.accuracy ?? null,
          created_at: new Date().toISOString(),
        })
        .returning(COLUMNS)
        .executeTakeFirstOrThrow();
      return toPosition(row);
    },

    /** The user's last reported position, if any (issue 69: an SOS raised for it carries it). */
    async latest(userId: number): Promise<StoredPosition | undefined> {
      const row = await db
        .selectFrom('user_positions')
        .select(COLUMNS)
        .where('user_id', '=', userId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst();
      return row ? toPosition(row) : undefined;
    },

    /** The user's position kept just before this one, if any. */
    async before(userId: number, position: StoredPosition): Promise<StoredPosition | undefined> {
      const row = await db
        .selectFrom('user_positions')
        .select(COLUMNS)
        .where('user_id', '=', userId)
        .where((eb) =>
          eb.or([
            eb('created_at', '<', position.createdAt),
            eb.and([eb('created_at', '=', position.createdAt), eb('id', '<', position.id)]),
          ]),
        )
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst();
      return row ? toPosition(row) : undefined;
    },

    /** The user's positions in [from, to), oldest first: at most `limit`, and whether more follow. */
    async history(
      userId: number,
      range: { from?: Date; to?: Date },
      limit: number,
    ): Promise<{ positions: UserPosition[]; truncated: boolean }> {
      const rows = await db
        .selectFrom('user_positions')
        .select(COLUMNS)
        .where('user_id', '=', userId)
        .$if(range.from !== undefined, (q) => q.where('created_at', '>=', (range.from as Date).toISOString()))
        .$if(range.to !== undefined, (q) => q.where('created_at', '<', (range.to as Date).toISOString()))
        .orderBy('created_at', 'asc')
        .orderBy('id', 'asc')
        .limit(limit + 1)
        .execute();
      const truncated = rows.length > limit;
      return {
        positions: rows.slice(0, limit).map(({ lat, lng, accuracy, created_at }) => ({
          lat,
          lng,
          accuracy,
          createdAt: created_at,
        })),
        truncated,
      };
    },

    /** The user's positions in [from, to), oldest first, read in batches (an export never holds them all). */
    async *track(userId: number, from: Date, to: Date, batch = 2000): AsyncGenerator<StoredPosition> {
      let after: StoredPosition | undefined;
      for (;;) {
        const last = after;
        const rows = await db
          .selectFrom('user_positions')
          .select(COLUMNS)
          .where('user_id', '=', userId)
          .where('created_at', '>=', from.toISOString())
          .where('created_at', '<', to.toISOString())
          .$if(last !== undefined, (q) =>
            q.where((eb) =>
              eb.or([
                eb('created_at', '>', (last as StoredPosition).createdAt),
                eb.and([
                  eb('created_at', '=', (last as StoredPosition).createdAt),
                  eb('id', '>', (last as StoredPosition).id),
                ]),
              ]),
            ),
          )
          .orderBy('created_at', 'asc')
          .orderBy('id', 'asc')
          .limit(batch)
          .execute();
        for (const row of rows) yield toPosition(row);
        if (rows.length < batch) return;
        after = toPosition(rows[rows.length - 1]);
      }
    },

    /** Deletes the positions reported before `cutoff`, a batch per statement; returns how many went. */
    async removeOlderThan(cutoff: Date): Promise<number> {
      let removed = 0;
      for (;;) {
        const result = await db
          .deleteFrom('user_positions')
          .where(
            'id',
            'in',
            db
              .selectFrom('user_positions')
              .select('id')
              .where('created_at', '<', cutoff.toISOString())
              .limit(SWEEP_BATCH),
          )
          .executeTakeFirst();
        const count = Number(result.numDeletedRows);
        removed += count;
        if (count < SWEEP_BATCH) return removed;
        await loopTurn();
      }
    },
  };
}

export type PositionStore = ReturnType<typeof positionStore>;
