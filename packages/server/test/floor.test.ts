/**
 * Floor control (issue 14): one talker per channel, an administrator may always break in, nobody can block
 * the channel; old clients' micStateChange asks and gives back the floor. On one instance, and across two
 * instances sharing Redis (the decision is one atomic script there).
 */
import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChannelSummary } from '../src/channels/store.ts';
import { type Cluster, startCluster } from './cluster-harness.ts';
import { type Account, createMember, databases, signUpAdmin, startApp, type TestApp } from './harness.ts';
import { connect, eventually, listen, type TestClient } from './realtime-harness.ts';

describe.each(databases)('the floor of a channel on %s', (dialect) => {
  let app: TestApp;
  let url: string;
  let admin: Account;
  let alice: Account;
  let bob: Account;
  let channel: ChannelSummary;
  const clients: TestClient[] = [];

  const joined = async (account: Account) => {
    const client = await connect(url, account.token);
    clients.push(client);
    client.socket.emit('join_room', { room: channel.rtcSession });
    await client.next('all_users');
    return client;
  };
  const request = (client: TestClient) => client.emitAck('floor_request', { room: channel.rtcSession });
  const burstsOf = (userId: number) =>
    app.services.db.selectFrom('talk_bursts').selectAll().where('user_id', '=', userId).execute();

  beforeEach(async () => {
    app = await startApp(dialect, { floorMaxMs: 1500 });
    url = await listen(app);
    admin = await signUpAdmin(app);
    alice = await createMember(app, admin, { firstName: 'Alice', lastName: 'Field' });
    bob = await createMember(app, admin, { firstName: 'Bob', lastName: 'Field' });
    channel = await app.services.channels.create('Net');
    // Without a queue (issue 59): a busy floor refuses, as before (floor-queue.test.ts tests the queue).
    channel = (await app.services.channels.setFloorQueue(channel.id, { floorQueue: false })) as ChannelSummary;
    await app.services.memberships.add(channel.id, [alice.id, bob.id]);
  });
  afterEach(async () => {
    for (const client of clients.splice(0)) client.close();
    await app.close();
  });

  it('grants a free floor, tells the room who talks, denies the next member with the holder, and frees on release', async () => {
    const a = await joined(alice);
    const b = await joined(bob);
    expect(await request(a)).toEqual({ granted: true, grantId: expect.any(String) });
    expect(await b.next('floor_taken')).toMatchObject({
      room: channel.rtcSession,
      userId: alice.id,
      name: 'Alice Field',
    });
    expect(await b.next('onMicStateChanged')).toMatchObject({ userId: alice.id, micState: true });
    expect(await request(b)).toEqual({ granted: false, holder: { userId: alice.id, name: 'Alice Field' } });

    a.socket.emit('floor_release', { room: channel.rtcSession });
    expect(await b.next('floor_idle')).toEqual({ room: channel.rtcSession });
    expect(await b.next('onMicStateChanged')).toMatchObject({ userId: alice.id, micState: false });
    expect(await request(b)).toEqual({ granted: true, grantId: expect.any(String) });
    await eventually(async () => (await burstsOf(alice.id)).some((burst) => burst.ended_at !== null), 'burst closed');
  });

  it('shows a new talker at once, even while the last release is still being written', async () => {
    const a = await joined(alice);
    const b = await joined(bob);
    expect(await request(a)).toEqual({ granted: true, grantId: expect.any(String) });
    expect(await b.next('onMicStateChanged')).toMatchObject({ userId: alice.id, micState: true });

    // The release's talk burst takes its time to be closed (a busy disk).
    let written: () => void = () => {};
    const slowDisk = new Promise<void>((resolve) => {
      written = resolve;
    });
    const end = app.services.talkBursts.end;
    app.services.talkBursts.end = async (...args) => {
      await slowDisk;
      return end(...args);
    };
    a.socket.emit('floor_release', { room: channel.rtcSession });
    expect(await b.next('onMicStateChanged')).toMatchObject({ userId: alice.id, micState: false });
    expect(await request(a)).toEqual({ granted: true, grantId: expect.any(String) });
    expect(await b.next('onMicStateChanged')).toMatchObject({ userId: alice.id, micState: true });

    written();
    await eventually(async () => (await burstsOf(alice.id)).length === 2, 'the second burst kept');
    const bursts = await burstsOf(alice.id);
    expect(bursts.filter((burst) => burst.ended_at === null)).toHaveLength(1);
  });

  it('gives exactly one grant to two requests at once', async () => {
    const a = await joined(alice);
    const b = await joined(bob);
    const answers = await Promise.all([request(a), request(b)]);
    expect(answers.filter((answer) => (answer as unknown as { granted: boolean }).granted)).toHaveLength(1);
  });

  it('lets an administrator preempt a member (floor_revoked to the member), never the reverse', async () => {
    const a = await joined(alice);
    const boss = await joined(admin);
    expect(await request(a)).toEqual({ granted: true, grantId: expect.any(String) });
    expect(await request(boss)).toEqual({ granted: true, grantId: expect.any(String) });
    expect(await a.next('floor_revoked')).toEqual({
      room: channel.rtcSession,
      reason: 'preempted',
      by: { userId: admin.id, name: 'Ada Admin' },
    });
    expect(await a.next('floor_taken', (taken) => taken.userId === admin.id)).toMatchObject({
      name: 'Ada Admin',
    });
    expect(await a.next('onMicStateChanged', (change) => change.userId === alice.id && !change.micState)).toMatchObject(
      {
        micState: false,
      },
    );
    expect(await request(a)).toEqual({ granted: false, holder: { userId: admin.id, name: 'Ada Admin' } });
  });

  it('frees the floor at once when its holder disconnects or leaves the room', async () => {
    const a = await joined(alice);
    const b = await joined(bob);
    expect(await request(a)).toEqual({ granted: true, grantId: expect.any(String) });
    a.close();
    expect(await b.next('floor_idle')).toEqual({ room: channel.rtcSession });
    expect(await request(b)).toEqual({ granted: true, grantId: expect.any(String) });
    // Acknowledged: the leave is done before the next request (another socket's events run apart).
    expect(await b.emitAck('leave_room', {})).toEqual({ success: true });
    const c = await joined(alice);
    expect(await request(c)).toEqual({ granted: true, grantId: expect.any(String) });
  });

  it('takes the floor back after the maximum talk time (FLOOR_MAX_SECONDS)', async () => {
    const a = await joined(alice);
    const b = await joined(bob);
    expect(await request(a)).toEqual({ granted: true, grantId: expect.any(String) });
    expect(await a.next('floor_revoked')).toEqual({ room: channel.rtcSession, reason: 'timeout' });
    expect(await b.next('floor_idle')).toEqual({ room: channel.rtcSession });
    expect(await b.next('onMicStateChanged', (change) => change.micState === false)).toMatchObject({
      userId: alice.id,
    });
    expect(await request(b)).toEqual({ granted: true, grantId: expect.any(String) });
  });

  it("treats old clients' micStateChange as a request and a release, and refuses a second talker", async () => {
    const a = await joined(alice);
    const b = await joined(bob);
    expect(await a.emitAck('micStateChange', { id: 7, micState: true, room: channel.rtcSession })).toEqual({
      success: true,
    });
    expect(await b.next('onMicStateChanged')).toMatchObject({ userId: alice.id, micState: true });
    const refused = await b.emitAck('micStateChange', { micState: true });
    expect(refused).toEqual({
      success: false,
      result: 'micStateChange: Alice Field is talking: wait until the channel is free.',
    });
    expect(await a.emitAck('micStateChange', { micState: 'false' })).toEqual({ success: true });
    expect(await b.next('floor_idle')).toEqual({ room: channel.rtcSession });
    expect(await b.emitAck('micStateChange', { micState: true })).toEqual({ success: true });
  });

  it('tells a channel list who talks (watch_channels, getMyChannels) without joining, and only for its own channels', async () => {
    const other = await app.services.channels.create('Elsewhere');
    const list = await connect(url, bob.token);
    clients.push(list);
    expect(await list.emitAck('watch_channels', { channelIds: [channel.id, String(other.id)] })).toEqual({
      success: true,
      channelIds: [channel.id],
    });
    const a = await joined(alice);
    expect(await request(a)).toEqual({ granted: true, grantId: expect.any(String) });
    expect(await list.next('onMicStateChanged')).toMatchObject({
      userId: alice.id,
      name: 'Alice Field',
      micState: true,
      room: channel.rtcSession,
    });
    await eventually(async () => {
      const mine = await app.call('/user/api/getMyChannels', {}, bob.token);
      const net = mine.body.res.find((c: { id: number }) => c.id === channel.id);
      return net.talking.length === 1 && net.talking[0].name === 'Alice Field';
    }, 'getMyChannels names the talker');
    a.socket.emit('floor_release', { room: channel.rtcSession });
    expect(await list.next('onMicStateChanged')).toMatchObject({ userId: alice.id, micState: false });
    expect((await list.emitAck('watch_channels', { channelIds: 'all' })).success).toBe(false);
  });

  it('refuses a request outside a room, with a clear error', async () => {
    const lonely = await connect(url, alice.token);
    clients.push(lonely);
    expect(await lonely.emitAck('floor_request', {})).toEqual({
      success: false,
      result: 'floor_request: join a room first (join_room).',
    });
  });
});

const redisUrl = process.env.TEST_REDIS_URL;

describe.runIf(redisUrl)('the floor across two instances sharing Redis', () => {
  let cluster: Cluster | undefined;
  const clients: TestClient[] = [];
  afterEach(async () => {
    for (const client of clients.splice(0)) client.close();
    await cluster?.close();
  });

  it('gives exactly one grant to requests made at once on both instances, and lets an administrator preempt across them', async () => {
    cluster = await startCluster('sqlite');
    const [one] = cluster.apps;
    const [urlOne, urlTwo] = cluster.urls;
    const admin = await signUpAdmin(one);
    const alice = await createMember(one, admin, { firstName: 'Alice', lastName: 'One' });
    const bob = await createMember(one, admin, { firstName: 'Bob', lastName: 'Two' });
    const channel = await one.services.channels.create(`Net ${randomBytes(4).toString('hex')}`);
    await one.services.channels.setFloorQueue(channel.id, { floorQueue: false });
    await one.services.memberships.add(channel.id, [alice.id, bob.id]);
    const joinedAt = async (url: string, account: Account) => {
      const client = await connect(url, account.token);
      clients.push(client);
      client.socket.emit('join_room', { room: channel.rtcSession });
      await client.next('all_users');
      return client;
    };
    const a = await joinedAt(urlOne, alice);
    const b = await joinedAt(urlTwo, bob);
    const request = (client: TestClient) => client.emitAck('floor_request', { room: channel.rtcSession });

    for (let round = 0; round < 5; round += 1) {
      const answers = (await Promise.all([request(a), request(b)])) as unknown as Array<{ granted: boolean }>;
      expect(answers.filter((answer) => answer.granted)).toHaveLength(1);
      const holder = answers[0].granted ? a : b;
      const other = holder === a ? b : a;
      holder.socket.emit('floor_release', { room: channel.rtcSession });
      await other.next('floor_idle');
    }

    expect(await request(a)).toEqual({ granted: true, grantId: expect.any(String) });
    const boss = await joinedAt(urlTwo, admin);
    expect(await request(boss)).toEqual({ granted: true, grantId: expect.any(String) });
    expect(await a.next('floor_revoked')).toMatchObject({ room: channel.rtcSession, reason: 'preempted' });
    expect(await request(b)).toMatchObject({ granted: false, holder: { userId: admin.id } });
  });
});
