import type { Statistics } from '@talkgroup/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { percentChange, statisticsStore } from '../src/dashboard/store.ts';
import { type Account, createMember, databases, signUpAdmin, startApp, type TestApp } from './harness.ts';

const DAY = 24 * 60 * 60 * 1000;
const HOUR = 60 * 60 * 1000;
const ago = (ms: number, now = Date.now()) => new Date(now - ms).toISOString();

describe.each(databases)('dashboard statistics on %s', (dialect) => {
  let app: TestApp;
  let admin: Account;

  beforeEach(async () => {
    app = await startApp(dialect);
    admin = await signUpAdmin(app);
  });
  afterEach(async () => {
    await app.close();
  });

  async function statistics(token = admin.token): Promise<Statistics> {
    const response = await app.call('/user/api/getStatistics', {}, token);
    expect(response.status).toBe(200);
    expect(response.body.success).toBe(true);
    return response.body.res;
  }

  async function setUserCreatedAt(id: number, createdAt: string) {
    await app.services.db.updateTable('users').set({ created_at: createdAt }).where('id', '=', id).execute();
  }

  async function seedChannel(name: string, createdAt = new Date().toISOString()): Promise<number> {
    const row = await app.services.db
      .insertInto('channels')
      .values({ name, rtc_session: name.replace(/\s+/g, ''), created_at: createdAt })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async function addMembers(channelId: number, userIds: number[]) {
    if (userIds.length === 0) return;
    await app.services.db
      .insertInto('channel_members')
      .values(
        userIds.map((userId) => ({ channel_id: channelId, user_id: userId, created_at: new Date().toISOString() })),
      )
      .execute();
  }

  it('answers 401 without a token and 403 to a member', async () => {
    const member = await createMember(app, admin);
    expect((await app.call('/user/api/getStatistics', {})).status).toBe(401);
    const asMember = await app.call('/user/api/getStatistics', {}, member.token);
    expect(asMember.status).toBe(403);
    expect(asMember.body.success).toBe(false);
  });

  it('counts users and channels into ten daily buckets by age of creation', async () => {
    // Ages in hours: two in bucket 0, one in 1, two in 3, one in 9, and two older than ten days.
    const ages = [1, 20, 30, 80, 90, 9 * 24 + 5, 10 * 24 + 1, 40 * 24];
    const members: Account[] = [];
    for (const _ of ages) members.push(await createMember(app, admin));
    for (const [i, member] of members.entries()) await setUserCreatedAt(member.id, ago(ages[i] * HOUR));
    await setUserCreatedAt(admin.id, ago(400 * DAY));

    const channelAges = [2, 50, 26 * 24];
    for (const [i, hours] of channelAges.entries()) await seedChannel(`Channel ${i}`, ago(hours * HOUR));

    const stats = await statistics();
    expect(stats.totalUsers).toBe(9);
    expect(stats.usersTrend).toEqual([2, 1, 0, 2, 0, 0, 0, 0, 0, 1]);
    // Six added in ten days, three before them: +200 %.
    expect(stats.usersChange).toBe(200);
    expect(stats.totalChannels).toBe(3);
    expect(stats.channelsTrend).toEqual([1, 0, 1, 0, 0, 0, 0, 0, 0, 0]);
    expect(stats.channelsChange).toBe(200);
  });

  it('puts an item exactly one day old in bucket 1 and one exactly ten days old in no bucket', async () => {
    const now = new Date('2025-03-10T12:00:00.000Z');
    const [a, b, c] = [await createMember(app, admin), await createMember(app, admin), await createMember(app, admin)];
    await setUserCreatedAt(admin.id, now.toISOString());
    await setUserCreatedAt(a.id, ago(DAY, now.getTime()));
    await setUserCreatedAt(b.id, ago(DAY + 1, now.getTime()));
    await setUserCreatedAt(c.id, ago(10 * DAY, now.getTime()));

    const stats = await statisticsStore(app.services.db).statistics(now);
    expect(stats.usersTrend).toEqual([1, 2, 0, 0, 0, 0, 0, 0, 0, 0]);
    // Three added, one before: +300 %.
    expect(stats.usersChange).toBe(300);
  });

  it('reports 100 % when everything is new and 0 % when nothing changed', async () => {
    const fresh = await statistics();
    expect(fresh.totalUsers).toBe(1);
    expect(fresh.usersTrend[0]).toBe(1);
    expect(fresh.usersChange).toBe(100);
    expect(fresh.totalChannels).toBe(0);
    expect(fresh.channelsTrend).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    expect(fresh.channelsChange).toBe(0);
    expect(fresh.topChannels).toEqual([]);

    await setUserCreatedAt(admin.id, ago(30 * DAY));
    const old = await statistics();
    expect(old.usersTrend).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    expect(old.usersChange).toBe(0);
  });

  it('no longer counts a deleted user', async () => {
    const member = await createMember(app, admin);
    expect((await statistics()).totalUsers).toBe(2);
    expect((await app.call('/user/api/deleteUser', { UserId: member.id }, admin.token)).status).toBe(200);
    const stats = await statistics();
    expect(stats.totalUsers).toBe(1);
    expect(stats.usersTrend[0]).toBe(1);
  });

  it('lists the five channels with the most members, highest first, with connected, total and last activity', async () => {
    const users: number[] = [admin.id];
    for (let i = 0; i < 6; i++) users.push((await createMember(app, admin)).id);
    const sizes: Record<string, number> = { Alpha: 2, Bravo: 7, Charlie: 0, Delta: 4, Echo: 4, Foxtrot: 1, Golf: 3 };
    const ids: Record<string, number> = {};
    for (const [name, size] of Object.entries(sizes)) {
      ids[name] = await seedChannel(name);
      await addMembers(ids[name], users.slice(0, size));
    }
    // Two sockets of one user in Bravo count once; a socket outside any channel counts nowhere.
    await app.services.db
      .insertInto('user_sockets')
      .values([
        {
          user_id: users[1],
          channel_id: ids.Bravo,
          socket_id: 's1',
          instance_id: 'i',
          mic_state: 0,
          created_at: ago(0),
        },
        {
          user_id: users[1],
          channel_id: ids.Bravo,
          socket_id: 's2',
          instance_id: 'i',
          mic_state: 0,
          created_at: ago(0),
        },
        {
          user_id: users[2],
          channel_id: ids.Bravo,
          socket_id: 's3',
          instance_id: 'i',
          mic_state: 0,
          created_at: ago(0),
        },
        {
          user_id: users[3],
          channel_id: ids.Delta,
          socket_id: 's4',
          instance_id: 'i',
          mic_state: 0,
          created_at: ago(0),
        },
        { user_id: users[4], channel_id: null, socket_id: 's5', instance_id: 'i', mic_state: 0, created_at: ago(0) },
      ])
      .execute();
    const bravoLatest = '2025-01-02T03:04:05.000Z';
    await app.services.db
      .insertInto('activities')
      .values([
        { type: 'channel_join', channel_id: ids.Bravo, channel_name: 'Bravo', created_at: '2025-01-01T00:00:00.000Z' },
        { type: 'channel_talk', channel_id: ids.Bravo, channel_name: 'Bravo', created_at: bravoLatest },
        { type: 'channel_join', channel_id: ids.Echo, channel_name: 'Echo', created_at: '2024-12-31T23:59:00.000Z' },
        { type: 'login', user_id: admin.id, created_at: '2025-06-01T00:00:00.000Z' },
      ])
      .execute();

    const { topChannels } = await statistics();
    expect(topChannels.map((c) => c.name)).toEqual(['Bravo', 'Delta', 'Echo', 'Golf', 'Alpha']);
    expect(topChannels[0]).toEqual({
      id: ids.Bravo,
      name: 'Bravo',
      rtcSession: 'Bravo',
      total: 7,
      connected: 2,
      lastActivityAt: bravoLatest,
    });
    expect(topChannels.map((c) => [c.connected, c.total])).toEqual([
      [2, 7],
      [1, 4],
      [0, 4],
      [0, 3],
      [0, 2],
    ]);
    expect(topChannels[2].lastActivityAt).toBe('2024-12-31T23:59:00.000Z');
    expect(topChannels[1].lastActivityAt).toBeNull();
  });
});

describe('percent change', () => {
  it('is the ten-day additions relative to what existed before them', () => {
    expect(percentChange(12, [1, 0, 0, 0, 0, 0, 0, 0, 0, 1])).toBe(20);
    expect(percentChange(4, [1, 0, 0, 0, 0, 0, 0, 0, 0, 0])).toBe(33.3);
    expect(percentChange(3, [3, 0, 0, 0, 0, 0, 0, 0, 0, 0])).toBe(100);
    expect(percentChange(0, [0, 0, 0, 0, 0, 0, 0, 0, 0, 0])).toBe(0);
    expect(percentChange(5, [0, 0, 0, 0, 0, 0, 0, 0, 0, 0])).toBe(0);
  });
});
