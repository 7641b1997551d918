/**
 * Several server instances: two apps on two ports, one database, one Redis (TEST_REDIS_URL, set in CI).
 * Skipped only when TEST_REDIS_URL is unset.
 */
import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { App } from '../src/app.ts';
import type { ChannelSummary } from '../src/channels/store.ts';
import type { Dialect } from '../src/db/open.ts';
import {
  type Account,
  buildTestApp,
  createMember,
  databases,
  signUpAdmin,
  type TestApp,
  testStorage,
} from './harness.ts';
import { connect, eventually, listen, type TestClient } from './realtime-harness.ts';

const redisUrl = process.env.TEST_REDIS_URL;

/** Instances of one deployment: same data folder and database, each with its own process id. */
function cluster(dialect: Dialect) {
  const storage = testStorage(dialect);
  const apps: App[] = [];
  return {
    async start(instanceId: string): Promise<TestApp> {
      const app = await buildTestApp(storage, { redisUrl, instanceId });
      apps.push(app);
      return app;
    },
    async stop() {
      for (const app of apps.splice(0)) await app.fastify.close();
      await storage.remove();
    },
  };
}

describe.runIf(redisUrl)('several instances sharing Redis', () => {
  describe.each(databases)('on %s', (dialect) => {
    let group: ReturnType<typeof cluster>;
    let one: TestApp;
    let two: TestApp;
    let urlOne: string;
    let urlTwo: string;
    let admin: Account;
    let alice: Account;
    let bob: Account;
    let channel: ChannelSummary;
    const clients: TestClient[] = [];
    const open = async (url: string, account: Account) => {
      const client = await connect(url, account.token);
      clients.push(client);
      return client;
    };
    const joined = async (url: string, account: Account) => {
      const client = await open(url, account);
      client.socket.emit('join_room', { room: channel.rtcSession, name: '' });
      await client.next('all_users');
      return client;
    };

    beforeEach(async () => {
      group = cluster(dialect);
      one = await group.start(`one-${randomBytes(4).toString('hex')}`);
      two = await group.start(`two-${randomBytes(4).toString('hex')}`);
      urlOne = await listen(one);
      urlTwo = await listen(two);
      admin = await signUpAdmin(one);
      alice = await createMember(one, admin, { firstName: 'Alice', lastName: 'Martin' });
      bob = await createMember(one, admin, { firstName: 'Bob', lastName: 'Durand' });
      // A name of its own: other runs sharing this Redis must not share the room.
      channel = await one.services.channels.create(`Cluster ${randomBytes(4).toString('hex')}`);
      await one.services.memberships.add(channel.id, [alice.id, bob.id]);
    });
    afterEach(async () => {
      for (const client of clients.splice(0)) client.close();
      await group.stop();
    });

    it('lists and announces peers connected to the other instance', async () => {
      const x = await joined(urlOne, alice);
      const y = await open(urlTwo, bob);
      y.socket.emit('join_room', { room: channel.rtcSession, name: '' });
      // Each peer names its channel and mode, carried across instances (issue 25).
      const room = channel.rtcSession;
      expect(await y.next('all_users')).toEqual([
        { id: x.id, name: 'Alice Martin', userId: alice.id, room, mode: 'talk' },
      ]);
      expect(await x.next('user joined')).toEqual({ id: y.id, name: 'Bob Durand', userId: bob.id, room, mode: 'talk' });
    });

    it('delivers a message sent on one instance to a client of the other', async () => {
      const x = await joined(urlOne, alice);
      const y = await joined(urlTwo, bob);
      const sent = await one.call(
        '/user/api/sendMessageToChannel',
        { channelId: channel.id, message: 'across instances' },
        alice.token,
      );
      expect(sent.status).toBe(200);
      expect(await y.next('messageResponse')).toMatchObject({ textMsg: 'across instances', userId: alice.id });
      expect(await y.next('onSendMessage')).toMatchObject({ textMsg: 'across instances' });

      await y.emitAck('message', { channelId: channel.id, message: 'and back' });
      expect(await x.next('messageResponse', (m) => m.userId === bob.id)).toMatchObject({ textMsg: 'and back' });
    });

    it('relays signalling between instances with the real sender id', async () => {
      const x = await joined(urlOne, alice);
      const y = await joined(urlTwo, bob);
      x.socket.emit('offer', { sdp: 'o', offerSendID: 'forged', offerSendName: '', offerReceiveID: y.id });
      const room = channel.rtcSession;
      expect(await y.next('getOffer')).toEqual({ sdp: 'o', offerSendID: x.id, offerSendName: 'Alice Martin', room });
      y.socket.emit('answer', { sdp: 'a', answerSendID: 'forged', answerReceiveID: x.id });
      expect(await x.next('getAnswer')).toEqual({ sdp: 'a', answerSendID: y.id, room });
      y.socket.emit('micStateChange', { micState: true });
      expect(await x.next('onMicStateChanged')).toMatchObject({ id: y.id, userId: bob.id, micState: true });
    });

    it("disconnects a user's sockets on every instance when its tokens are revoked", async () => {
      const x = await open(urlOne, bob);
      const y = await open(urlTwo, bob);
      const revoked = await one.call('/user/api/deleteUserTokens/', { userId: bob.id }, admin.token);
      expect(revoked.status).toBe(200);
      expect(await x.next('disconnect')).toBe('io server disconnect');
      expect(await y.next('disconnect')).toBe('io server disconnect');
    });

    it('pushes status changes to administrators connected to the other instance', async () => {
      const console = await open(urlTwo, admin);
      await open(urlOne, alice);
      expect(await console.next('userConnected', (s) => s.userId === alice.id)).toEqual({
        userId: alice.id,
        online: true,
        channelIds: [],
      });
    });

    it('keeps the presence of live instances and removes that of a dead one when an instance starts', async () => {
      const x = await joined(urlOne, alice);
      const y = await joined(urlTwo, bob);
      await eventually(async () => {
        const rows = await one.services.db.selectFrom('user_sockets').select('socket_id').execute();
        return rows.length === 2;
      }, 'both presence rows');
      await one.services.db
        .insertInto('user_sockets')
        .values({
          user_id: alice.id,
          channel_id: channel.id,
          socket_id: 'from-a-crashed-process',
          instance_id: 'crashed-instance',
          mic_state: 0,
          created_at: new Date().toISOString(),
        })
        .execute();

      await group.start(`three-${randomBytes(4).toString('hex')}`);

      const rows = await one.services.db.selectFrom('user_sockets').select(['socket_id', 'instance_id']).execute();
      expect(rows.map((r) => r.socket_id).sort()).toEqual([x.id, y.id].sort());
      expect(rows.find((r) => r.socket_id === x.id)?.instance_id).toBe(one.config.instanceId);
      expect(rows.find((r) => r.socket_id === y.id)?.instance_id).toBe(two.config.instanceId);
      const users = await two.call('/user/api/getUsersInChannel', { channelId: channel.id }, admin.token);
      expect(users.status).toBe(200);
      const connected = users.body.res.filter((u: { user_sockets: unknown[] }) => u.user_sockets.length > 0);
      expect(connected.map((u: { id: number }) => u.id).sort()).toEqual([alice.id, bob.id].sort());
    });
  });
});
