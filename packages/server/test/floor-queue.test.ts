/**
 * The floor queue and talk-priority pre-emption (issue 59): a press on a busy floor waits in the channel's
 * queue by priority then time, with its place pushed as it changes; the freed floor is offered to the first,
 * whose press confirms it, or it passes on; cancel, a dispatcher's removal, expiry and leaving end a wait; a
 * higher priority interrupts (`preemption: 'interrupt'`) or goes first (`'queue'`); `floorQueue: false` refuses
 * as before. On one instance (SQLite, PostgreSQL), and across two instances sharing Redis: one offer.
 */
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { Config } from '../src/config/config.ts';
import { type Cluster, startCluster } from './cluster-harness.ts';
import { type Account, databases } from './harness.ts';
import { connect, type TestClient } from './realtime-harness.ts';
import { cast, world } from './world.ts';

const redisUrl = process.env.TEST_REDIS_URL;

describe.each(databases)('the floor queue on %s', (dialect) => {
  const w = world(dialect, {
    setUpInTest: true,
    people: {
      desk: { role: 'dispatcher', firstName: 'Dana', lastName: 'Desk' },
      alice: { role: 'member', firstName: 'Alice', lastName: 'Field' },
      bob: { role: 'member', firstName: 'Bob', lastName: 'Field' },
      carol: { role: 'member', firstName: 'Carol', lastName: 'Field' },
    },
  });
  const setUp = (floorQueue: Config['floorQueue'] = { queueMs: 30_000, acceptMs: 3000 }) => w.setUp({ floorQueue });

  /** A channel made over HTTP with these settings, every account of the world a member. */
  async function channel(settings: Record<string, unknown> = {}): Promise<string> {
    const made = await w.app.call(
      '/user/api/createChannel',
      { channelName: `Net ${randomBytes(3).toString('hex')}`, ...settings },
      w.admin.token,
    );
    expect(made.status).toBe(200);
    await w.app.services.memberships.add(made.body.res.id, [w.desk.id, w.alice.id, w.bob.id, w.carol.id]);
    return made.body.res.rtcSession;
  }

  const press = (client: TestClient, room: string): Promise<any> => client.emitAck('floor_request', { room });
  const names = (queue: Array<{ name: string }>) => queue.map((entry) => entry.name);

  it('takes floorQueue and preemption on createChannel and updateChannel, lists them, and refuses a bad one', async () => {
    await setUp();
    const made = await w.app.call(
      '/user/api/createChannel',
      { channelName: 'Settings', floorQueue: false, preemption: 'queue' },
      w.admin.token,
    );
    expect(made.body.res).toMatchObject({ floorQueue: false, preemption: 'queue' });
    const plain = await w.app.call('/user/api/createChannel', { channelName: 'Plain' }, w.admin.token);
    expect(plain.body.res).toMatchObject({ floorQueue: true, preemption: 'interrupt' });
    const listed = await w.app.call('/user/api/getAllChannels', {}, w.admin.token);
    expect(listed.body.res.find((c: { id: number }) => c.id === made.body.res.id)).toMatchObject({
      floorQueue: false,
      preemption: 'queue',
    });
    const update = (fields: Record<string, unknown>) =>
      w.app.call(
        '/user/api/updateChannel',
        { channelId: made.body.res.id, channelName: 'Settings', ...fields },
        w.admin.token,
      );
    expect((await update({ preemption: 'sometimes' })).status).toBe(400);
    expect((await update({ floorQueue: 'yes' })).status).toBe(400);
    const updated = await update({ floorQueue: true });
    expect(updated.status).toBe(200);
    expect(updated.body.res).toMatchObject({ floorQueue: true, preemption: 'queue' });
    expect((await update({ preemption: 'interrupt' })).body.res).toMatchObject({
      floorQueue: true,
      preemption: 'interrupt',
    });
  });

  it('queues by priority then time, pushes each place as it changes, and an offer confirmed by a press takes the floor', async () => {
    await setUp();
    const room = await channel({ preemption: 'queue' });
    const a = await w.joined(w.alice, room);
    const b = await w.joined(w.bob, room);
    const c = await w.joined(w.carol, room);
    const d = await w.joined(w.desk, room);
    expect(await press(a, room)).toEqual({ granted: true, grantId: expect.any(String) });

    expect(await press(b, room)).toEqual({
      granted: false,
      queued: true,
      position: 1,
      holder: { userId: w.alice.id, name: 'Alice Field' },
    });
    expect(names((await a.next('floor_queue')).queue)).toEqual(['Bob Field']);
    expect(await press(c, room)).toMatchObject({ queued: true, position: 2 });
    const two = await a.next('floor_queue');
    expect(two).toEqual({
      room,
      queue: [
        { userId: w.bob.id, name: 'Bob Field', priority: 3, since: expect.any(String) },
        { userId: w.carol.id, name: 'Carol Field', priority: 3, since: expect.any(String) },
      ],
    });
    // The dispatcher's higher priority goes first, without cutting Alice off (preemption: queue).
    expect(await press(d, room)).toMatchObject({ queued: true, position: 1 });
    expect(await b.next('floor_queue_position')).toEqual({ room, position: 2 });
    expect(await c.next('floor_queue_position')).toEqual({ room, position: 3 });
    const three = await c.next('floor_queue', (p) => p.queue.length === 3);
    expect(three.queue.map((e: { priority: number }) => e.priority)).toEqual([6, 3, 3]);
    await a.flush();
    expect(a.all('floor_revoked')).toEqual([]);

    // Releasing the button does not leave the queue; floor_cancel does.
    b.socket.emit('floor_release', { room });
    expect(await b.emitAck('floor_cancel', { room })).toEqual({ success: true });
    expect(await c.next('floor_queue_position')).toEqual({ room, position: 2 });
    expect(names((await a.next('floor_queue', (p) => p.queue.length === 2)).queue)).toEqual([
      'Dana Desk',
      'Carol Field',
    ]);
    expect(await b.emitAck('floor_cancel', { room })).toMatchObject({ success: false });

    // The floor frees: the first is offered it, and its press within acceptMs takes it with the offer's grant.
    a.socket.emit('floor_release', { room });
    const offer = await d.next('floor_granted');
    expect(offer).toEqual({
      room,
      reason: 'queue',
      grantId: expect.any(String),
      acceptMs: 3000,
      until: expect.any(String),
    });
    // Issue 70: the offer names its deadline (the page counts it down), acceptMs from when it was made.
    const left = Date.parse(offer.until) - Date.now();
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThanOrEqual(3000);
    expect(await c.next('floor_queue_position')).toEqual({ room, position: 1 });
    expect(await press(d, room)).toEqual({ granted: true, grantId: offer.grantId });
    expect(await a.next('floor_taken', (t) => t.userId === w.desk.id)).toMatchObject({ name: 'Dana Desk' });
    expect(await b.next('onMicStateChanged', (m) => m.userId === w.desk.id)).toMatchObject({ micState: true });
    // Carol still waits, behind the dispatcher who talks now.
    expect(await press(c, room)).toMatchObject({ queued: true, position: 1, holder: { userId: w.desk.id } });
    // An administrator's console removes her from outside the room.
    const boss = await w.open(w.admin);
    expect(await boss.emitAck('floor_queue_remove', { room, userId: w.carol.id })).toEqual({ success: true });
    expect(await c.next('floor_queue_position')).toEqual({ room, position: 0 });
    expect(await a.next('floor_queue', (p) => p.queue.length === 0)).toEqual({ room, queue: [] });
  });

  it('tells a page that joins who talks and who waits, as the room learnt it', async () => {
    await setUp();
    const room = await channel();
    const a = await w.joined(w.alice, room);
    const b = await w.joined(w.bob, room);
    const c = await w.joined(w.carol, room);
    expect(await press(a, room)).toMatchObject({ granted: true });
    expect(await press(b, room)).toMatchObject({ queued: true, position: 1 });
    expect(await press(c, room)).toMatchObject({ queued: true, position: 2 });
    const late = await w.joined(w.desk, room);
    expect(await late.next('onMicStateChanged')).toEqual({
      id: a.socket.id,
      userId: w.alice.id,
      name: 'Alice Field',
      micState: true,
      room,
    });
    expect(names((await late.next('floor_queue')).queue)).toEqual(['Bob Field', 'Carol Field']);
    // Where nobody talks and nobody waits, a page that joins is told nothing (told after its join's answer: a
    // round trip after that answer, it would have come).
    const other = await channel();
    const quiet = await w.open(w.admin);
    expect(await quiet.emitAck('join_room', { room: other, mode: 'talk' })).toMatchObject({ success: true });
    await quiet.emitAck('floor_cancel', { room: other });
    expect(quiet.received.filter((r) => ['floor_queue', 'onMicStateChanged'].includes(r.event))).toEqual([]);
  });

  it('passes an offer that is not taken on to the next, with not_taken', async () => {
    await setUp({ queueMs: 30_000, acceptMs: 1000 });
    const room = await channel();
    const a = await w.joined(w.alice, room);
    const b = await w.joined(w.bob, room);
    const c = await w.joined(w.carol, room);
    expect(await press(a, room)).toMatchObject({ granted: true });
    expect(await press(b, room)).toMatchObject({ queued: true, position: 1 });
    expect(await press(c, room)).toMatchObject({ queued: true, position: 2 });
    a.socket.emit('floor_release', { room });
    expect(await b.next('floor_granted')).toMatchObject({ reason: 'queue', acceptMs: 1000 });
    expect(await c.next('floor_queue_position')).toEqual({ room, position: 1 });
    // Bob does not press: his offer runs out, and Carol is offered the floor.
    expect(await b.next('floor_revoked')).toEqual({ room, reason: 'not_taken' });
    const offer = await c.next('floor_granted');
    expect(offer).toMatchObject({ room, reason: 'queue' });
    expect(await press(c, room)).toEqual({ granted: true, grantId: offer.grantId });
    expect(await a.next('floor_taken', (t) => t.userId === w.carol.id)).toMatchObject({ name: 'Carol Field' });
    // Bob's late press finds Carol talking: he queues again.
    expect(await press(b, room)).toMatchObject({ queued: true, position: 1 });
  });

  it("removes by a dispatcher (a member's removal is ignored), by leaving the channel, and by expiry", async () => {
    await setUp({ queueMs: 6000, acceptMs: 3000 });
    const room = await channel();
    const a = await w.joined(w.alice, room);
    const d = await w.joined(w.desk, room);
    const b = await w.joined(w.bob, room);
    const c = await w.joined(w.carol, room);
    expect(await press(a, room)).toMatchObject({ granted: true });
    expect(await press(b, room)).toMatchObject({ queued: true, position: 1 });
    expect(await press(c, room)).toMatchObject({ queued: true, position: 2 });

    expect(await b.emitAck('floor_queue_remove', { room, userId: w.carol.id })).toMatchObject({ success: false });
    expect(await d.emitAck('floor_queue_remove', { room, userId: 'x' })).toMatchObject({ success: false });
    await c.flush();
    expect(c.all('floor_queue_position')).toEqual([]);
    expect(await d.emitAck('floor_queue_remove', { room, userId: w.carol.id })).toEqual({ success: true });
    expect(await c.next('floor_queue_position')).toEqual({ room, position: 0 });
    expect(names((await d.next('floor_queue', (p) => p.queue.length === 1)).queue)).toEqual(['Bob Field']);

    // Carol queues again and leaves the channel: she leaves the queue.
    expect(await press(c, room)).toMatchObject({ queued: true, position: 2 });
    await c.emitAck('leave_room', { room });
    expect(names((await d.next('floor_queue', (p) => p.queue.length === 1)).queue)).toEqual(['Bob Field']);

    // Bob waits past FLOOR_QUEUE_SECONDS: he leaves the queue, and nobody is offered the floor.
    expect(await b.next('floor_queue_position')).toEqual({ room, position: 0 });
    expect(await d.next('floor_queue', (p) => p.queue.length === 0)).toEqual({ room, queue: [] });
    a.socket.emit('floor_release', { room });
    await d.next('floor_idle');
    await b.flush();
    expect(b.all('floor_granted')).toEqual([]);
  });

  it('lets a higher priority interrupt, naming who, and never an equal one', async () => {
    await setUp();
    const room = await channel();
    const a = await w.joined(w.alice, room);
    const b = await w.joined(w.bob, room);
    const d = await w.joined(w.desk, room);
    expect(await press(a, room)).toMatchObject({ granted: true });
    expect(await press(b, room)).toMatchObject({ queued: true, position: 1 });
    await a.flush();
    expect(a.all('floor_revoked')).toEqual([]);
    expect(await press(d, room)).toEqual({ granted: true, grantId: expect.any(String) });
    expect(await a.next('floor_revoked')).toEqual({
      room,
      reason: 'preempted',
      by: { userId: w.desk.id, name: 'Dana Desk' },
    });
    expect(await a.next('floor_taken', (t) => t.userId === w.desk.id)).toMatchObject({ name: 'Dana Desk' });
    // Bob still waits for the floor, behind the dispatcher now.
    await b.flush();
    expect(b.all('floor_granted')).toEqual([]);
    d.socket.emit('floor_release', { room });
    expect(await b.next('floor_granted')).toMatchObject({ reason: 'queue' });
  });

  it("orders by a user's own talk priority, above its role's", async () => {
    await setUp();
    // Carol, a member, talks with priority 5 (set by an administrator): above members, below the dispatcher.
    await w.app.services.db.updateTable('users').set({ talk_priority: 5 }).where('id', '=', w.carol.id).execute();
    const room = await channel({ preemption: 'queue' });
    const a = await w.joined(w.alice, room);
    const b = await w.joined(w.bob, room);
    const c = await w.joined(w.carol, room);
    const d = await w.joined(w.desk, room);
    expect(await press(a, room)).toMatchObject({ granted: true });
    expect(await press(b, room)).toMatchObject({ queued: true, position: 1 });
    expect(await press(c, room)).toMatchObject({ queued: true, position: 1 });
    expect(await b.next('floor_queue_position')).toEqual({ room, position: 2 });
    expect(await press(d, room)).toMatchObject({ queued: true, position: 1 });
    const queue = (await a.next('floor_queue', (p) => p.queue.length === 3)).queue;
    expect(queue.map((e: { name: string; priority: number }) => [e.name, e.priority])).toEqual([
      ['Dana Desk', 6],
      ['Carol Field', 5],
      ['Bob Field', 3],
    ]);
  });

  it('refuses a busy floor as before on a channel without a queue', async () => {
    await setUp();
    const room = await channel({ floorQueue: false });
    const a = await w.joined(w.alice, room);
    const b = await w.joined(w.bob, room);
    expect(await press(a, room)).toMatchObject({ granted: true });
    expect(await press(b, room)).toEqual({ granted: false, holder: { userId: w.alice.id, name: 'Alice Field' } });
    a.socket.emit('floor_release', { room });
    await b.next('floor_idle');
    await b.flush();
    expect(b.all('floor_queue')).toEqual([]);
    expect(b.all('floor_granted')).toEqual([]);
    expect(await b.emitAck('floor_cancel', { room })).toMatchObject({ success: false });
  });
});

describe.runIf(redisUrl)('the floor queue across two instances sharing Redis', () => {
  let cluster: Cluster | undefined;
  const clients: TestClient[] = [];
  afterEach(async () => {
    for (const client of clients.splice(0)) client.close();
    await cluster?.close();
    cluster = undefined;
  });

  it('offers the freed floor once, passes it on once, and keeps one queue for both', async () => {
    cluster = await startCluster('sqlite', { overrides: { floorQueue: { queueMs: 30_000, acceptMs: 1200 } } });
    const [one] = cluster.apps;
    const [urlOne, urlTwo] = cluster.urls;
    const { alice, bob, carol, channel } = await cast(one, {
      people: {
        alice: { role: 'member', firstName: 'Alice', lastName: 'One' },
        bob: { role: 'member', firstName: 'Bob', lastName: 'Two' },
        carol: { role: 'member', firstName: 'Carol', lastName: 'One' },
      },
      channels: { channel: { name: `Net ${randomBytes(4).toString('hex')}`, members: ['alice', 'bob', 'carol'] } },
    });
    const room = channel.rtcSession;
    const joinedAt = async (url: string, account: Account) => {
      const client = await connect(url, account.token);
      clients.push(client);
      client.socket.emit('join_room', { room });
      await client.next('all_users');
      return client;
    };
    const a = await joinedAt(urlOne, alice);
    const b = await joinedAt(urlTwo, bob);
    const c = await joinedAt(urlOne, carol);
    const press = (client: TestClient): Promise<any> => client.emitAck('floor_request', { room });

    expect(await press(a)).toMatchObject({ granted: true });
    expect(await press(b)).toMatchObject({ queued: true, position: 1 });
    expect(await press(c)).toMatchObject({ queued: true, position: 2 });
    // The queue reaches the room on both instances.
    expect(
      (await a.next('floor_queue', (p) => p.queue.length === 2)).queue.map((e: { userId: number }) => e.userId),
    ).toEqual([bob.id, carol.id]);
    a.socket.emit('floor_release', { room });
    expect(await b.next('floor_granted')).toMatchObject({ reason: 'queue', acceptMs: 1200 });
    expect(await b.next('floor_revoked')).toEqual({ room, reason: 'not_taken' });
    const offer = await c.next('floor_granted');
    // Carol presses from instance one while the offer was made by whichever instance stepped the queue.
    expect(await press(c)).toEqual({ granted: true, grantId: offer.grantId });
    await b.flush();
    await c.flush();
    expect(b.all('floor_granted')).toHaveLength(1);
    expect(b.all('floor_revoked')).toHaveLength(1);
    expect(c.all('floor_granted')).toHaveLength(1);
    expect(await press(b)).toMatchObject({ queued: true, position: 1, holder: { userId: carol.id } });
  });
});
