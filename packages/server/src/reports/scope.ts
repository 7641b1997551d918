/** A report's scope (issue 50): the period, the channels and the time zone, and the SQL filters they make. */
import { type SelectQueryBuilder, sql } from 'kysely';

export interface ReportScope {
  /** ISO 8601 instants: `from` included, `to` excluded. */
  from: string;
  to: string;
  /** The channels covered; null: every channel (never a hidden one). */
  channelIds: number[] | null;
  /** An IANA time zone, for days and hours. */
  timeZone: string;
}

/** The period's bounds as the columns hold them (ISO 8601 UTC with milliseconds; PostgreSQL casts them). */
export function periodOf(scope: ReportScope): { from: string; to: string } {
  return { from: new Date(scope.from).toISOString(), to: new Date(scope.to).toISOString() };
}

/**
 * The scope's channel filter on a channel id column: the listed channels (none: nothing), or every channel that
 * is not hidden; `orNone` also keeps the rows without a channel (an SOS sent outside any channel).
 */
export function inScope(scope: Pick<ReportScope, 'channelIds'>, column: string, orNone = false) {
  return <DB, TB extends keyof DB, O>(query: SelectQueryBuilder<DB, TB, O>): SelectQueryBuilder<DB, TB, O> => {
    const ref = sql.ref(column);
    if (scope.channelIds !== null) {
      if (scope.channelIds.length === 0) return query.where(sql<boolean>`1 = 0`);
      return query.where(sql<boolean>`${ref} in (${sql.join(scope.channelIds.map((id) => sql.lit(id)))})`);
    }
    const listed = sql<boolean>`${ref} in (select id from channels where hidden = 0)`;
    return query.where(orNone ? sql<boolean>`(${ref} is null or ${listed})` : listed);
  };
}
