/**
 * The reports' dispatch queue measure (issue 50, issue 58), from the queue's activities (dispatch/queue.ts writes
 * them): requests made, and the steps made in the period (first takes, abandoned, expired, cancelled, closed, the
 * closes by outcome); waiting time at each request's first take (waited_ms) and handling time at each close
 * (handled_ms). Per channel, with every column the total has (the rows add up to it), and per dispatcher.
 */
import { DISPATCH_OUTCOMES, type DispatchOutcome, type Report } from '@talkgroup/protocol';
import { sql } from 'kysely';
import type { Db } from '../db/schema.ts';
import { ALL, keyOf, NO_TIMES, perChannel, statsOf } from './durations.ts';
import { inScope, periodOf, type ReportScope } from './scope.ts';
import type { SqlTime } from './sql-time.ts';

const STEPS = {
  dispatch_request: 'requests',
  dispatch_take: 'takes',
  dispatch_abandon: 'abandoned',
  dispatch_expire: 'expired',
  dispatch_cancel: 'cancelled',
  dispatch_close: 'closed',
} as const;
type Step = keyof typeof STEPS;
const STEP_TYPES = Object.keys(STEPS) as Step[];

/** A dispatcher's steps: what each counts as in `queue.dispatchers`. */
const DISPATCHER_STEPS = {
  dispatch_take: 'taken',
  dispatch_return: 'returned',
  dispatch_transfer: 'transferred',
  dispatch_close: 'closed',
} as const;
type DispatcherStep = keyof typeof DISPATCHER_STEPS;
/** Every type the measure counts, read at once. */
const COUNTED_TYPES = [...new Set<string>([...STEP_TYPES, ...Object.keys(DISPATCHER_STEPS)])];

type Queue = Report['queue'];
type Outcomes = Queue['outcomes'];
const noOutcomes = (): Outcomes => ({ resolved: 0, no_action: 0, referred: 0 });
const COUNTED = ['requests', 'taken', 'abandoned', 'expired', 'cancelled', 'closed'] as const;

export async function queueMeasure(db: Db, time: SqlTime, scope: ReportScope): Promise<Queue> {
  const { from, to } = periodOf(scope);
  const steps = () =>
    db
      .selectFrom('activities as a')
      .where('a.created_at', '>=', from)
      .where('a.created_at', '<', to)
      .$call(inScope(scope, 'a.channel_id'));
  // Each channel's steps by type and by whom (the dispatchers' counts come from the same read), a close's by its
  // outcome too (read from its JSON for closes only).
  const tagged = steps()
    .where('a.type', 'in', COUNTED_TYPES)
    .select([
      'a.channel_id as channelId',
      'a.type',
      'a.user_id as userId',
      'a.user_display_name as userName',
      sql<string | null>`case when a.type = 'dispatch_close' then ${time.dispatchTextOf('a.detail', 'outcome')} end`.as(
        'outcome',
      ),
    ]);
  const counts = await db
    .selectFrom(tagged.as('s'))
    .innerJoin('channels as c', 'c.id', 's.channelId')
    .select((eb) => [
      's.channelId',
      'c.name as channelName',
      's.type',
      's.outcome',
      's.userId',
      eb.fn.max('s.userName').as('userName'),
      eb.fn.countAll<number>().as('n'),
    ])
    .groupBy(['s.channelId', 'c.name', 's.type', 's.outcome', 's.userId'])
    .execute();
  const waiting = await statsOf(db, firstTakes(time, steps, from));
  const closes = () => steps().where('a.type', '=', 'dispatch_close').where('a.handled_ms', 'is not', null);
  const handling = await statsOf(db, closes().select([perChannel('a.channel_id').as('grp'), 'a.handled_ms as d']));

  type Row = Queue['channels'][number];
  const channels = new Map<number, Row>();
  for (const row of counts) {
    const field = STEPS[row.type as Step];
    if (!field) continue; // a send-back or a transfer: the dispatchers' only
    const channelId = Number(row.channelId);
    const channel = channels.get(channelId) ?? {
      channelId,
      channelName: row.channelName,
      requests: 0,
      taken: 0,
      abandoned: 0,
      expired: 0,
      cancelled: 0,
      closed: 0,
      outcomes: noOutcomes(),
      waiting: waiting.get(keyOf(channelId)) ?? NO_TIMES,
      handling: handling.get(keyOf(channelId)) ?? NO_TIMES,
    };
    if (field !== 'takes') channel[field] += Number(row.n);
    if (row.type === 'dispatch_close' && DISPATCH_OUTCOMES.includes(row.outcome as DispatchOutcome))
      channel.outcomes[row.outcome as DispatchOutcome] += Number(row.n);
    channel.taken = channel.waiting.count;
    channels.set(channelId, channel);
  }
  const list = [...channels.values()];
  const total = (field: (typeof COUNTED)[number]) => list.reduce((sum, channel) => sum + channel[field], 0);
  const outcomes = noOutcomes();
  for (const channel of list) for (const outcome of DISPATCH_OUTCOMES) outcomes[outcome] += channel.outcomes[outcome];
  return {
    requests: total('requests'),
    taken: total('taken'),
    abandoned: total('abandoned'),
    expired: total('expired'),
    cancelled: total('cancelled'),
    closed: total('closed'),
    outcomes,
    waiting: waiting.get(ALL) ?? NO_TIMES,
    handling: handling.get(ALL) ?? NO_TIMES,
    channels: list.sort((a, b) => b.requests - a.requests || a.channelName.localeCompare(b.channelName)),
    dispatchers: await dispatchers(db, counts, closes),
  };
}

/**
 * A request's first take: no take of the same request before it, read from the request's creation on (the
 * period's start when its row is gone) by the activities' type and time index. A take after a send-back or a
 * transfer is not a new wait.
 */
function firstTakes(time: SqlTime, steps: () => ReturnType<typeof stepsOf>, from: string) {
  const requestOf = (alias: 'a' | 'b') => time.requestIdOf(`${alias}.detail`);
  return steps()
    .where('a.type', '=', 'dispatch_take')
    .where('a.waited_ms', 'is not', null)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('activities as b')
            .select('b.id')
            .where('b.type', '=', 'dispatch_take')
            // Both bounds on the index: from the request's creation to this take.
            .where(sql<boolean>`b.created_at >= coalesce((select r.created_at from dispatch_requests r
              where r.id = ${requestOf('a')}), ${from})`)
            .whereRef('b.created_at', '<=', 'a.created_at')
            .where((eb) =>
              eb.or([
                eb('b.created_at', '<', eb.ref('a.created_at')),
                eb.and([eb('b.created_at', '=', eb.ref('a.created_at')), eb('b.id', '<', eb.ref('a.id'))]),
              ]),
            )
            .where(sql<boolean>`${requestOf('b')} = ${requestOf('a')}`),
        ),
      ),
    )
    .select([perChannel('a.channel_id').as('grp'), 'a.waited_ms as d']);
}

/** The type of the period's steps query (queueMeasure's `steps`). */
function stepsOf(db: Db) {
  return db.selectFrom('activities as a');
}

/**
 * Per dispatcher, its steps in the period by type (from the channels' counts, by whom; its name as it is now, or
 * as the step kept it once its account is gone) and the handling time of the requests it closed; most taken
 * first.
 */
async function dispatchers(
  db: Db,
  counts: Array<{ type: string; userId: number | null; userName: unknown; n: unknown }>,
  closes: () => ReturnType<typeof stepsOf>,
): Promise<Queue['dispatchers']> {
  const rows = counts.filter((row) => row.userId !== null && row.type in DISPATCHER_STEPS);
  if (rows.length === 0) return [];
  const ids = [...new Set(rows.map((row) => Number(row.userId)))];
  const [handling, users] = await Promise.all([
    statsOf(db, closes().select([perChannel('a.user_id').as('grp'), 'a.handled_ms as d'])),
    db.selectFrom('users').select(['id', 'display_name']).where('id', 'in', ids).execute(),
  ]);
  const nameOf = new Map(users.map((user) => [Number(user.id), user.display_name]));
  const byUser = new Map<number, Queue['dispatchers'][number]>();
  for (const row of rows) {
    const userId = Number(row.userId);
    const dispatcher = byUser.get(userId) ?? {
      userId,
      name: nameOf.get(userId) ?? String(row.userName ?? ''),
      taken: 0,
      returned: 0,
      transferred: 0,
      closed: 0,
      handling: handling.get(keyOf(userId)) ?? NO_TIMES,
    };
    dispatcher[DISPATCHER_STEPS[row.type as DispatcherStep]] += Number(row.n);
    byUser.set(userId, dispatcher);
  }
  return [...byUser.values()].sort((a, b) => b.taken - a.taken || a.name.localeCompare(b.name) || a.userId - b.userId);
}
