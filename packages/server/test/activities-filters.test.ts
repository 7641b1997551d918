/**
 * The activity log, searchable (issue 17 point 10): getAllActivities/ takes optional member, channel, type and
 * date-range filters with the same paging; and the whole log is paged by keyset inside the store (issue 18
 * point 5), every page the exact slice of one latest-first order, through additions and deletions.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { activityPaging } from '../src/activities/paging.ts';
import { type Account, createMember, databases, signUpAdmin, startApp, type TestApp } from './harness.ts';

describe.each(databases)('activity filters and keyset paging on %s', (dialect) => {
  let app: TestApp;
  let admin: Account;
  const day = (d: number, minute = 0) => new Date(Date.UTC(2025, 2, d, 8, minute)).toISOString();

  beforeEach(async () => {
    app = await startApp(dialect);
    admin = await signUpAdmin(app);
    await app.services.db.deleteFrom('activities').execute();
  });
  afterEach(async () => {
    await app.close();
  });

  /** Every id, latest first (ties on created_at by id). */
  const order = async () =>
    (
      await app.services.db
        .selectFrom('activities')
        .select('id')
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .execute()
    ).map((row) => row.id);

  const seed = (count: number, at: (i: number) => string) =>
    app.services.db
      .insertInto('activities')
      .values(Array.from({ length: count }, (_, i) => ({ type: 'login', created_at: at(i) })))
      .execute();

  it('pages the whole log from bookmarks: every offset is its slice, also after newer and older entries and a deletion', async () => {
    // 95 entries on 23 instants: many share a created_at.
    await seed(95, (i) => day(1, (i * 7) % 23));
    const paging = activityPaging(app.services.db, 7);
    const check = async () => {
      const expected = await order();
      for (const limit of [1, 5, 21]) {
        for (let offset = 0; offset <= expected.length; offset += 1) {
          expect(await paging.pageIds({}, limit, offset, expected.length)).toEqual(
            expected.slice(offset, offset + limit),
          );
        }
      }
    };
    await check();
    await seed(10, () => day(2));
    await check();
    // An entry older than the newest bookmark: the bookmarks are counted again.
    const [older] = await app.services.db
      .insertInto('activities')
      .values({ type: 'logout', created_at: day(1, 3) })
      .returning('created_at')
      .execute();
    paging.written(older.created_at);
    await check();
    // One written by another process, untold: seen from the log's size.
    await seed(3, () => day(1, 5));
    await check();
    // The oldest entries deleted (here or by another instance): noticed without being told.
    await app.services.db.deleteFrom('activities').where('created_at', '<', day(1, 10)).execute();
    await check();
  });

  it('filters getAllActivities/ by member, channel, type and dates, with the same paging and totals', async () => {
    const mia = await createMember(app, admin, { firstName: 'Mia', lastName: 'Filter' });
    const created = await app.call('/user/api/createChannel', { channelName: 'Ops' }, admin.token);
    const ops = created.body.res.id as number;
    await app.services.db.deleteFrom('activities').execute();
    const rows = Array.from({ length: 30 }, (_, i) => ({
      type: i % 3 === 0 ? 'channel_join' : 'login',
      user_id: i % 2 === 0 ? mia.id : admin.id,
      user_display_name: i % 2 === 0 ? 'Mia Filter' : 'Ada Admin',
      channel_id: i % 3 === 0 ? ops : null,
      channel_name: i % 3 === 0 ? 'Ops' : null,
      created_at: day(1 + (i % 10), i),
    }));
    await app.services.db.insertInto('activities').values(rows).execute();
    const call = (body: object) =>
      app.call('/user/api/getAllActivities/', { start: 0, limit: 1000, ...body }, admin.token);

    const byMember = await call({ userId: mia.id });
    expect(byMember.body.res.totalRecords).toBe(15);
    expect(byMember.body.res.activities.every((a: { user: { id: number } }) => a.user.id === mia.id)).toBe(true);

    const byChannelAndType = await call({ channelId: ops, type: 'channel_join', userId: mia.id });
    expect(byChannelAndType.body.res.totalRecords).toBe(5); // i = 0, 6, 12, 18, 24

    // 3 to 5 March inclusive: days 3, 4 and 5, three entries each.
    const range = await call({ from: day(3, 0).replace('08:00', '00:00'), to: '2025-03-06T00:00:00+00:00' });
    expect(range.body.res.totalRecords).toBe(9);
    const dates = range.body.res.activities.map((a: { createdAt: string }) => a.createdAt);
    expect(dates).toEqual([...dates].sort().reverse());
    // The same bound given with another offset means the same moment.
    const paris = await call({ from: '2025-03-03T01:00:00+01:00', to: '2025-03-06T01:00:00+01:00' });
    expect(paris.body.res.totalRecords).toBe(9);

    // Paging a filter: pages are the slices of the filtered order.
    const all = byMember.body.res.activities.map((a: { id: number }) => a.id);
    const paged: number[] = [];
    for (let start = 0; start < 15; start += 4) {
      const page = await call({ userId: mia.id, start, limit: 4 });
      expect(page.body.res.totalRecords).toBe(15);
      paged.push(...page.body.res.activities.map((a: { id: number }) => a.id));
    }
    expect(paged).toEqual(all);

    const bad = await call({ type: 'nonsense', from: 'yesterday' });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('invalid_input');
  });
});
