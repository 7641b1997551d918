/**
 * Reports (issue 50, packages/protocol/src/api/reports.ts): each measure of a period computed by the database
 * with aggregates (GROUP BY, COUNT, SUM, window functions for percentiles), never by loading the period's rows:
 * what comes back grows with the channels, members and days, not with the number of events. Days and hours are
 * the time zone's (sql-time.ts). The SOS and queue measures are in durations.ts.
 *
 * A scope's channels are those the caller may report on (routes.ts): a list, or null for every channel, which
 * never includes a private call's hidden channel. A transmission counts in the period it started in.
 */
import type { Report } from '@talkgroup/protocol';
import { sql } from 'kysely';
import type { Dialect } from '../db/dialect.ts';
import type { Db } from '../db/schema.ts';
import { sosMeasure } from './durations.ts';
import { queueMeasure } from './queue-measure.ts';
import { inScope, periodOf, type ReportScope } from './scope.ts';
import { dayName, offsetSegments, sqlTime } from './sql-time.ts';

export type { ReportScope };

/**
 * How far apart, at most, a take recorded by the media server and its grant start (talk-bursts.ts forTake): the
 * take starts as the media server unmutes the holder, the grant's row is written just after.
 */
const GRANT_OF_TAKE_S = 5;

export function reportStore(db: Db, dialect: Dialect) {
  const time = sqlTime(dialect);

  /**
   * The period's transmissions, each once whatever the voice path: the floor's grants (start to end; a grant not
   * ended counts 0 ms) and the kept takes that have no grant (voice messages linked to none, and with no grant of
   * their talker at their start: their length). `fallbackName` names a
   * deleted talker (a take keeps its name; a grant does not); `at`, the start in epoch ms, only `withTime`.
   */
  function transmissions(scope: ReportScope, withTime: boolean) {
    const atOf = (column: string) => (withTime ? time.epochMs(column) : sql<number>`${sql.lit(0)}`);
    const { from, to } = periodOf(scope);
    const grants = db
      .selectFrom('talk_bursts as t')
      .where('t.started_at', '>=', from)
      .where('t.started_at', '<', to)
      .$call(inScope(scope, 't.channel_id'))
      .select([
        sql<number>`t.channel_id`.as('channelId'),
        't.user_id as userId',
        sql<string>`''`.as('fallbackName'),
        time.spanMs('t.started_at', 't.ended_at').as('ms'),
        atOf('t.started_at').as('at'),
      ]);
    const takes = db
      .selectFrom('voice_messages as v')
      .where('v.created_at', '>=', from)
      .where('v.created_at', '<', to)
      // Not `is null`: that would read every take without a grant ever kept (its index), not the period's.
      .where(sql<boolean>`coalesce(v.talk_burst_id, 0) = 0`)
      // A take the media server recorded before its grant was linked to it (issue 58: through Janus, each take
      // counted twice): its talker's grant in the channel a few seconds around its start is the transmission.
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('talk_bursts as g')
              .select('g.id')
              .whereRef('g.channel_id', '=', 'v.channel_id')
              .where('g.started_at', '>=', time.shifted('v.created_at', -GRANT_OF_TAKE_S))
              .where('g.started_at', '<=', time.shifted('v.created_at', GRANT_OF_TAKE_S))
              .where((eb) => eb.or([eb('v.user_id', 'is', null), eb('g.user_id', '=', eb.ref('v.user_id'))])),
          ),
        ),
      )
      .$call(inScope(scope, 'v.channel_id'))
      .select([
        sql<number>`v.channel_id`.as('channelId'),
        'v.user_id as userId',
        sql<string>`case when v.user_id is null then v.user_display_name else '' end`.as('fallbackName'),
        sql<number>`v.duration_ms`.as('ms'),
        atOf('v.created_at').as('at'),
      ]);
    return grants.unionAll(takes);
  }

  /**
   * Talk per channel and per member, from one query grouped by channel and talker (its rows grow with the
   * channels' members, never with the transmissions), added up here; most talk first.
   */
  async function talk(scope: ReportScope): Promise<Report['talk']> {
    const grouped = db
      .selectFrom(transmissions(scope, false).as('x'))
      .select((eb) => [
        'x.channelId',
        'x.userId',
        'x.fallbackName',
        eb.fn.sum<number>('x.ms').as('talkMs'),
        eb.fn.countAll<number>().as('transmissions'),
      ])
      .groupBy(['x.channelId', 'x.userId', 'x.fallbackName']);
    const rows = await db
      .selectFrom(grouped.as('g'))
      .innerJoin('channels as c', 'c.id', 'g.channelId')
      .leftJoin('users as u', 'u.id', 'g.userId')
      .select([
        'g.channelId',
        'c.name as channelName',
        'g.userId',
        sql<string>`coalesce(u.display_name, g."fallbackName")`.as('name'),
        'g.talkMs',
        'g.transmissions',
      ])
      .execute();
    const channels = new Map<number, Report['talk']['channels'][number]>();
    const members = new Map<string, Report['talk']['members'][number]>();
    for (const row of rows) {
      const channelId = Number(row.channelId);
      const userId = row.userId === null ? null : Number(row.userId);
      const talkMs = Number(row.talkMs ?? 0);
      const transmissions = Number(row.transmissions);
      const channel = channels.get(channelId) ?? {
        channelId,
        channelName: row.channelName,
        talkMs: 0,
        transmissions: 0,
      };
      channel.talkMs += talkMs;
      channel.transmissions += transmissions;
      channels.set(channelId, channel);
      const key = userId === null ? `deleted ${row.name}` : String(userId);
      const member = members.get(key) ?? { userId, name: row.name, talkMs: 0, transmissions: 0 };
      member.talkMs += talkMs;
      member.transmissions += transmissions;
      members.set(key, member);
    }
    const mostFirst =
      <T extends { talkMs: number }>(name: (row: T) => string) =>
      (a: T, b: T) =>
        b.talkMs - a.talkMs || name(a).localeCompare(name(b));
    return {
      channels: [...channels.values()].sort(mostFirst((row) => row.channelName)),
      members: [...members.values()].sort(mostFirst((row) => row.name)),
    };
  }

  /** Transmissions and talk by local day of the week and hour: all 168 cells, Monday 0 h first. */
  async function hours(scope: ReportScope): Promise<Report['hours']> {
    const segments = offsetSegments(scope.timeZone, Date.parse(scope.from), Date.parse(scope.to));
    const local = db
      .selectFrom(transmissions(scope, true).as('x'))
      .select(['x.ms', time.localMs(sql<number>`x.at`, segments).as('local')]);
    const rows = await db
      .selectFrom(local.as('l'))
      .select((eb) => [
        time.weekdayOf('l.local').as('day'),
        time.hourOf('l.local').as('hour'),
        eb.fn.countAll<number>().as('transmissions'),
        eb.fn.sum<number>('l.ms').as('talkMs'),
      ])
      .groupBy([time.weekdayOf('l.local'), time.hourOf('l.local')])
      .execute();
    const cells = new Map(rows.map((row) => [`${Number(row.day)} ${Number(row.hour)}`, row]));
    return Array.from({ length: 7 * 24 }, (_, index) => {
      const day = Math.floor(index / 24) + 1;
      const hour = index % 24;
      const row = cells.get(`${day} ${hour}`);
      return { day, hour, transmissions: Number(row?.transmissions ?? 0), talkMs: Number(row?.talkMs ?? 0) };
    });
  }

  /**
   * Per member, of the transmissions recorded in the period in the scope's channels that it should have heard
   * (a member of the channel since before, not the talker; voice/missed.ts): played later (voice_heard.live 0)
   * and never heard (no voice_heard row). Two counts per member, each read from the period's transmissions: how
   * many it should have heard, and how many of those it heard (from their voice_heard rows, by transmission);
   * never heard is the difference. A join of the two would have PostgreSQL hash every voice_heard row ever.
   * Members with neither are left out; most missed first.
   */
  async function missed(scope: ReportScope): Promise<Report['missed']> {
    const { from, to } = periodOf(scope);
    const period = () =>
      db
        .selectFrom('voice_messages as v')
        .where('v.created_at', '>=', from)
        .where('v.created_at', '<', to)
        .$call(inScope(scope, 'v.channel_id'));
    const owedTo = db
      .selectFrom(
        period()
          .innerJoin('channel_members as m', 'm.channel_id', 'v.channel_id')
          .whereRef('v.created_at', '>=', 'm.created_at')
          .where((eb) => eb.or([eb('v.user_id', 'is', null), eb('v.user_id', '!=', eb.ref('m.user_id'))]))
          .select((eb) => ['m.user_id as userId', eb.fn.countAll<number>().as('owed')])
          .groupBy('m.user_id')
          .as('o'),
      )
      .innerJoin('users as u', 'u.id', 'o.userId')
      .select(['o.userId', 'o.owed', 'u.display_name as name'])
      .execute();
    // Each transmission's voice_heard rows by its index. PostgreSQL would rather hash the whole table: a lateral
    // subquery it may not flatten (offset 0) keeps it to the period's rows; SQLite reads them so by itself.
    const heardJoin = () => period().innerJoin('voice_heard as h', 'h.voice_message_id', 'v.id');
    const withHeard =
      dialect === 'postgres'
        ? (period().innerJoinLateral(
            (eb) =>
              eb
                .selectFrom('voice_heard as h')
                .select(['h.voice_message_id', 'h.user_id', 'h.live'])
                .whereRef('h.voice_message_id', '=', 'v.id')
                .offset(0)
                .as('h'),
            (join) => join.onTrue(),
          ) as unknown as ReturnType<typeof heardJoin>)
        : heardJoin();
    const heardBy = withHeard
      .innerJoin('channel_members as m', (join) =>
        join.onRef('m.channel_id', '=', 'v.channel_id').onRef('m.user_id', '=', 'h.user_id'),
      )
      .whereRef('v.created_at', '>=', 'm.created_at')
      .where((eb) => eb.or([eb('v.user_id', 'is', null), eb('v.user_id', '!=', eb.ref('h.user_id'))]))
      .select((eb) => [
        'h.user_id as userId',
        eb.fn.countAll<number>().as('heard'),
        sql<number>`sum(case when h.live = 0 then 1 else 0 end)`.as('later'),
      ])
      .groupBy('h.user_id')
      .execute();
    const [owed, heard] = await Promise.all([owedTo, heardBy]);
    const heardOf = new Map(heard.map((row) => [Number(row.userId), row]));
    return owed
      .map((row) => {
        const userId = Number(row.userId);
        const played = heardOf.get(userId);
        const heardLater = Number(played?.later ?? 0);
        return { userId, name: row.name, heardLater, neverHeard: Number(row.owed) - Number(played?.heard ?? 0) };
      })
      .filter((row) => row.heardLater + row.neverHeard > 0)
      .sort(
        (a, b) =>
          b.heardLater + b.neverHeard - (a.heardLater + a.neverHeard) ||
          a.name.localeCompare(b.name) ||
          a.userId - b.userId,
      );
  }

  /** Per local day with samples, the most people connected at once and when that was first reached. */
  async function peaks(scope: ReportScope): Promise<Report['peaks']> {
    const { from, to } = periodOf(scope);
    const segments = offsetSegments(scope.timeZone, Date.parse(scope.from), Date.parse(scope.to));
    const byDay = db
      .selectFrom('presence_samples as p')
      .where('p.minute', '>=', from)
      .where('p.minute', '<', to)
      .select([time.dayOf(time.localMs(time.epochMs('p.minute'), segments)).as('day'), 'p.connected', 'p.peak_at']);
    // Each day's numbers reached and when first, then each day's largest: the window sorts a few rows a day.
    const reached = db
      .selectFrom(byDay.as('d'))
      .select((eb) => ['d.day', 'd.connected', eb.fn.min('d.peak_at').as('at')])
      .groupBy(['d.day', 'd.connected']);
    const ranked = db
      .selectFrom(reached.as('n'))
      .select(['n.day', 'n.connected', 'n.at', sql<number>`max(n.connected) over (partition by n.day)`.as('top')]);
    const rows = await db
      .selectFrom(ranked.as('r'))
      .whereRef('r.connected', '=', 'r.top')
      .select(['r.day', 'r.connected', 'r.at'])
      .orderBy('r.day')
      .execute();
    return rows.map((row) => ({
      day: dayName(Number(row.day)),
      connected: Number(row.connected),
      at: new Date(row.at as string).toISOString(),
    }));
  }

  return {
    /** The scope's channels by name: what the report covers (the listed ones that exist and are not hidden). */
    async channels(scope: Pick<ReportScope, 'channelIds'>): Promise<Report['channels']> {
      const rows = await db
        .selectFrom('channels as c')
        .where('c.hidden', '=', 0)
        .$call(inScope(scope, 'c.id'))
        .select(['c.id', 'c.name'])
        .orderBy('c.name')
        .orderBy('c.id')
        .execute();
      return rows.map((row) => ({ id: Number(row.id), name: row.name }));
    },
    talk,
    hours,
    sos: (scope: ReportScope) => sosMeasure(db, time, scope),
    queue: (scope: ReportScope) => queueMeasure(db, time, scope),
    missed,
    peaks,
  };
}

export type ReportStore = ReturnType<typeof reportStore>;
/** The parts of a report the store answers (the route adds the period and the time zone). */
export type ReportMeasures = Pick<Report, 'channels' | 'talk' | 'hours' | 'sos' | 'queue' | 'missed' | 'peaks'>;

/** Every measure of a scope, as getReport answers them: what the reports' reader computes (reader.ts). */
export async function reportMeasures(store: ReportStore, scope: ReportScope): Promise<ReportMeasures> {
  const [channels, talk, hours, sos, queue, missed, peaks] = await Promise.all([
    store.channels(scope),
    store.talk(scope),
    store.hours(scope),
    store.sos(scope),
    store.queue(scope),
    store.missed(scope),
    store.peaks(scope),
  ]);
  return { channels, talk, hours, sos, queue, missed, peaks };
}
