/**
 * The reports' measures of response times (issue 50): SOS alerts (time to acknowledge, to close, outcomes) and
 * the dispatch queue's times (queue-measure.ts). Percentiles
 * are nearest-rank, by window functions: of n sorted values, the p-th is the one at rank ceil(p × n), written
 * in integers as (5n + 9) / 10 for the median and (9n + 9) / 10 for the 90th.
 */
import type { DurationStats, Report } from '@talkgroup/protocol';
import { type RawBuilder, type SelectQueryBuilder, sql } from 'kysely';
import type { Database, Db } from '../db/schema.ts';
import { inScope, periodOf, type ReportScope } from './scope.ts';
import type { SqlTime } from './sql-time.ts';

export const NO_TIMES: DurationStats = { count: 0, medianMs: null, p90Ms: null, maxMs: null };

/**
 * A set of times: `grp` the group each belongs to (a channel, or one group for all), `d` the milliseconds. The
 * sources read different tables; only these two columns matter.
 */
type Times = SelectQueryBuilder<Database, any, { grp: number | null; d: number | null }>;

export const keyOf = (group: unknown) => (group === null || group === undefined ? 'none' : String(Number(group)));

/** Each group's times, and all of them together (key ALL). */
type TimesByGroup = Map<string, DurationStats>;
export const ALL = 'all';

/**
 * The count, median, 90th percentile and longest of each group's times and of all of them, in one query: each
 * value is ranked in its group and among all; a group's row also carries the overall median or 90th percentile
 * when that value is one of its own (one group does), and the overall count and longest are the groups' sum
 * and largest.
 */
export async function statsOf(db: Db, times: Times): Promise<TimesByGroup> {
  const ranked = db
    .selectFrom(times.as('s'))
    .select([
      's.grp',
      's.d',
      sql<number>`row_number() over (partition by s.grp order by s.d)`.as('rn'),
      sql<number>`count(*) over (partition by s.grp)`.as('n'),
      sql<number>`row_number() over (order by s.d)`.as('rnAll'),
      sql<number>`count(*) over ()`.as('nAll'),
    ]);
  const rank = (rn: string, n: string, tenths: number) =>
    sql<number | null>`max(case when ${sql.ref(rn)} = (${sql.lit(tenths)} * ${sql.ref(n)} + 9) / 10
      then r.d end)`;
  const rows = await db
    .selectFrom(ranked.as('r'))
    .select((eb) => [
      'r.grp',
      eb.fn.countAll<number>().as('count'),
      eb.fn.max('r.d').as('maxMs'),
      rank('r.rn', 'r.n', 5).as('medianMs'),
      rank('r.rn', 'r.n', 9).as('p90Ms'),
      rank('r.rnAll', 'r.nAll', 5).as('allMedianMs'),
      rank('r.rnAll', 'r.nAll', 9).as('allP90Ms'),
    ])
    .groupBy('r.grp')
    .execute();
  const number = (value: unknown) => (value === null || value === undefined ? null : Number(value));
  const stats: TimesByGroup = new Map(
    rows.map((row) => [
      keyOf(row.grp),
      { count: Number(row.count), medianMs: number(row.medianMs), p90Ms: number(row.p90Ms), maxMs: number(row.maxMs) },
    ]),
  );
  const found = (values: unknown[]) => values.map(number).find((value) => value !== null) ?? null;
  const maxima = [...stats.values()].flatMap((group) => (group.maxMs === null ? [] : [group.maxMs]));
  stats.set(ALL, {
    count: [...stats.values()].reduce((sum, group) => sum + group.count, 0),
    medianMs: found(rows.map((row) => row.allMedianMs)),
    p90Ms: found(rows.map((row) => row.allP90Ms)),
    maxMs: maxima.length > 0 ? Math.max(...maxima) : null,
  });
  return stats;
}

/** The group of a row: its channel. */
export const perChannel = (column: string): RawBuilder<number | null> => sql<number | null>`${sql.ref(column)}`;

/**
 * SOS alerts raised in the period, in the scope's channels (every channel: the alerts sent outside any channel
 * too): how many, acknowledged, closed, real, false alarms; times to acknowledge and to close; per channel.
 */
export async function sosMeasure(db: Db, time: SqlTime, scope: ReportScope): Promise<Report['sos']> {
  const { from, to } = periodOf(scope);
  const alerts = () =>
    db
      .selectFrom('emergency_alerts as a')
      .where('a.created_at', '>=', from)
      .where('a.created_at', '<', to)
      .$call(inScope(scope, 'a.channel_id', true));
  const outcome = (value: 'real' | 'false') => sql<number>`sum(case when a.outcome = ${value} then 1 else 0 end)`;
  const reason = (value: 'man_down' | 'lone_worker') =>
    sql<number>`sum(case when a.reason = ${value} then 1 else 0 end)`;
  const counts = await alerts()
    .leftJoin('channels as c', 'c.id', 'a.channel_id')
    .select((eb) => [
      'a.channel_id as channelId',
      sql<string>`coalesce(c.name, '')`.as('channelName'),
      eb.fn.countAll<number>().as('count'),
      eb.fn.count<number>('a.acknowledged_at').as('acknowledged'),
      eb.fn.count<number>('a.closed_at').as('closed'),
      outcome('real').as('real'),
      outcome('false').as('falseAlarms'),
      reason('man_down').as('manDown'),
      reason('lone_worker').as('noResponse'),
    ])
    .groupBy(['a.channel_id', 'c.name'])
    .execute();
  const acknowledge = await statsOf(
    db,
    alerts()
      .where('a.acknowledged_at', 'is not', null)
      .select([perChannel('a.channel_id').as('grp'), time.spanMs('a.created_at', 'a.acknowledged_at').as('d')]),
  );
  const close = await statsOf(
    db,
    alerts()
      .where('a.closed_at', 'is not', null)
      .select([perChannel('a.channel_id').as('grp'), time.spanMs('a.created_at', 'a.closed_at').as('d')]),
  );
  const total = (field: 'count' | 'acknowledged' | 'closed' | 'real' | 'falseAlarms' | 'manDown' | 'noResponse') =>
    counts.reduce((sum, row) => sum + Number(row[field] ?? 0), 0);
  const channels = counts
    .map((row) => ({
      channelId: row.channelId === null ? null : Number(row.channelId),
      channelName: row.channelName,
      count: Number(row.count),
      falseAlarms: Number(row.falseAlarms ?? 0),
      manDown: Number(row.manDown ?? 0),
      noResponse: Number(row.noResponse ?? 0),
      acknowledge: acknowledge.get(keyOf(row.channelId)) ?? NO_TIMES,
      close: close.get(keyOf(row.channelId)) ?? NO_TIMES,
    }))
    .sort((a, b) => b.count - a.count || a.channelName.localeCompare(b.channelName));
  return {
    count: total('count'),
    acknowledged: total('acknowledged'),
    closed: total('closed'),
    real: total('real'),
    falseAlarms: total('falseAlarms'),
    manDown: total('manDown'),
    noResponse: total('noResponse'),
    acknowledge: acknowledge.get(ALL) ?? NO_TIMES,
    close: close.get(ALL) ?? NO_TIMES,
    channels,
  };
}
