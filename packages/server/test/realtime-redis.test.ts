/**
 * Several server instances: two apps on two ports, one database, one Redis (TEST_REDIS_URL, set in CI).
 * Skipped only when TEST_REDIS_URL is unset.
 */
import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChannelSummary } from '../src/channels/store.ts';
import { runAdminCommand } from '../src/ops/admin.ts';
import { type Cluster, startCluster } from './cluster-harness.ts';
import { type Account, createMember, databases, signUpAdmin, type TestApp } from './harness.ts';
import { connect, eventually, type TestClient } from './realtime-harness.ts';

const redisUrl = process.env.TEST_REDIS_URL;

describe.runIf(redisUrl)('several instances sharing Redis', () => {
  describe.each(databases)('on %s', (dialect) => {
    let group: Cluster;
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
      // No periodic re-check of rights during a test: a change reaches the other instance through Redis or not at all.
      group = await startCluster(dialect, { overrides: { rightsRecheckMs: 600_000 } });
      [one, two] = group.apps;
      [urlOne, urlTwo] = group.urls;
      admin = await signUpAdmin(one);
      alice = await createMember(one, admin, { firstName: 'Alice', lastName: 'Martin' });
      bob = await createMember(one, admin, { firstName: 'Bob', lastName: 'Durand' });
      // A name of its own: other runs sharing this Redis must not share the room.
      channel = await one.services.channels.create(`Cluster ${randomBytes(4).toString('hex')}`);
      await one.services.memberships.add(channel.id, [alice.id, bob.id]);
    });
    afterEach(async () => {
      for (const client of clients.splice(0)) client.close();
      await group.close();
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

    /**
     * Every event instance one sent to `client` through Redis before now has come: instance one sends one more
     * (`onChannelsChanged`, to the user's room) after them, on the same connection, and Redis keeps the order.
     */
    async function barrier(client: TestClient, account: Account) {
      const other = await one.services.channels.create(`Barrier ${randomBytes(4).toString('hex')}`);
      await one.call('/user/api/addUserToChannel', { userId: account.id, channelId: other.id }, admin.token);
      await client.next('onChannelsChanged', () => true);
      await one.call('/user/api/deleteUserFromChannel', { userId: account.id, channelId: other.id }, admin.token);
      await client.next('onChannelsChanged', () => true);
    }

    it('takes map access away on one instance: the socket on the other leaves the map room at once', async () => {
      const edit = (mapRight: boolean) =>
        one.call(
          '/user/api/updateUserData',
          { id: alice.id, firstName: 'Alice', lastName: 'Martin', mapRight },
          admin.token,
        );
      expect((await edit(true)).status).toBe(200);
      const x = await joined(urlTwo, alice);
      const y = await joined(urlOne, bob);
      const position = (lat: number) => y.emitAck('onLocationChanged', { lat, lng: 2.35 });
      await position(48.1);
      expect(await x.next('onLocationChanged')).toMatchObject({ userId: bob.id, lat: 48.1 });
      expect((await edit(false)).status).toBe(200);
      expect(await x.next('rights_changed')).toMatchObject({ mapRight: false, changes: ['map'] });
      await position(48.2);
      await barrier(x, alice);
      expect(x.all('onLocationChanged').map((p) => p.lat)).toEqual([48.1]);
    });

    it('removes a membership on one instance: the sockets on the other leave the room and the watched channel', async () => {
      const x = await joined(urlOne, alice);
      const y = await joined(urlTwo, bob);
      const watching = await open(urlTwo, bob);
      expect(await watching.emitAck('watch_channels', { channelIds: [channel.id] })).toMatchObject({
        channelIds: [channel.id],
      });
      const removed = await one.call(
        '/user/api/deleteUserFromChannel',
        { userId: bob.id, channelId: channel.id },
        admin.token,
      );
      expect(removed.status).toBe(200);
      expect(await y.next('rights_changed')).toMatchObject({ changes: ['channels'], left: [channel.rtcSession] });
      expect(await watching.next('rights_changed')).toMatchObject({ changes: ['channels'], left: [] });
      expect(await x.next('user_exit')).toEqual({ id: y.id, room: channel.rtcSession });
      for (const client of [y, watching]) await client.next('onChannelsChanged');
      expect(await x.emitAck('floor_request', { room: channel.rtcSession })).toEqual({
        granted: true,
        grantId: expect.any(String),
      });
      for (const client of [y, watching]) {
        await barrier(client, bob);
        expect(client.all('onMicStateChanged')).toEqual([]);
      }
    });

    // `npm run admin` opens the database of DATA_DIR (or DATABASE_URL, not this test's schema): SQLite only here.
    it.runIf(dialect === 'sqlite')('tells every instance what `npm run admin` changed, through Redis', async () => {
      const x = await open(urlOne, bob);
      const y = await open(urlTwo, bob);
      const env = {
        DATA_DIR: one.config.dataDir,
        REDIS_URL: redisUrl,
        REDIS_KEY_PREFIX: one.config.redisKeyPrefix,
        TALKGROUP_PASSWORD: 'a-fresh-start-42',
      };
      expect(await runAdminCommand(['promote', bob.identifier], env)).toMatch(/running instances were told/);
      expect(await x.next('rights_changed')).toMatchObject({ role: 'admin', changes: ['role', 'map'] });
      expect(await y.next('rights_changed')).toMatchObject({ role: 'admin', changes: ['role', 'map'] });
      await runAdminCommand(['reset-password', bob.identifier], env);
      expect(await x.next('session_ended')).toMatchObject({ reason: 'revoked' });
      expect(await y.next('session_ended')).toMatchObject({ reason: 'revoked' });
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

      await group.start();

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
