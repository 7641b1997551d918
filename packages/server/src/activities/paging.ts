/**
 * Pages of the activity log, latest first, under the `start`/`limit` contract of spec section 7 (issue 18
 * point 5: every page as fast as the first), optionally filtered (issue 17 point 10).
 *
 * The whole log is paged by keyset inside the store: positions counted from the OLDEST entry do not move when
 * entries are added (they are added at the newest end), so the key (created_at, id) of every BOOKMARK_EVERY-th
 * position is kept in memory, and a page starts from the nearest bookmark below it and walks at most
 * BOOKMARK_EVERY index entries. The bookmarks are read once (one pass over the index), extended over the
 * entries added since, and counted again when the oldest entry is not the one they were counted from (a
 * deletion, here or on another instance) or when an entry was written older than the newest bookmark (told
 * by `written`, or seen from the log's size).
 *
 * A filtered log is paged by offset over the filter's index (member, channel, type; migration 0006): a filter
 * narrows the rows, and a page in the older half is counted from the oldest end.
 */
import type { ActivityType } from '@talkgroup/protocol';
import { type ExpressionBuilder, type SelectQueryBuilder, sql } from 'kysely';
import type { Database, Db } from '../db/schema.ts';

export interface ActivityFilter {
  userId?: number;
  channelId?: number;
  /** Only entries of these channels (a dispatcher reads its own channels' log). */
  channelIds?: number[];
  type?: ActivityType;
  /** Inclusive. */
  from?: string;
  /** Exclusive. */
  to?: string;
}

/** Entries between two bookmarks: the most a page walks past its bookmark. */
export const BOOKMARK_EVERY = 1000;

type Key = { created_at: string; id: number };

export function isFiltered(filter: ActivityFilter): boolean {
  return Object.values(filter).some((value) => value !== undefined);
}

export function applyFilter<O>(
  query: SelectQueryBuilder<Database, 'activities', O>,
  filter: ActivityFilter,
): SelectQueryBuilder<Database, 'activities', O> {
  let q = query;
  if (filter.userId !== undefined) q = q.where('user_id', '=', filter.userId);
  if (filter.channelId !== undefined) q = q.where('channel_id', '=', filter.channelId);
  if (filter.channelIds !== undefined)
    q = q.where('channel_id', 'in', filter.channelIds.length > 0 ? filter.channelIds : [0]);
  if (filter.type !== undefined) q = q.where('type', '=', filter.type);
  if (filter.from !== undefined) q = q.where('created_at', '>=', filter.from);
  if (filter.to !== undefined) q = q.where('created_at', '<', filter.to);
  return q;
}

/** (created_at, id) >= key; the first condition alone bounds the index range (an OR alone may not, in SQLite). */
const atOrAfter = (key: Key) => (eb: ExpressionBuilder<Database, 'activities'>) =>
  eb.and([
    eb('created_at', '>=', key.created_at),
    eb.or([eb('created_at', '>', key.created_at), eb('id', '>=', key.id)]),
  ]);

export function activityPaging(db: Db, every = BOOKMARK_EVERY) {
  let bookmarks: { oldest: Key; keys: Key[] } | null = null;
  let building: Promise<{ oldest: Key; keys: Key[] } | null> | null = null;

  async function oldestKey(): Promise<Key | undefined> {
    return db
      .selectFrom('activities')
      .select(['created_at', 'id'])
      .orderBy('created_at', 'asc')
      .orderBy('id', 'asc')
      .limit(1)
      .executeTakeFirst();
  }

  /**
   * The key of every `every`-th entry from the oldest (or from `from`, which comes first): one pass over the
   * (created_at, id) index, or over the entries from `from` on.
   */
  async function build(from?: Key): Promise<Key[]> {
    const ranked = db
      .selectFrom('activities')
      .select(['created_at', 'id', sql<number>`row_number() over (order by created_at, id)`.as('position')])
      .$if(from !== undefined, (q) => q.where(atOrAfter(from as Key)))
      .as('ranked');
    return db
      .selectFrom(ranked)
      .select(['created_at', 'id'])
      .where(sql<number>`(position - 1) % ${every}`, '=', 0)
      .orderBy('position')
      .execute();
  }

  async function countFrom(key: Key): Promise<number> {
    const row = await db
      .selectFrom('activities')
      .select((eb) => eb.fn.countAll<number | string | bigint>().as('n'))
      .where(atOrAfter(key))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /**
   * The bookmarks, checked against the log of `total` entries: the same oldest entry, and as many entries from
   * the newest bookmark on as its position says (fewer means an older entry was written since: counted again).
   * Entries added since are bookmarked from the newest bookmark on.
   */
  async function currentBookmarks(total: number) {
    const oldest = await oldestKey();
    if (!oldest) return null;
    if (bookmarks && (bookmarks.oldest.created_at !== oldest.created_at || bookmarks.oldest.id !== oldest.id))
      bookmarks = null;
    if (bookmarks) {
      const last = bookmarks.keys[bookmarks.keys.length - 1];
      const lastPosition = (bookmarks.keys.length - 1) * every;
      const fromLast = await countFrom(last);
      if (lastPosition + fromLast < total) bookmarks = null;
      else if (fromLast > every) bookmarks.keys.push(...(await build(last)).slice(1));
    }
    if (!bookmarks) {
      building ??= build()
        .then((keys) => (keys[0] ? { oldest: keys[0], keys } : null))
        .finally(() => {
          building = null;
        });
      bookmarks = await building;
    }
    return bookmarks;
  }

  /** Page rows (ids) of the whole log by position from the oldest: [first, first + count), oldest first. */
  async function idsByPosition(first: number, count: number, total: number): Promise<number[]> {
    const marks = await currentBookmarks(total);
    const mark = marks?.keys[Math.floor(first / every)];
    let query = db.selectFrom('activities').select('id').orderBy('created_at', 'asc').orderBy('id', 'asc');
    query = mark ? query.where(atOrAfter(mark)).offset(first % every) : query.offset(first);
    const rows = await query.limit(count).execute();
    return rows.map((row) => row.id);
  }

  async function idsFiltered(filter: ActivityFilter, limit: number, offset: number, total: number) {
    const fromOldest = offset > total / 2;
    const count = fromOldest ? Math.min(limit, total - offset) : limit;
    if (count <= 0) return [];
    const direction = fromOldest ? 'asc' : 'desc';
    const rows = await applyFilter(db.selectFrom('activities').select('id'), filter)
      .orderBy('created_at', direction)
      .orderBy('id', direction)
      .limit(count)
      .offset(fromOldest ? total - offset - count : offset)
      .execute();
    const ids = rows.map((row) => row.id);
    return fromOldest ? ids.reverse() : ids;
  }

  return {
    /** An entry written at `createdAt`: bookmarks counted past it would be off by one. */
    written(createdAt: string): void {
      const newest = bookmarks?.keys[bookmarks.keys.length - 1];
      if (newest && createdAt <= String(newest.created_at)) bookmarks = null;
    },

    /** Entries were deleted. */
    forget(): void {
      bookmarks = null;
    },

    /** How many entries the filter keeps. */
    async countFiltered(filter: ActivityFilter): Promise<number> {
      const row = await applyFilter(
        db.selectFrom('activities').select((eb) => eb.fn.countAll<number | string | bigint>().as('n')),
        filter,
      ).executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /**
     * The ids of a page, latest first: `offset` entries skipped from the newest, `limit` taken, out of
     * `total` entries (the log's size, or the filter's).
     */
    async pageIds(filter: ActivityFilter, limit: number, offset: number, total: number): Promise<number[]> {
      if (isFiltered(filter)) return idsFiltered(filter, limit, offset, total);
      const newestPosition = total - 1 - offset;
      if (newestPosition < 0) return [];
      const first = Math.max(0, newestPosition - limit + 1);
      return (await idsByPosition(first, newestPosition - first + 1, total)).reverse();
    },
  };
}
