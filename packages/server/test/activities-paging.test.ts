import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Account, databases, signUpAdmin, startApp, type TestApp } from './harness.ts';

/**
 * getAllActivities reads pages in the older half from the oldest end (activities.latest): every page must
 * still be exactly the slice of the latest-first order, ties on created_at included.
 */
describe.each(databases)('activity paging on %s', (dialect) => {
  let app: TestApp;
  let admin: Account;

  beforeEach(async () => {
    app = await startApp(dialect);
    admin = await signUpAdmin(app);
    await app.services.db.deleteFrom('activities').execute();
    // 100 activities on 30 distinct instants: many share a created_at and are ordered by id.
    await app.services.db
      .insertInto('activities')
      .values(
        Array.from({ length: 100 }, (_, i) => ({
          type: 'login',
          user_display_name: `n${i}`,
          created_at: new Date(Date.UTC(2025, 0, 1) + ((i * 7) % 30) * 60_000).toISOString(),
        })),
      )
      .execute();
  });
  afterEach(async () => {
    await app.close();
  });

  const names = (body: { res: { activities: Array<{ user: { display_name: string } }> } }) =>
    body.res.activities.map((a) => a.user.display_name);

  it('gives every page of 21, first to last, as the slices of one latest-first order', async () => {
    const all = await app.call('/user/api/getAllActivities/', { start: 0, limit: 1000 }, admin.token);
    const order = names(all.body);
    expect(order).toHaveLength(100);
    const rows = await app.services.db.selectFrom('activities').select(['id', 'created_at']).execute();
    const byName = new Map(order.map((name, i) => [name, i]));
    expect(byName.size).toBe(100);
    const expected = [...rows]
      .sort((a, b) => (a.created_at === b.created_at ? b.id - a.id : a.created_at < b.created_at ? 1 : -1))
      .map((row) => row.id);
    const ids = all.body.res.activities.map((a: { id: number }) => a.id);
    expect(ids).toEqual(expected);

    const paged: string[] = [];
    for (let start = 0; start < 100; start += 21) {
      const page = await app.call('/user/api/getAllActivities/', { start, limit: 21 }, admin.token);
      expect(page.body.res.totalRecords).toBe(100);
      expect(names(page.body)).toEqual(order.slice(start, start + 21));
      paged.push(...names(page.body));
    }
    expect(paged).toEqual(order);
  });

  it('keeps totalRecords exact through recording and deleting', async () => {
    const total = async () =>
      (await app.call('/user/api/getAllActivities/', { start: 0, limit: 1 }, admin.token)).body.res.totalRecords;
    expect(await total()).toBe(100);
    await app.call('/user/api/login', { user_email: admin.identifier, user_password: admin.password });
    expect(await total()).toBe(101);
    // The seeded 100 are older than a week; the sign-in is not.
    const deleted = await app.call('/user/api/deleteOldActivities', { timeFrame: '1w' }, admin.token);
    expect(deleted.body.deleted).toBe(100);
    expect(await total()).toBe(1);
  });

  it('answers an empty page past the end', async () => {
    const past = await app.call('/user/api/getAllActivities/', { start: 105, limit: 21 }, admin.token);
    expect(past.status).toBe(200);
    expect(past.body.res).toEqual({ activities: [], totalRecords: 100 });
  });
});
