/**
 * The users and channels stores read O(rows asked) at any size: no cliff where a long id list (over 500) drops
 * its filter and reads every user's memberships, sockets, positions and activities. A Kysely plugin counts the
 * rows each call reads from the real database; the counts must be exactly those of the rows asked.
 */
import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channelStore } from '../src/channels/store.ts';
import type { OpenedDatabase } from '../src/db/open.ts';
import type { Db } from '../src/db/schema.ts';
import { userStore } from '../src/users/store.ts';
import { databases, testStorage } from './harness.ts';

function rowCounter() {
  const counter = { rows: 0, queries: 0 };
  const plugin: KyselyPlugin = {
    transformQuery: (args: PluginTransformQueryArgs) => args.node,
    async transformResult(args: PluginTransformResultArgs) {
      counter.rows += args.result.rows.length;
      counter.queries += 1;
      return args.result;
    },
  };
  return { counter, plugin };
}

async function insertAll<T>(rows: T[], insert: (slice: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += 400) await insert(rows.slice(i, i + 400));
}

const USERS = 1_200;
const ASKED = 501;
const CHANNELS = 520;

describe.each(databases)('stores read only the rows asked on %s', (dialect) => {
  const storage = testStorage(dialect);
  let database: OpenedDatabase;
  let db: Db;
  let userIds: number[];
  let channelIds: number[];
  const at = new Date('2026-01-01T00:00:00Z').toISOString();

  beforeAll(async () => {
    database = await storage.open();
    db = database.db;
    const users = Array.from({ length: USERS }, (_, i) => ({
      first_name: `F${String(i).padStart(5, '0')}`,
      last_name: 'L',
      identifier: `u${i}@example.org`,
      pseudo: '',
      display_name: `F${i} L`,
      phone_number: '',
      password_hash: 'x',
      map_right: 0,
      role: 'member' as const,
      photo_url: null,
      created_at: at,
    }));
    await insertAll(users, (slice) => db.insertInto('users').values(slice).execute());
    userIds = (await db.selectFrom('users').select('id').orderBy('id').execute()).map((r) => r.id);
    const channels = Array.from({ length: CHANNELS }, (_, i) => ({
      name: `C${i}`,
      rtc_session: `C${i}`,
      created_at: at,
    }));
    await insertAll(channels, (slice) => db.insertInto('channels').values(slice).execute());
    channelIds = (await db.selectFrom('channels').select('id').orderBy('id').execute()).map((r) => r.id);
    const [big, other] = channelIds as [number, number];

    // Channel 0 has the first 501 users, channel 1 the other 699. User 0 is also in channels 2..500 (501 in
    // all); channels 502..519 have 40 other users each.
    const members: Array<{ channel_id: number; user_id: number; created_at: string }> = [];
    const member = (channelId: number | undefined, userId: number | undefined) =>
      members.push({ channel_id: channelId as number, user_id: userId as number, created_at: at });
    for (const [i, userId] of userIds.entries()) member(i < ASKED ? big : other, userId);
    for (const channelId of channelIds.slice(2, ASKED + 1)) member(channelId, userIds[0]);
    for (const [c, channelId] of channelIds.slice(ASKED + 1).entries())
      for (let k = 0; k < 40; k++) member(channelId, userIds[ASKED + c * 30 + k]);
    await insertAll(members, (slice) => db.insertInto('channel_members').values(slice).execute());

    // Every user: one socket (in its channel), one position, one activity; every channel: one activity.
    await insertAll(
      userIds.map((userId, i) => ({
        user_id: userId,
        channel_id: i < ASKED ? big : other,
        socket_id: `s${i}`,
        instance_id: 'test',
        mic_state: 0,
        created_at: at,
      })),
      (slice) => db.insertInto('user_sockets').values(slice).execute(),
    );
    await insertAll(
      userIds.map((userId) => ({ user_id: userId, lat: 48.8, lng: 2.3, accuracy: 5, created_at: at })),
      (slice) => db.insertInto('user_positions').values(slice).execute(),
    );
    await insertAll(
      [
        ...userIds.map((userId) => ({ type: 'login', user_id: userId, channel_id: null, created_at: at })),
        ...channelIds.map((channelId) => ({ type: 'join', user_id: null, channel_id: channelId, created_at: at })),
      ],
      (slice) => db.insertInto('activities').values(slice).execute(),
    );
  }, 120_000);

  afterAll(async () => {
    await storage.remove();
  });

  it('getUsersInChannel with 501 members reads those members’ rows only', async () => {
    const { counter, plugin } = rowCounter();
    const users = userStore(db.withPlugin(plugin));
    const members = await users.inChannel(channelIds[0] as number);
    expect(members).toHaveLength(ASKED);
    // Users, then per user: its memberships (user 0: 501 channels, the others: 1), its socket, latest position
    // and latest activity.
    const memberships = ASKED - 1 + ASKED;
    expect(counter.rows).toBe(ASKED + memberships + ASKED + ASKED + ASKED);
    const first = members.find((u) => u.id === userIds[0]);
    expect(first?.channels).toHaveLength(ASKED);
    const last = members.find((u) => u.id === userIds[ASKED - 1]);
    expect(last?.channels.map((c) => c.id)).toEqual([channelIds[0]]);
    expect(last?.user_sockets).toHaveLength(1);
    expect(last?.userPositions).toHaveLength(1);
    expect(last?.userActivities).toHaveLength(1);
  });

  it('a user’s 501 channels read those channels’ rows only', async () => {
    const { counter, plugin } = rowCounter();
    const channels = channelStore(db.withPlugin(plugin));
    const mine = await channels.ofUser(userIds[0] as number);
    expect(mine).toHaveLength(ASKED);
    // Channels, their members (channel 0: 501; the others: user 0 alone), the connected count of channel 0
    // (one group row) and each channel's latest activity.
    expect(counter.rows).toBe(ASKED + (ASKED + ASKED - 1) + 1 + ASKED);
    const big = mine.find((c) => c.id === channelIds[0]);
    expect(big?.users).toHaveLength(ASKED);
    expect(big?.connected).toBe(ASKED);
    expect(mine.every((c) => c.userActivities.length === 1)).toBe(true);
  });

  it('the whole lists read each table once', async () => {
    const { counter, plugin } = rowCounter();
    const all = await userStore(db.withPlugin(plugin)).all();
    expect(all).toHaveLength(USERS);
    expect(counter.queries).toBe(5);
    const everyChannel = await channelStore(db.withPlugin(plugin)).all();
    expect(everyChannel).toHaveLength(CHANNELS);
    expect(counter.queries).toBe(9);
  });
});
