/**
 * The whole lists (getAllUsers, getAllChannels) keep the protocol's answer field for field, carry an ETag
 * (304 while unchanged) and are compressed when asked.
 */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { GetAllChannels, GetAllUsers, type User } from '@talkgroup/protocol';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { channelStore } from '../src/channels/store.ts';
import { chooseEncoding } from '../src/http/lists.ts';
import { userStore } from '../src/users/store.ts';
import {
  type Account,
  buildTestApp,
  createMember,
  databases,
  signUpAdmin,
  startApp,
  type TestApp,
  testStorage,
} from './harness.ts';

describe('choosing an encoding', () => {
  it('gzip when accepted (q=0 refuses it), else the plain list', () => {
    expect(chooseEncoding('gzip, deflate, br, zstd')).toBe('gzip');
    expect(chooseEncoding('gzip')).toBe('gzip');
    expect(chooseEncoding('br;q=1, gzip;q=0.5')).toBe('gzip');
    expect(chooseEncoding('gzip;q=0, br')).toBe('identity');
    expect(chooseEncoding('*')).toBe('gzip');
    expect(chooseEncoding(undefined)).toBe('identity');
    expect(chooseEncoding('identity')).toBe('identity');
  });
});

describe.each(databases)('whole lists on %s', (dialect) => {
  let app: TestApp;
  let admin: Account;
  let member: Account;

  beforeEach(async () => {
    app = await startApp(dialect);
    admin = await signUpAdmin(app);
    member = await createMember(app, admin, { firstName: 'Mia' });
    const red = await app.services.channels.create('Red Team');
    await app.services.memberships.add(red.id, [admin.id, member.id]);
    await app.services.positions.add(member.id, { lat: 48.85, lng: 2.35, accuracy: 10 });
  });
  afterEach(async () => {
    await app.close();
  });

  const post = (url: string, headers: Record<string, string> = {}, token = admin.token) =>
    app.fastify.inject({ method: 'POST', url, headers: { 'x-access-token': token, ...headers }, payload: {} });

  for (const [url, call] of [
    ['/user/api/getAllUsers', GetAllUsers],
    ['/user/api/getAllChannels', GetAllChannels],
  ] as const) {
    it(`${url}: the protocol's fields and no more, an ETag and a 304 while unchanged`, async () => {
      const first = await post(url);
      expect(first.statusCode).toBe(200);
      expect(first.headers['content-type']).toMatch(/^application\/json/);
      const body = first.json();
      expect(body.success).toBe(true);
      expect(body.res.length).toBeGreaterThan(0);
      // What the schema would let out is exactly what is sent.
      expect(JSON.parse(JSON.stringify(call.response.parse(body)))).toEqual(body);

      const etag = first.headers.etag as string;
      expect(etag).toMatch(/^"[\w-]+"$/);
      const again = await post(url, { 'if-none-match': etag });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');

      await createMember(app, admin, { firstName: 'Noah' });
      await app.services.channels.create('Blue Team');
      const changed = await post(url, { 'if-none-match': etag });
      expect(changed.statusCode).toBe(200);
      expect(changed.headers.etag).not.toBe(etag);
    });

    it(`${url}: gzip when asked (Brotli too), the same JSON once decoded`, async () => {
      const plain = await post(url);
      const gz = await post(url, { 'accept-encoding': 'gzip, deflate, br, zstd' });
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(JSON.parse(gunzipSync(gz.rawPayload).toString())).toEqual(plain.json());
      expect(Number(gz.headers['content-length'])).toBe(gz.rawPayload.length);
      // Brotli alone: the global compression's.
      const br = await post(url, { 'accept-encoding': 'br' });
      expect(br.headers['content-encoding']).toBe('br');
      expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(plain.json());
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(Number(plain.headers['content-length'])).toBe(plain.rawPayload.length);
      expect(gz.headers.vary).toMatch(/accept-encoding/i);
    });

    it(`${url}: built again only when something it shows changed, whoever wrote it`, async () => {
      const build = vi.spyOn(url.endsWith('Users') ? app.services.users : app.services.channels, 'all');
      const first = await post(url);
      const second = await post(url);
      expect(build).toHaveBeenCalledTimes(1);
      expect(second.headers.etag).toBe(first.headers.etag);
      // A socket row written straight into the table (another instance's presence, say) is seen.
      const channel = await app.services.channels.create('Green Team');
      await app.services.memberships.add(channel.id, [member.id]);
      const before = await post(url);
      await app.services.db
        .insertInto('user_sockets')
        .values({
          user_id: member.id,
          channel_id: channel.id,
          socket_id: 'elsewhere',
          instance_id: 'another',
          mic_state: 0,
          created_at: new Date().toISOString(),
        })
        .execute();
      const after = await post(url);
      expect(after.headers.etag).not.toBe(before.headers.etag);
      const text = after.body;
      expect(text).toContain(url.endsWith('Users') ? '"socket_id":"elsewhere"' : '"connected":1');
      build.mockRestore();
    });

    it(`${url}: still for administrators only`, async () => {
      expect((await post(url, {}, member.token)).statusCode).toBe(403);
      expect((await post(url, {}, '')).statusCode).toBe(401);
    });
  }
});

/**
 * The lists are built from scratch once, then entry by entry from the change log (migration 0008): after any
 * mix of changes, by this instance or another, the answer must be the very bytes a fresh build gives.
 */
describe.each(databases)('whole lists kept up to date entry by entry on %s', (dialect) => {
  let storage: ReturnType<typeof testStorage>;
  let app: TestApp;
  let other: TestApp;
  let admin: Account;

  beforeEach(async () => {
    storage = testStorage(dialect);
    app = await buildTestApp(storage);
    // Another instance on the same database: its writes reach the first one's lists through the log.
    other = await buildTestApp(storage);
    admin = await signUpAdmin(app);
  });
  afterEach(async () => {
    await app.fastify.close();
    await other.fastify.close();
    await storage.remove();
  });

  const plain = async (url: string) => {
    const answer = await app.fastify.inject({
      method: 'POST',
      url,
      headers: { 'x-access-token': admin.token, 'accept-encoding': 'identity' },
      payload: {},
    });
    expect(answer.statusCode).toBe(200);
    return answer;
  };
  /** Both lists as this instance sends them, and as a fresh build (stores of their own, no cache) gives them. */
  const expectFresh = async (step: string) => {
    const users = await plain('/user/api/getAllUsers');
    const channels = await plain('/user/api/getAllChannels');
    const fresh = {
      users: JSON.stringify({ success: true, res: await userStore(app.services.db).all() }),
      channels: JSON.stringify({ success: true, res: await channelStore(app.services.db).all() }),
    };
    expect(users.body, step).toBe(fresh.users);
    expect(channels.body, step).toBe(fresh.channels);
    // The compressed answers carry the same bytes.
    for (const [url, text] of [
      ['/user/api/getAllUsers', fresh.users],
      ['/user/api/getAllChannels', fresh.channels],
    ] as const) {
      const gzip = await app.fastify.inject({
        method: 'POST',
        url,
        headers: { 'x-access-token': admin.token, 'accept-encoding': 'gzip' },
        payload: {},
      });
      expect(gunzipSync(gzip.rawPayload).toString(), step).toBe(text);
    }
    return { users, channels };
  };

  it('after each of a mix of changes, and after all of them at once, the answer is a fresh build', async () => {
    const usersBuilt = vi.spyOn(app.services.users, 'all');
    const channelsBuilt = vi.spyOn(app.services.channels, 'all');
    const { services } = app;
    const red = await services.channels.create('Red Team');
    const blue = await services.channels.create('Blue Team');
    const members: Account[] = [];
    for (let i = 0; i < 6; i++) members.push(await createMember(app, admin, { firstName: `Member${i}` }));
    const [mia, noah, olga, paul, quinn, rita] = members as [Account, Account, Account, Account, Account, Account];
    await services.memberships.add(red.id, [admin.id, mia.id, noah.id, olga.id]);
    await services.memberships.add(blue.id, [noah.id, paul.id]);
    const first = await expectFresh('first build');

    // Each change alone, written by one instance or the other.
    const socket1 = { socketId: 'socket-1', userId: olga.id, instanceId: 'elsewhere' };
    const steps: Array<[string, () => Promise<unknown>]> = [
      ['a new activity', () => other.services.activities.record('channel_talk', { userId: mia.id, channelId: red.id })],
      ['a position', () => services.positions.add(noah.id, { lat: 45.76, lng: 4.83, accuracy: 8 })],
      ['a socket connects', () => other.services.presence.add(socket1)],
      ['it joins a channel', () => other.services.presence.join(socket1, red.id, 'talk')],
      ['its microphone (shown nowhere)', () => other.services.presence.setMicState(olga.id, red.id, true)],
      ['it disconnects', () => other.services.presence.remove('socket-1')],
      ['a membership added', () => services.memberships.add(blue.id, [quinn.id])],
      ['a membership removed', () => services.memberships.remove(red.id, noah.id)],
      ['a channel renamed', () => other.services.channels.rename(red.id, 'Red Squad')],
      ['floor control off', () => services.channels.setFloorControl(blue.id, false)],
      ['its queue off', () => other.services.channels.setFloorQueue(blue.id, { floorQueue: false })],
      ['its pre-emption by queue', () => services.channels.setFloorQueue(blue.id, { preemption: 'queue' })],
      ['its video to every member', () => other.services.channels.setVideoAudience(blue.id, 'channel')],
      ['a user updated', () => services.users.update(paul.id, { firstName: 'Aaron', pseudo: 'aa', mapRight: true })],
      ['a password changed (shown nowhere)', () => services.users.update(paul.id, { password: 'another-pw' })],
      ['a user deleted', () => other.services.users.remove(quinn.id)],
      ['a user created', () => createMember(app, admin, { firstName: 'Zoe' })],
      ['a channel created', () => services.channels.create('Green Team')],
      ['the latest activities deleted', () => other.services.activities.deleteOlderThan(new Date(Date.now() + 60_000))],
    ];
    let previous = first;
    for (const [step, change] of steps) {
      await change();
      const now = await expectFresh(step);
      if (step.includes('shown nowhere')) expect(now.users.headers.etag, step).toBe(previous.users.headers.etag);
      previous = now;
    }

    // All at once between two answers, by both instances.
    const green = (await services.channels.byNameOrRoom('Green Team')) as { id: number };
    await services.memberships.add(green.id, [rita.id, mia.id, admin.id]);
    await other.services.activities.record('message_send', { userId: rita.id, channelId: green.id });
    await services.positions.add(rita.id, { lat: 1, lng: 2 });
    const socket2 = { socketId: 'socket-2', userId: mia.id, instanceId: 'elsewhere' };
    await other.services.presence.add(socket2);
    await other.services.presence.join(socket2, green.id, 'talk');
    await services.memberships.remove(blue.id, paul.id);
    await other.services.channels.rename(green.id, 'Green Squad');
    await services.users.update(olga.id, { lastName: 'Zed' });
    await services.users.remove(olga.id);
    await createMember(app, admin, { firstName: 'Yann' });
    await other.services.channels.remove(blue.id);
    await services.activities.record('channel_join', { userId: admin.id, channelId: green.id });
    await expectFresh('all at once');

    // Built from scratch once each: every later answer came from the entries that changed.
    expect(usersBuilt).toHaveBeenCalledTimes(1);
    expect(channelsBuilt).toHaveBeenCalledTimes(1);
  });

  it('many users at once: an import, then everyone in a renamed channel', async () => {
    const team = await app.services.channels.create('Everyone');
    await expectFresh('empty');
    const at = new Date().toISOString();
    const rows = Array.from({ length: 700 }, (_, i) => ({
      first_name: `Imported${i}`,
      last_name: 'Member',
      identifier: `imported${i}@example.org`,
      pseudo: '',
      display_name: `Imported${i} Member`,
      phone_number: '',
      password_hash: 'x',
      map_right: 0,
      role: 'member' as const,
      // Some share a creation time: the id decides their order.
      created_at: i % 3 === 0 ? at : new Date(Date.now() - i * 1000).toISOString(),
    }));
    const ids: number[] = [];
    for (let i = 0; i < rows.length; i += 200)
      ids.push(
        ...(
          await other.services.db
            .insertInto('users')
            .values(rows.slice(i, i + 200))
            .returning('id')
            .execute()
        ).map((r) => r.id),
      );
    await expectFresh('700 users imported');
    await app.services.memberships.add(team.id, ids);
    await expectFresh('all in one channel');
    await other.services.channels.rename(team.id, 'Everybody');
    await expectFresh('that channel renamed');
    for (const id of ids.filter((_, i) => i % 7 === 0)) await app.services.users.remove(id);
    await expectFresh('a seventh deleted');
  });

  it.runIf(dialect === 'postgres')(
    'a change committed after a later one is still seen (transaction ids commit out of order)',
    async () => {
      const mia = await createMember(app, admin, { firstName: 'Mia' });
      const noah = await createMember(app, admin, { firstName: 'Noah' });
      await expectFresh('before');
      let commit = () => {};
      const held = new Promise<void>((resolve) => {
        commit = resolve;
      });
      let written = () => {};
      const writtenYet = new Promise<void>((resolve) => {
        written = resolve;
      });
      // Mia's activity gets its transaction id first (a first write elsewhere), then commits last. (Its
      // activity is written last of all: activity_count's row lock, migration 0002, lets one writer at a time.)
      const slow = app.services.database.db.transaction().execute(async (trx) => {
        await trx
          .insertInto('material_types')
          .values({ name: 'radio', created_at: new Date().toISOString() })
          .execute();
        written();
        await held;
        await trx
          .insertInto('activities')
          .values({ type: 'position_get', user_id: mia.id, created_at: new Date().toISOString() })
          .execute();
      });
      await writtenYet;
      await other.services.activities.record('position_update', { userId: noah.id });
      const meanwhile = (await plain('/user/api/getAllUsers')).json().res as User[];
      const latest = (id: number) => meanwhile.find((user) => user.id === id)?.userActivities[0]?.type;
      expect(latest(noah.id)).toBe('position_update');
      expect(latest(mia.id)).not.toBe('position_get');
      commit();
      await slow;
      await expectFresh('after the slow commit');
    },
  );
});
