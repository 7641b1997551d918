/**
 * What the reports' SQL says differently on SQLite and PostgreSQL, and the time zone's local time as SQL.
 *
 * Times are ISO 8601 UTC text on SQLite and timestamptz on PostgreSQL; both become epoch milliseconds (an
 * integer) here. A time zone's offset changes a few times a year (daylight saving): the period [from, to) is cut
 * in JS into the segments of one offset each (Intl.DateTimeFormat), and SQL adds the offset of the segment a
 * time falls in (a CASE over the segments' bounds). Days and hours are then integer arithmetic on local
 * milliseconds: the same on both databases, whatever the database's own time zone.
 */
import { type RawBuilder, sql } from 'kysely';
import type { Dialect } from '../db/dialect.ts';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
/**
 * The offset is looked at this often (Intl's formatting: a 10-year period takes about 2,000 looks, a 30-day one
 * about 15); no zone changes its offset twice within two days.
 */
const STEP_MS = 2 * DAY_MS;

/** One offset of the zone from `startMs` on (until the next segment's start). */
export interface OffsetSegment {
  startMs: number;
  offsetMs: number;
}

const formats = new Map<string, Intl.DateTimeFormat>();

function formatOf(timeZone: string): Intl.DateTimeFormat {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formats.set(timeZone, format);
  }
  return format;
}

/** The zone's UTC offset at this instant (local minus UTC), in milliseconds. */
export function offsetAt(timeZone: string, ms: number): number {
  const at = Math.floor(ms / 1000) * 1000;
  const part: Record<string, number> = {};
  for (const { type, value } of formatOf(timeZone).formatToParts(at)) part[type] = Number(value);
  const local = Date.UTC(part.year ?? 1970, (part.month ?? 1) - 1, part.day ?? 1, part.hour, part.minute, part.second);
  return local - at;
}

/** The segments of one offset that [fromMs, toMs) crosses, in order; the first starts at fromMs. */
export function offsetSegments(timeZone: string, fromMs: number, toMs: number): OffsetSegment[] {
  const segments: OffsetSegment[] = [{ startMs: fromMs, offsetMs: offsetAt(timeZone, fromMs) }];
  for (let at = fromMs; at < toMs; at += STEP_MS) {
    const next = Math.min(at + STEP_MS, toMs);
    const before = offsetAt(timeZone, at);
    const after = offsetAt(timeZone, next);
    if (before === after) continue;
    // The change lies in (at, next]: the first millisecond with the new offset, by halving.
    let low = at;
    let high = next;
    while (high - low > 1) {
      const middle = Math.floor((low + high) / 2);
      if (offsetAt(timeZone, middle) === before) low = middle;
      else high = middle;
    }
    if (high < toMs) segments.push({ startMs: high, offsetMs: after });
  }
  return segments;
}

/** The local day (YYYY-MM-DD) of a local day number (local milliseconds / one day). */
export function dayName(localDay: number): string {
  return new Date(localDay * DAY_MS).toISOString().slice(0, 10);
}

export function sqlTime(dialect: Dialect) {
  /** A time column (or expression) as epoch milliseconds, an integer. */
  const epochMs = (column: RawBuilder<unknown> | string): RawBuilder<number> => {
    const ref = typeof column === 'string' ? sql.ref(column) : column;
    return dialect === 'postgres'
      ? sql<number>`cast(round(extract(epoch from ${ref}) * 1000) as bigint)`
      : sql<number>`cast(round(unixepoch(${ref}, 'subsec') * 1000) as integer)`;
  };

  return {
    epochMs,

    /** `later - earlier` in milliseconds, 0 when `later` is missing or before `earlier`. */
    spanMs(earlier: string, later: string): RawBuilder<number> {
      const span = sql<number>`${epochMs(later)} - ${epochMs(earlier)}`;
      return sql<number>`case when ${sql.ref(later)} is null or ${span} < 0 then 0 else ${span} end`;
    },

    /** A time column moved by whole seconds, as the column holds times (to compare with another such column). */
    shifted(column: string, seconds: number): RawBuilder<string> {
      const ref = sql.ref(column);
      const by = Math.trunc(seconds);
      return dialect === 'postgres'
        ? sql<string>`(${ref} + ${sql.lit(`${by} seconds`)}::interval)`
        : sql<string>`strftime('%Y-%m-%dT%H:%M:%fZ', ${ref}, ${sql.lit(`${by} seconds`)})`;
    },

    /** A text field of a dispatch step (activities.detail JSON: dispatch.{field}), null when absent. */
    dispatchTextOf(detail: string, field: 'outcome'): RawBuilder<string | null> {
      return dialect === 'postgres'
        ? sql<string | null>`cast(${sql.ref(detail)} as json) #>> ${sql.lit(`{dispatch,${field}}`)}`
        : sql<string | null>`json_extract(${sql.ref(detail)}, ${sql.lit(`$.dispatch.${field}`)})`;
    },

    /** The dispatch request a dispatch step names (activities.detail JSON: dispatch.requestId). */
    requestIdOf(detail: string): RawBuilder<number> {
      return dialect === 'postgres'
        ? sql<number>`cast(cast(${sql.ref(detail)} as json) #>> '{dispatch,requestId}' as integer)`
        : sql<number>`json_extract(${sql.ref(detail)}, '$.dispatch.requestId')`;
    },

    /**
     * Local time in the zone, as epoch milliseconds, of an epoch milliseconds expression within the period the
     * segments cover. Constants are written as literals: an integer parameter would be a real on SQLite.
     */
    localMs(epoch: RawBuilder<number>, segments: readonly OffsetSegment[]): RawBuilder<number> {
      const [first, ...rest] = segments;
      if (!first) return epoch;
      if (rest.length === 0) return sql<number>`(${epoch} + ${sql.lit(first.offsetMs)})`;
      // Each segment ends where the next starts: the first whose end lies after the time gives the offset.
      const ends = segments.slice(0, -1).map((segment, index) => {
        const end = segments[index + 1]?.startMs ?? 0;
        return sql`when ${epoch} < ${sql.lit(end)} then ${sql.lit(segment.offsetMs)}`;
      });
      const last = segments[segments.length - 1]?.offsetMs ?? 0;
      return sql<number>`(${epoch} + case ${sql.join(ends, sql` `)} else ${sql.lit(last)} end)`;
    },

    /** The local day number (local milliseconds / one day), an integer. */
    dayOf(local: RawBuilder<number> | string): RawBuilder<number> {
      const ref = typeof local === 'string' ? sql.ref(local) : local;
      return sql<number>`(${ref} / ${sql.lit(DAY_MS)})`;
    },

    /** The day of the week, 1 Monday … 7 Sunday (day 0, 1970-01-01, was a Thursday). */
    weekdayOf(local: string): RawBuilder<number> {
      return sql<number>`((${sql.ref(local)} / ${sql.lit(DAY_MS)} + 3) % 7 + 1)`;
    },

    /** The hour of the day, 0 … 23. */
    hourOf(local: string): RawBuilder<number> {
      return sql<number>`((${sql.ref(local)} % ${sql.lit(DAY_MS)}) / ${sql.lit(HOUR_MS)})`;
    },
  };
}

export type SqlTime = ReturnType<typeof sqlTime>;
