import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cutoffOf } from '../src/activities/routes.ts';
import { type Account, databases, expectNoSecrets, signUpAdmin, startApp, type TestApp } from './harness.ts';

const DAY = 24 * 3600 * 1000;

describe.each(databases)('activities on %s', (dialect) => {
  let app: TestApp;
  let admin: Account;
  beforeEach(async () => {
    app = await startApp(dialect);
    admin = await signUpAdmin(app);
    // Only the seeded activities count: forget the sign-in of the setup.
    await app.services.db.deleteFrom('activities').execute();
  });
  afterEach(async () => {
    await app.close();
  });

  /** Activities named by their age, created at now minus that many days. */
  async function seed(ageInDays: number[]): Promise<void> {
    const now = Date.now();
    await app.services.db
      .insertInto('activities')
      .values(
        ageInDays.map((days) => ({
          type: 'login',
          user_id: admin.id,
          user_first_name: 'Ada',
          user_last_name: 'Admin',
          user_display_name: `age ${days}`,
          channel_id: null,
          channel_name: null,
          created_at: new Date(now - days * DAY).toISOString(),
        })),
      )
      .execute();
  }
  const remainingAges = async () =>
    (await app.call('/user/api/getAllActivities/', { start: 0, limit: 100 }, admin.token)).body.res.activities.map(
      (a: { user: { display_name: string } }) => Number(a.user.display_name.slice(4)),
    );

  it('gives the last 8 activities latest first, or as many as asked', async () => {
    await seed([0.1, 0.5, 0.2, 3, 2, 1, 0.3, 0.4, 5, 4]);
    const last = await app.call('/user/api/getLastActivities/', {}, admin.token);
    expect(last.status).toBe(200);
    expect(last.body.success).toBe(true);
    expect(last.body.res.map((a: { user: { display_name: string } }) => a.user.display_name)).toEqual(
      ['0.1', '0.2', '0.3', '0.4', '0.5', '1', '2', '3'].map((d) => `age ${d}`),
    );
    expect(last.body.res[0]).toEqual({
      id: expect.any(Number),
      type: 'login',
      createdAt: expect.any(String),
      user: { id: admin.id, firstName: 'Ada', lastName: 'Admin', display_name: 'age 0.1' },
      channel: null,
    });
    expectNoSecrets(last.body);
    const three = await app.call('/user/api/getLastActivities/', { limit: 3 }, admin.token);
    expect(three.body.res).toHaveLength(3);
    const tooMany = await app.call('/user/api/getLastActivities/', { limit: 100000 }, admin.token);
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.result).toMatch(/limit/);
  });

  it('pages all activities with start and limit and counts them', async () => {
    await seed(Array.from({ length: 25 }, (_, i) => i + 1));
    const first = await app.call('/user/api/getAllActivities/', { start: 0, limit: 21 }, admin.token);
    expect(first.body.res.totalRecords).toBe(25);
    expect(first.body.res.activities).toHaveLength(21);
    expect(first.body.res.activities[0].user.display_name).toBe('age 1');
    const second = await app.call('/user/api/getAllActivities/', { start: 21, limit: 21 }, admin.token);
    expect(second.body.res.activities.map((a: { user: { display_name: string } }) => a.user.display_name)).toEqual([
      'age 22',
      'age 23',
      'age 24',
      'age 25',
    ]);
    // The dashboard's paged dialog: start offset 8 x (page - 1).
    const page2 = await app.call('/user/api/getAllActivities/', { start: '8', limit: '8' }, admin.token);
    expect(page2.body.res.activities[0].user.display_name).toBe('age 9');
    const negative = await app.call('/user/api/getAllActivities/', { start: -1, limit: 8 }, admin.token);
    expect(negative.status).toBe(400);
    expect(negative.body.result).toMatch(/start/);
  });

  it.each([
    ['1w', [1, 6.9]],
    ['2w', [1, 6.9, 7.1, 13.9]],
    ['1m', [1, 6.9, 7.1, 13.9, 14.1, 27]],
  ] as const)('deletes exactly the activities older than %s', async (timeFrame, kept) => {
    await seed([1, 6.9, 7.1, 13.9, 14.1, 27, 32, 400]);
    const deleted = await app.call('/user/api/deleteOldActivities', { timeFrame }, admin.token);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ success: true, deleted: 8 - kept.length });
    expect((await remainingAges()).sort((a: number, b: number) => a - b)).toEqual(kept);
  });

  it('refuses any other time frame with a 400 naming timeFrame, deleting nothing', async () => {
    await seed([1, 100]);
    for (const timeFrame of ['1y', '', '1M', 7]) {
      const refused = await app.call('/user/api/deleteOldActivities', { timeFrame }, admin.token);
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({
        success: false,
        result: expect.stringMatching(/^timeFrame: /),
        code: 'invalid_input',
        params: { details: expect.stringMatching(/^timeFrame: /) },
        // Issue 70: which field, for a form to mark it.
        fields: [{ field: 'timeFrame' }],
      });
    }
    const missing = await app.call('/user/api/deleteOldActivities', {}, admin.token);
    expect(missing.status).toBe(400);
    expect(await remainingAges()).toHaveLength(2);
  });

  it('counts a month as a calendar month, days as days', () => {
    const now = new Date('2026-03-31T10:00:00.000Z');
    expect(cutoffOf('1m', now).toISOString()).toBe('2026-02-28T10:00:00.000Z');
    expect(cutoffOf('1m', new Date('2026-05-15T00:00:00.000Z')).toISOString()).toBe('2026-04-15T00:00:00.000Z');
    expect(cutoffOf('2w', now).toISOString()).toBe('2026-03-17T10:00:00.000Z');
    expect(cutoffOf('1w', now).toISOString()).toBe('2026-03-24T10:00:00.000Z');
  });

  it('records login and logout with the user', async () => {
    await app.call('/user/api/logout', { userId: admin.id }, admin.token);
    const again = await app.call('/user/api/login', { user_email: admin.identifier, user_password: admin.password });
    const last = await app.call('/user/api/getLastActivities/', {}, again.body.user.authToken);
    expect(last.body.res.map((a: { type: string }) => a.type)).toEqual(['login', 'logout']);
    expect(last.body.res[1].user).toMatchObject({ id: admin.id, firstName: 'Ada' });
  });
});
