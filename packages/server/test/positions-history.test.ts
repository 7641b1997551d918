/**
 * Trails (issue 28): every reported position is kept for POSITION_RETENTION_DAYS and read back by
 * getPositionHistory, oldest first, at most 10,000 at a time; a sweep forgets older ones. Who may read whose:
 * oneself, administrators anyone, a dispatcher the members of its channels, nobody else (the `trails` level).
 */
import { POSITION_HISTORY_MAX_POINTS } from '@talkgroup/protocol';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/config.ts';
import { startPositionSweep, sweepExpiredPositions } from '../src/positions/retention.ts';
import { type Account, databases } from './harness.ts';
import { eventually } from './realtime-harness.ts';
import { world } from './world.ts';

const DAY = 24 * 3600 * 1000;

describe.each(databases)('position history on %s', (dialect) => {
  const w = world(dialect, {
    people: {
      alice: { role: 'member', firstName: 'Alice', mapRight: true },
      bob: { role: 'member', firstName: 'Bob', mapRight: true },
      outsider: { role: 'member' },
      dispatcher: { role: 'dispatcher' },
      otherDispatcher: { role: 'dispatcher' },
    },
    channels: {
      field: { name: 'Field', members: ['alice', 'bob', 'dispatcher'] },
      office: { name: 'Office', members: ['outsider', 'otherDispatcher'] },
    },
  });

  /** Positions of a user at given times (the store's own insert, with a chosen time). */
  async function seed(userId: number, points: Array<{ lat: number; lng: number; at: Date; accuracy?: number }>) {
    await w.app.services.db
      .insertInto('user_positions')
      .values(
        points.map((p) => ({
          user_id: userId,
          lat: p.lat,
          lng: p.lng,
          accuracy: p.accuracy ?? null,
          created_at: p.at.toISOString(),
        })),
      )
      .execute();
  }

  const history = (token: string, body: object) => w.app.call('/user/api/getPositionHistory', body, token);

  it('keeps every position a phone reports and gives them back oldest first', async () => {
    const { alice } = w;
    const phone = await w.open(alice);
    try {
      const walk = [
        { lat: 48.85, lng: 2.35, accuracy: 8 },
        { lat: 48.851, lng: 2.351 },
        { lat: 48.852, lng: 2.352, accuracy: 5 },
      ];
      for (const point of walk) expect((await phone.emitAck('onLocationChanged', point)).success).toBe(true);
    } finally {
      phone.close();
    }
    const answer = await history(alice.token, { userId: alice.id });
    expect(answer.status).toBe(200);
    expect(answer.body.truncated).toBe(false);
    expect(answer.body.res.map((p: any) => [p.lat, p.lng, p.accuracy])).toEqual([
      [48.85, 2.35, 8],
      [48.851, 2.351, null],
      [48.852, 2.352, 5],
    ]);
    const times = answer.body.res.map((p: any) => Date.parse(p.createdAt));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    expect(Object.keys(answer.body.res[0]).sort()).toEqual(['accuracy', 'createdAt', 'lat', 'lng']);
  });

  it('gives the positions of [from, to) only', async () => {
    const { admin, bob } = w;
    const start = Date.parse('2026-03-01T08:00:00.000Z');
    await seed(
      bob.id,
      [0, 1, 2, 3, 4].map((i) => ({ lat: 45 + i / 1000, lng: 5, at: new Date(start + i * 60_000) })),
    );
    const answer = await history(admin.token, {
      userId: bob.id,
      from: new Date(start + 60_000).toISOString(),
      to: new Date(start + 3 * 60_000).toISOString(),
    });
    expect(answer.body.res.map((p: any) => p.lat)).toEqual([45.001, 45.002]);
    const bad = await history(admin.token, {
      userId: bob.id,
      from: '2026-03-02T00:00:00Z',
      to: '2026-03-01T00:00:00Z',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.result).toMatch(/to: must be after from/);
    expect((await history(admin.token, { userId: bob.id, from: 'yesterday' })).status).toBe(400);
  });

  it('answers at most 10,000 positions, the earliest, and says more follow', async () => {
    const { bob, dispatcher } = w;
    const start = Date.now() - 3 * DAY;
    const points = Array.from({ length: POSITION_HISTORY_MAX_POINTS + 5 }, (_, i) => ({
      lat: 40 + i / 1e6,
      lng: 3,
      at: new Date(start + i * 1000),
    }));
    for (let i = 0; i < points.length; i += 500) await seed(bob.id, points.slice(i, i + 500));
    const first = await history(dispatcher.token, { userId: bob.id });
    expect(first.body.res).toHaveLength(POSITION_HISTORY_MAX_POINTS);
    expect(first.body.truncated).toBe(true);
    expect(first.body.res[0].createdAt).toBe(points[0].at.toISOString());
    const last = first.body.res[POSITION_HISTORY_MAX_POINTS - 1];
    // Asked again just after the last one, the rest follow.
    const rest = await history(dispatcher.token, {
      userId: bob.id,
      from: new Date(Date.parse(last.createdAt) + 1).toISOString(),
    });
    expect(rest.body.res).toHaveLength(5);
    expect(rest.body.truncated).toBe(false);
  });

  it('lets oneself, administrators and dispatchers of the user’s channels read it, nobody else', async () => {
    const { app, admin, alice, bob, outsider, dispatcher, otherDispatcher, field } = w;
    await seed(bob.id, [{ lat: 46, lng: 6, at: new Date() }]);
    const asked = async (account: Account | undefined) => {
      const answer = await app.call('/user/api/getPositionHistory', { userId: bob.id }, account?.token);
      return answer.status === 200 ? 200 : `${answer.status} ${answer.body.code}`;
    };
    expect(await asked(undefined)).toBe('401 token_missing');
    expect(await asked(bob)).toBe(200);
    expect(await asked(admin)).toBe(200);
    expect(await asked(dispatcher)).toBe(200);
    // A member of the same channel with map access sees where Bob is, not where he has been.
    expect(await asked(alice)).toBe('403 not_allowed');
    expect(await asked(outsider)).toBe('403 not_allowed');
    expect(await asked(otherDispatcher)).toBe('403 not_allowed');
    // An administrator learns that a user does not exist; others learn nothing.
    expect((await history(admin.token, { userId: 999_999 })).body.code).toBe('user_not_found');
    expect((await history(dispatcher.token, { userId: 999_999 })).status).toBe(403);
    // Out of the channel, out of the dispatcher's reach.
    await app.call('/user/api/deleteUserFromChannel', { userId: bob.id, channelId: field.id }, admin.token);
    expect(await asked(dispatcher)).toBe('403 not_allowed');
  });

  it('sweeps the positions older than the retention, and only those', async () => {
    const { app, admin, alice, bob, field } = w;
    const now = Date.now();
    await seed(alice.id, [
      { lat: 1, lng: 1, at: new Date(now - 31 * DAY) },
      { lat: 2, lng: 2, at: new Date(now - 30 * DAY - 60_000) },
      { lat: 3, lng: 3, at: new Date(now - 29 * DAY) },
      { lat: 4, lng: 4, at: new Date(now - 1000) },
    ]);
    await seed(bob.id, [{ lat: 5, lng: 5, at: new Date(now - 40 * DAY) }]);
    expect(app.config.positionRetentionMs).toBe(30 * DAY);
    expect(await sweepExpiredPositions(app.services.positions, app.config.positionRetentionMs, now)).toBe(3);
    expect((await history(admin.token, { userId: alice.id })).body.res.map((p: any) => p.lat)).toEqual([3, 4]);
    expect((await history(admin.token, { userId: bob.id })).body.res).toEqual([]);
    // The latest position (the maps, the users list) is the newest kept one.
    const users = await app.call('/user/api/getUsersInChannel', { channelId: field.id }, admin.token);
    const shown = users.body.res.find((u: any) => u.id === alice.id);
    expect(shown.userPositions[0]).toMatchObject({ lat: 4, lng: 4 });
    expect(await sweepExpiredPositions(app.services.positions, app.config.positionRetentionMs, now)).toBe(0);
  });

  it('runs the sweep by itself, in batches that leave nothing old behind', async () => {
    const { app, alice } = w;
    const old = new Date(Date.now() - 2 * DAY);
    const points = Array.from({ length: 12_000 }, (_, i) => ({ lat: 10 + i / 1e6, lng: 1, at: old }));
    for (let i = 0; i < points.length; i += 1000) await seed(alice.id, points.slice(i, i + 1000));
    await seed(alice.id, [{ lat: 50, lng: 1, at: new Date() }]);
    const errors: unknown[] = [];
    const stop = startPositionSweep(app.services.positions, DAY, (error) => errors.push(error), {
      firstAfterMs: 10,
      everyMs: 60_000,
    });
    try {
      await eventually(async () => {
        const left = await app.services.db
          .selectFrom('user_positions')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow();
        return Number(left.n) === 1;
      }, 'the old positions are swept');
    } finally {
      stop();
    }
    expect(errors).toEqual([]);
  });

  it('reads POSITION_RETENTION_DAYS, tells the browsers, and refuses a nonsense value', async () => {
    const { app, alice } = w;
    expect(loadConfig({ POSITION_RETENTION_DAYS: '7' }).positionRetentionMs).toBe(7 * DAY);
    expect(() => loadConfig({ POSITION_RETENTION_DAYS: 'forever' })).toThrow(/POSITION_RETENTION_DAYS/);
    expect(() => loadConfig({ POSITION_RETENTION_DAYS: '0' })).toThrow(/above 0/);
    const config = await app.call('/user/api/getClientConfig', {}, alice.token);
    expect(config.body.res.positionRetentionDays).toBe(30);
  });
});
