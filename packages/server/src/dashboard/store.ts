/**
 * Dashboard statistics, counted by the database: totals, ten-day creation trends and the busiest channels.
 * Nothing here loads a list of users or channels into memory (see docs/api.md, "Dashboard statistics").
 */
import { type Statistics, TOP_CHANNELS, TREND_DAYS } from '@talkgroup/protocol';
import { sql } from 'kysely';
import type { Db } from '../db/schema.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The bucket bounds: bound[i] = now − i days. Bucket i (0..TREND_DAYS−1) holds the items whose age is at least
 * i days and less than i+1 days, that is bound[i+1] < created_at ≤ bound[i].
 */
export function trendBounds(now: Date): string[] {
  return Array.from({ length: TREND_DAYS + 1 }, (_, i) => new Date(now.getTime() - i * DAY_MS).toISOString());
}

/**
 * Percent change over the ten days of the trend: the items added in those days relative to the items that
 * existed before them, rounded to one decimal.
 *   added  = sum(trend)            (created in the last ten days and still there)
 *   before = total − added         (created earlier)
 *   change = added / before × 100  when before > 0;  100 when before = 0 and added > 0;  0 when both are 0.
 */
export function percentChange(total: number, trend: number[]): number {
  const added = trend.reduce((sum, n) => sum + n, 0);
  const before = total - added;
  if (before <= 0) return added > 0 ? 100 : 0;
  return Math.round((added / before) * 1000) / 10;
}

type CountedTable = 'users' | 'channels';

export function statisticsStore(db: Db) {
  /** The total and the ten daily buckets of one table, in two indexed queries. */
  async function countWithTrend(table: CountedTable, bounds: string[]): Promise<{ total: number; trend: number[] }> {
    // A private call's hidden channel is no channel of the organisation.
    const hiddenOut = sql<boolean>`hidden = 0`;
    // Nor is a SIP gateway's account a user of it (issue 51).
    const peopleOnly = sql<boolean>`gateway = 0`;
    const totalRow = await db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .$if(table === 'channels', (q) => q.where(hiddenOut))
      .$if(table === 'users', (q) => q.where(peopleOnly))
      .executeTakeFirstOrThrow();
    // Only the last ten days are read (the created_at index), each row summed into its bucket.
    const bucketRow = (await db
      .selectFrom(table)
      .$if(table === 'channels', (q) => q.where(hiddenOut))
      .$if(table === 'users', (q) => q.where(peopleOnly))
      .select((eb) =>
        Array.from({ length: TREND_DAYS }, (_, i) =>
          eb.fn
            .sum<number>(
              eb
                .case()
                .when(eb.and([eb('created_at', '>', bounds[i + 1]), eb('created_at', '<=', bounds[i])]))
                .then(1)
                .else(0)
                .end(),
            )
            .as(`b${i}`),
        ),
      )
      .where('created_at', '>', bounds[TREND_DAYS])
      .where('created_at', '<=', bounds[0])
      .executeTakeFirst()) as Record<string, unknown> | undefined;
    const trend = Array.from({ length: TREND_DAYS }, (_, i) => Number(bucketRow?.[`b${i}`] ?? 0));
    return { total: Number(totalRow.n), trend };
  }

  return {
    async statistics(now = new Date()): Promise<Statistics> {
      const bounds = trendBounds(now);
      const users = await countWithTrend('users', bounds);
      const channels = await countWithTrend('channels', bounds);
      // Each figure is an index lookup per channel: channel_members' primary key, user_sockets_channel and
      // activities_channel_time.
      const top = await db
        .selectFrom('channels')
        .select((eb) => [
          'channels.id',
          'channels.name',
          'channels.rtc_session',
          eb
            .selectFrom('channel_members')
            .select((sub) => sub.fn.countAll<number>().as('n'))
            .whereRef('channel_members.channel_id', '=', 'channels.id')
            .as('total'),
          eb
            .selectFrom('user_sockets')
            .select((sub) => sub.fn.count<number>('user_sockets.user_id').distinct().as('n'))
            .whereRef('user_sockets.channel_id', '=', 'channels.id')
            .as('connected'),
          eb
            .selectFrom('activities')
            .select((sub) => sub.fn.max('activities.created_at').as('at'))
            .whereRef('activities.channel_id', '=', 'channels.id')
            .as('lastActivityAt'),
        ])
        .where('channels.hidden', '=', 0)
        .orderBy('total', 'desc')
        .orderBy('channels.name')
        .orderBy('channels.id')
        .limit(TOP_CHANNELS)
        .execute();

      return {
        totalUsers: users.total,
        totalChannels: channels.total,
        usersTrend: users.trend,
        channelsTrend: channels.trend,
        usersChange: percentChange(users.total, users.trend),
        channelsChange: percentChange(channels.total, channels.trend),
        topChannels: top.map((row) => ({
          id: row.id,
          name: row.name,
          rtcSession: row.rtc_session,
          total: Number(row.total ?? 0),
          connected: Number(row.connected ?? 0),
          lastActivityAt: row.lastActivityAt ?? null,
        })),
      };
    },
  };
}

export type StatisticsStore = ReturnType<typeof statisticsStore>;
