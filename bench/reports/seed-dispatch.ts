/**
 * The dispatch queue's year (seed.ts): each request a row of dispatch_requests, ended as dispatch/queue.ts ends
 * it, and its steps as the activities queue.ts records, with their waited_ms, handled_ms and detail JSON
 * ({"dispatch":{"requestId","requester","priority"[,"to"][,"answer"]}}). Of 100 requests: 88 taken by the
 * channel's dispatcher and closed (one in ten sent back and taken again, one in twenty transferred meanwhile),
 * 5 abandoned (the member gone), 4 expired (ten minutes unanswered), 3 cancelled by the member.
 */
import { type RawBuilder, sql } from 'kysely';
import type { Dialect } from '../../packages/server/src/db/dialect.ts';
import type { Db } from '../../packages/server/src/db/schema.ts';
import { type Bases, DAY_MS, dialectSql, h, lit } from './seed-sql.ts';

const EXPIRE_MS = 600_000;

export async function seedDispatch(
  db: Db,
  dialect: Dialect,
  span: { startMs: number; days: number },
  bases: Bases,
  sizes: { requests: number; channels: number; perChannel: number },
): Promise<number> {
  const d = dialectSql(dialect);
  const slot = Math.floor((span.days * DAY_MS) / sizes.requests);
  // One row per request: its channel, member (requester), time, fate (p) and more draws (q, r, w).
  const base = sql`(select s.i as k, ${h(1)} % ${lit(sizes.channels)} as c,
      ${h(1)} % ${lit(sizes.channels)} + ${lit(sizes.channels)} * (${h(2)} % ${lit(sizes.perChannel)}) as u,
      ${lit(span.startMs)} + (s.i - 1) * ${lit(slot)} + ${h(3)} % ${lit(slot)} as t,
      ${h(0)} % 100 as p, ${h(4)} as q, ${h(5)} as r, ${h(6)} as w
    from ${d.series(1, sizes.requests)}) b`;
  const wait = sql`(5000 + b.r % 115000 + case when b.q % 10 = 0 then b.q % 600000 else 0 end)`;
  const returned = sql`(b.p < 88 and b.q % 10 = 3)`;
  const transferred = sql`(b.p < 88 and b.q % 20 = 7)`;
  const again = sql`case when ${returned} then 80000 else 0 end`;
  const handled = sql`(30000 + b.w % 1770000)`;
  const ended = sql`case when b.p < 88 then b.t + ${wait} + ${again} + ${handled}
    when b.p < 93 then b.t + 30000 + b.q % 300000 when b.p < 97 then b.t + ${lit(EXPIRE_MS)}
    else b.t + 10000 + b.q % 60000 end`;
  const waited = sql`case when b.p < 88 then ${wait} + case when ${returned} then 20000 else 0 end
    else (${ended}) - b.t end`;
  const state = sql`case when b.p < 88 then 'closed' when b.p < 93 then 'abandoned' when b.p < 97 then 'expired'
    else 'cancelled' end`;
  const member = sql`'First' || b.u || ' Last' || b.u`;
  const dispatcher = sql`'First' || b.c || ' Last' || b.c`;
  const priority = sql`case when b.r % 5 = 0 then 'high' else 'normal' end`;
  const taken = <T>(value: RawBuilder<T>) => sql`case when b.p < 88 then ${value} end`;

  await sql`insert into dispatch_requests (id, channel_id, channel_name, requester_id, requester_name, priority, note,
      state, created_at, waited_before_ms, held_by_id, held_by_name, answer, first_taken_at, ended_at)
    select b.k, ${lit(bases.channelBase)} + b.c, 'Canal ' || b.c, ${lit(bases.userBase)} + b.u, ${member}, ${priority},
      '', ${state}, ${d.instant(sql`b.t`)}, ${waited}, ${taken(sql`${lit(bases.userBase)} + b.c`)},
      ${taken(dispatcher)}, ${taken(sql`'private'`)}, ${taken(d.instant(sql`b.t + ${wait}`))}, ${d.instant(ended)}
    from ${base}`.execute(db);

  /** One step of every request that took it: by whom (the member or the dispatcher), when, its times. */
  const step = async (
    type: string,
    when: RawBuilder<unknown>,
    by: 'member' | 'dispatcher',
    at: RawBuilder<unknown>,
    times: { waited: RawBuilder<unknown>; handled: RawBuilder<unknown> | null },
    extra: RawBuilder<unknown> = sql`''`,
  ) => {
    const user = by === 'member' ? sql`b.u` : sql`b.c`;
    await sql`insert into activities (type, user_id, user_first_name, user_last_name,
        user_display_name, channel_id, channel_name, created_at, waited_ms, handled_ms, detail)
      select ${sql.lit(type)}, ${lit(bases.userBase)} + ${user}, 'First' || ${user}, 'Last' || ${user},
        'First' || ${user} || ' Last' || ${user}, ${lit(bases.channelBase)} + b.c, 'Canal ' || b.c, ${d.instant(at)},
        ${times.waited}, ${times.handled ?? sql`null`},
        '{"dispatch":{"requestId":' || b.k || ',"requester":"' || ${member} || '","priority":"' || ${priority} || '"'
          || ${extra} || '}}'
      from ${base} where ${when}`.execute(db);
  };
  const answer = sql`',"answer":"' || case when b.r % 3 = 0 then 'channel' else 'private' end || '"'`;
  const to = sql`',"to":"First' || (b.c + 50) || ' Last' || (b.c + 50) || '"'`;
  const afterTake = (ms: number) => sql`b.t + ${wait} + ${lit(ms)}`;
  await step('dispatch_request', sql`1 = 1`, 'member', sql`b.t`, { waited: sql`0`, handled: null });
  await step('dispatch_take', sql`b.p < 88`, 'dispatcher', afterTake(0), { waited: wait, handled: sql`0` }, answer);
  await step(
    'dispatch_transfer',
    transferred,
    'dispatcher',
    afterTake(30000),
    { waited: wait, handled: sql`30000` },
    to,
  );
  await step('dispatch_return', returned, 'dispatcher', afterTake(60000), { waited: wait, handled: sql`60000` });
  // Taken again after the send-back: not a new wait (the report counts first takes).
  const takenAgain = { waited: sql`${wait} + 20000`, handled: sql`80000` };
  await step('dispatch_take', returned, 'dispatcher', afterTake(80000), takenAgain, answer);
  await step('dispatch_close', sql`b.p < 88`, 'dispatcher', ended, { waited, handled: sql`${handled} + ${again}` });
  await step('dispatch_abandon', sql`b.p >= 88 and b.p < 93`, 'member', ended, { waited, handled: null });
  await step('dispatch_expire', sql`b.p >= 93 and b.p < 97`, 'member', ended, { waited, handled: null });
  await step('dispatch_cancel', sql`b.p >= 97`, 'member', ended, { waited, handled: null });
  const { n } = await db
    .selectFrom('activities')
    .where('type', 'like', 'dispatch%')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(n);
}
