/**
 * The real-time socket (spec section 7): the handshake, joining and leaving channel rooms, presence and the
 * join, leave and lost-connection activities, status pushes, and what a channel change does to its room. Events
 * in a room (signalling, push-to-talk, typing, chat, positions) are in realtime-events.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { databases } from './harness.ts';
import { connect, eventually, listen, refusal } from './realtime-harness.ts';
import { realtimeWorld } from './realtime-world.ts';

describe.each(databases)('real-time socket on %s', (dialect) => {
  const w = realtimeWorld(dialect);

  describe('connection', () => {
    it('refuses a handshake without a token, with an unknown token and with a revoked one', async () => {
      expect(await refusal(w.url, undefined)).toMatch(/Missing or invalid token/);
      expect(await refusal(w.url, 'not-a-token')).toMatch(/invalid, expired or revoked/);
      const revoked = await w.app.call('/user/api/deleteUserTokens/', { userId: w.bob.id }, w.admin.token);
      expect(revoked.status).toBe(200);
      expect(await refusal(w.url, w.bob.token)).toMatch(/invalid, expired or revoked/);
    });

    it('accepts the token in the handshake auth object too', async () => {
      const client = await w.open(w.alice, { viaAuth: true });
      expect(client.socket.connected).toBe(true);
    });

    it('disconnects every socket of a user whose tokens are revoked, and of a deleted user', async () => {
      const phone = await w.open(w.bob);
      const laptop = await w.open(w.bob);
      const other = await w.open(w.alice);
      await w.app.call('/user/api/deleteUserTokens/', { userId: w.bob.id }, w.admin.token);
      expect(await phone.next('disconnect')).toBe('io server disconnect');
      expect(await laptop.next('disconnect')).toBe('io server disconnect');
      await other.flush();
      expect(other.socket.connected).toBe(true);

      await w.app.call('/user/api/deleteUser', { UserId: w.alice.id }, w.admin.token);
      expect(await other.next('disconnect')).toBe('io server disconnect');
    });

    it('writes a presence row on connect and removes it on disconnect', async () => {
      const client = await w.open(w.alice);
      const id = client.id;
      const row = await eventually(() => w.presenceOf(id), 'presence row written');
      expect(row).toMatchObject({ user_id: w.alice.id, channel_id: null, instance_id: w.app.config.instanceId });
      client.close();
      await eventually(async () => (await w.presenceOf(id)) === undefined, 'presence row removed');
    });

    it('removes the presence rows a previous process left when a single instance starts', async () => {
      await w
        .db()
        .insertInto('user_sockets')
        .values({
          user_id: w.alice.id,
          channel_id: w.red.id,
          socket_id: 'left-by-a-crash',
          instance_id: 'previous-process',
          mic_state: 0,
          created_at: new Date().toISOString(),
        })
        .execute();
      await w
        .db()
        .insertInto('talk_bursts')
        .values({
          user_id: w.alice.id,
          channel_id: w.red.id,
          channel_name: 'Red Team',
          started_at: '2026-01-01T10:00:00.000Z',
          ended_at: null,
        })
        .execute();
      const restarted = await buildApp(
        { ...w.app.config, instanceId: 'restarted' },
        { database: w.app.services.database },
      );
      try {
        expect(await w.presenceOf('left-by-a-crash')).toBeUndefined();
        // Nobody holds that talk burst any more: it is closed (its real end is unknown).
        const burst = await w.db().selectFrom('talk_bursts').selectAll().executeTakeFirstOrThrow();
        expect(burst.ended_at).toBe(burst.started_at);
      } finally {
        await restarted.fastify.close();
      }
    });
    it('closes its sockets so that clients come back, and removes their presence rows, when the server closes', async () => {
      const closing = await buildApp({ ...w.app.config, instanceId: 'closing' }, { database: w.app.services.database });
      const client = w.track(await connect(await listen(closing), w.alice.token));
      const id = client.id;
      await eventually(() => w.presenceOf(id), 'presence row written');
      await closing.fastify.close();
      // A transport close, not a server-side disconnect: Socket.IO clients reconnect after it by themselves.
      expect(await client.next('disconnect')).toBe('transport close');
      expect(client.socket.active).toBe(true);
      expect(await w.presenceOf(id)).toBeUndefined();
    });
  });

  describe('join_room', () => {
    it('lets a member join, lists the others to the joiner and announces the joiner to the others', async () => {
      const first = await w.joined(w.alice, w.red);
      expect(first.all('all_users')).toEqual([[]]);
      expect(first.all('usersInThisRoom')).toEqual([[]]);

      const second = await w.open(w.bob);
      second.socket.emit('join_room', { room: w.red.rtcSession, name: 'Bobby' });
      const peers = await second.next('all_users');
      expect(peers).toEqual([
        { id: first.id, name: 'Alice Martin', userId: w.alice.id, room: w.red.rtcSession, mode: 'talk' },
      ]);
      expect(await second.next('usersInThisRoom')).toEqual(peers);
      expect(await first.next('user joined')).toEqual({
        id: second.id,
        name: 'Bob Durand',
        userId: w.bob.id,
        room: w.red.rtcSession,
        mode: 'talk',
      });
    });

    it('refuses a user who is not a member of the channel, with a clear error', async () => {
      const client = await w.open(w.carol);
      client.socket.emit('join_room', { room: w.red.rtcSession, name: 'Carol' });
      expect((await client.next('error')).message).toBe('join_room: you are not a member of the channel "Red Team".');
      expect(client.all('all_users')).toEqual([]);
      // Presence rows are written in group commits: the connection's row may land just after the refusal.
      const row = await eventually(() => w.presenceOf(client.id), 'the presence row of the connection');
      expect(row.channel_id).toBeNull();
    });

    it('lets an administrator join any channel', async () => {
      const member = await w.joined(w.alice, w.red);
      const console = await w.open(w.admin);
      console.socket.emit('join_room', { room: w.red.rtcSession, name: 'Admin' });
      expect(await console.next('all_users')).toEqual([
        { id: member.id, name: 'Alice Martin', userId: w.alice.id, room: w.red.rtcSession, mode: 'talk' },
      ]);
      expect(await member.next('user joined')).toMatchObject({ id: console.id, userId: w.admin.id });
    });

    it('answers an unknown room and a malformed payload with an error event', async () => {
      const client = await w.open(w.alice);
      client.socket.emit('join_room', { room: 'Nowhere', name: 'x' });
      expect((await client.next('error')).message).toBe('join_room: there is no channel with the room "Nowhere".');
      client.socket.emit('join_room', { room: 42 });
      expect((await client.next('error')).message).toBe('join_room: room: expected string');
      client.socket.emit('join_room');
      expect((await client.next('error')).message).toMatch(/^join_room: room:/);
      expect(client.socket.connected).toBe(true);
    });

    it('records presence in the channel and channel_join, then channel_leave on leave_room', async () => {
      const client = await w.joined(w.alice, w.red);
      await eventually(async () => (await w.presenceOf(client.id))?.channel_id === w.red.id, 'presence in Red Team');
      const joins = await eventually(async () => {
        const rows = await w.activitiesOf(w.alice.id, 'channel_join');
        return rows.length === 1 && rows;
      }, 'channel_join recorded');
      expect(joins[0]).toMatchObject({ channel_id: w.red.id, channel_name: 'Red Team' });

      const other = await w.joined(w.bob, w.red);
      expect(await client.emitAck('leave_room', { room: w.red.rtcSession })).toEqual({ success: true });
      expect(await other.next('user_exit')).toEqual({ id: client.id, room: w.red.rtcSession });
      expect((await w.presenceOf(client.id))?.channel_id).toBeNull();
      const leaves = await w.activitiesOf(w.alice.id, 'channel_leave');
      expect(leaves).toHaveLength(1);
      expect(leaves[0].channel_id).toBe(w.red.id);
      expect(await w.activitiesOf(w.alice.id, 'connexion_lost')).toHaveLength(0);
    });

    it('records channel_leave but no connexion_lost when a client disconnects on purpose', async () => {
      const client = await w.joined(w.alice, w.red);
      const other = await w.joined(w.bob, w.red);
      const id = client.id;
      client.close();
      expect(await other.next('user_exit')).toEqual({ id, room: w.red.rtcSession });
      await eventually(async () => (await w.activitiesOf(w.alice.id, 'channel_leave')).length === 1, 'channel_leave');
      await eventually(async () => (await w.presenceOf(id)) === undefined, 'presence removed');
      expect(await w.activitiesOf(w.alice.id, 'connexion_lost')).toHaveLength(0);
    });

    it('records connexion_lost when the connection drops unexpectedly', async () => {
      const client = await w.joined(w.alice, w.red);
      const other = await w.joined(w.bob, w.red);
      const id = client.id;
      // The transport closes under the client, as when a phone loses its network.
      client.socket.io.engine.close();
      expect(await other.next('user_exit')).toEqual({ id, room: w.red.rtcSession });
      const lost = await eventually(async () => {
        const rows = await w.activitiesOf(w.alice.id, 'connexion_lost');
        return rows.length === 1 && rows;
      }, 'connexion_lost recorded');
      expect(lost[0].channel_id).toBe(w.red.id);
      expect(await w.activitiesOf(w.alice.id, 'channel_leave')).toHaveLength(1);
      await eventually(async () => (await w.presenceOf(id)) === undefined, 'presence removed');
    });

    it('records no connexion_lost when the user is back within the grace period', async () => {
      const client = await w.joined(w.alice, w.red);
      const other = await w.joined(w.bob, w.red);
      const id = client.id;
      client.socket.io.engine.close();
      expect(await other.next('user_exit')).toEqual({ id, room: w.red.rtcSession });
      await w.joined(w.alice, w.red);
      // An absence can only be checked after the fact: well past the grace period.
      await new Promise((resolve) => setTimeout(resolve, w.app.config.connectionLostGraceMs * 5));
      expect(await w.activitiesOf(w.alice.id, 'connexion_lost')).toHaveLength(0);
    });
  });

  describe('channel changes', () => {
    it('takes a member removed from the channel out of its room', async () => {
      const a = await w.joined(w.alice, w.red);
      const b = await w.joined(w.bob, w.red);
      const removed = await w.app.call(
        '/user/api/deleteUserFromChannel',
        { userId: w.bob.id, channelId: w.red.id },
        w.admin.token,
      );
      expect(removed.status).toBe(200);
      expect(await a.next('user_exit')).toEqual({ id: b.id, room: w.red.rtcSession });
      expect((await b.next('error')).message).toBe(
        'You are no longer a member of the channel "Red Team": you left its room.',
      );
      expect((await w.presenceOf(b.id))?.channel_id).toBeNull();
      expect(await w.activitiesOf(w.bob.id, 'channel_leave')).toHaveLength(1);

      await a.emitAck('offer', { sdp: 'x', offerSendID: a.id, offerReceiveID: b.id });
      await a.emitAck('message', { channelId: w.red.id, message: 'after the removal' });
      await b.flush();
      expect(b.all('getOffer')).toEqual([]);
      expect(b.all('messageResponse')).toEqual([]);
      const refused = await b.emitAck('micStateChange', { micState: true });
      expect(refused).toEqual({ success: false, result: 'micStateChange: join a room first (join_room).' });
    });

    it('empties the room of a deleted channel after telling its sockets', async () => {
      const a = await w.joined(w.alice, w.red);
      const console = await w.joined(w.admin, w.red);
      await eventually(
        async () => (await w.activitiesOf(w.admin.id, 'channel_join')).length === 1,
        'the join recorded',
      );
      const deleted = await w.app.call('/user/api/deleteChannel', { channelId: w.red.id }, w.admin.token);
      expect(deleted.status).toBe(200);
      expect(await a.next('onChannelDeleted')).toEqual({ id: w.red.id });
      expect((await a.next('error')).message).toBe('This channel was deleted: you left its room.');
      expect((await console.next('error')).message).toBe('This channel was deleted: you left its room.');
      const ack = await a.emitAck('typing', {});
      expect(ack).toEqual({ success: false, result: 'typing: join a room first (join_room).' });
    });

    it('keeps the sockets of a renamed channel together under its new room key', async () => {
      const a = await w.joined(w.alice, w.red);
      const b = await w.joined(w.bob, w.red);
      const renamed = await w.app.call(
        '/user/api/updateChannel',
        { channelId: w.red.id, channelName: 'Red Squad' },
        w.admin.token,
      );
      expect(renamed.status).toBe(200);
      await eventually(async () => {
        await a.emitAck('typing', {});
        return b.all('typingResponse').find((t) => t.room === 'RedSquad');
      }, 'typing in the renamed room');
      await w.app.call('/user/api/sendMessageToChannel', { channelId: w.red.id, message: 'renamed' }, w.admin.token);
      expect(await b.next('messageResponse')).toMatchObject({ textMsg: 'renamed' });
      expect(b.all('user_exit')).toEqual([]);
      // A client that missed the rename names the old key: it leaves the channel it is in.
      expect(await a.emitAck('leave_room', { room: w.red.rtcSession })).toEqual({ success: true });
      expect(await b.next('user_exit')).toEqual({ id: a.id, room: 'RedSquad' });
    });

    it('keeps a socket in its one channel when it names a room it is not in (issue 58)', async () => {
      const a = await w.joined(w.alice, w.red);
      a.socket.emit('leave_room', { room: 'SomewhereElse' });
      expect((await a.next('error')).message).toBe('leave_room: this socket is not in the room "SomewhereElse".');
      await a.emitAck('typing', {});
      expect((await w.presenceOf(a.id))?.channel_id).toBe(w.red.id);
      expect(await w.activitiesOf(w.alice.id, 'channel_leave')).toHaveLength(0);
    });

    it('pushes deleted messages to the room and deleted users to administrators', async () => {
      const console = await w.open(w.admin);
      const a = await w.joined(w.alice, w.red);
      const sent = await w.app.call(
        '/user/api/sendMessageToChannel',
        { channelId: w.red.id, message: 'oops' },
        w.alice.token,
      );
      await w.app.call('/user/api/deleteMessageById', { msgId: sent.body.res.id }, w.alice.token);
      expect(await a.next('onMessageDeleted')).toEqual({ id: sent.body.res.id, channelId: w.red.id });
      await w.app.call('/user/api/deleteUser', { UserId: w.carol.id }, w.admin.token);
      expect(await console.next('onUserDeleted')).toEqual({ id: w.carol.id });
    });
  });

  describe('status', () => {
    it('pushes onUserStatusChanged to administrators and to the rooms of the channels, userConnected to administrators', async () => {
      const console = await w.open(w.admin);
      const roommate = await w.joined(w.bob, w.red);
      // A socket that joins no room: its arrival is pushed once it stopped waiting for a join (status.ts).
      const a = await w.open(w.alice);
      const online = { userId: w.alice.id, online: true, channelIds: [] };
      expect(await console.next('userConnected', (s) => s.userId === w.alice.id)).toEqual(online);
      expect(await console.next('onUserStatusChanged', (s) => s.userId === w.alice.id)).toEqual(online);
      expect(await roommate.next('onUserStatusChanged', (s) => s.userId === w.alice.id)).toEqual(online);
      // userConnected refreshes the console's lists (spec section 4); a room hears onUserStatusChanged (section 7).
      expect(roommate.all('userConnected')).toEqual([]);

      a.socket.emit('join_room', { room: w.red.rtcSession, name: 'Alice' });
      expect(await console.next('onUserStatusChanged', (s) => s.userId === w.alice.id)).toEqual({
        ...online,
        channelIds: [w.red.id],
      });

      const second = await w.open(w.alice);
      await console.next('onUserStatusChanged', (s) => s.userId === w.alice.id);
      a.close();
      second.close();
      expect(await console.next('onUserStatusChanged', (s) => s.userId === w.alice.id && s.online === false)).toEqual({
        userId: w.alice.id,
        online: false,
        channelIds: [],
      });
      // One userConnected: the second socket of a user already online is not a new arrival.
      expect(console.all('userConnected').filter((s) => s.userId === w.alice.id)).toHaveLength(1);
    });

    it('tells a room once of a member who connects and joins: one onUserStatusChanged, in the room already', async () => {
      const console = await w.open(w.admin);
      const roommate = await w.joined(w.bob, w.red);
      const a = await w.open(w.alice);
      a.socket.emit('join_room', { room: w.red.rtcSession, name: 'Alice' });
      const inRed = { userId: w.alice.id, online: true, channelIds: [w.red.id] };
      expect(await console.next('userConnected', (s) => s.userId === w.alice.id)).toEqual(inRed);
      expect(await roommate.next('onUserStatusChanged', (s) => s.userId === w.alice.id)).toEqual(inRed);
      await console.flush();
      await roommate.flush();
      expect(console.all('onUserStatusChanged').filter((s) => s.userId === w.alice.id)).toEqual([inRed]);
      expect(roommate.all('onUserStatusChanged').filter((s) => s.userId === w.alice.id)).toEqual([inRed]);
    });

    it('does not tell a spec client that joined after a change of that change: its peer list already had it', async () => {
      const console = await w.open(w.admin);
      const bob = await w.open(w.bob);
      const alice = await w.open(w.alice);
      bob.socket.emit('join_room', { room: w.red.rtcSession, name: 'Bob' });
      await bob.next('all_users');
      // Alice joins before Bob's arrival in the room is pushed, or after: either way she lists him as a peer.
      alice.socket.emit('join_room', { room: w.red.rtcSession, name: 'Alice' });
      expect((await alice.next('all_users')).map((peer: { userId: number }) => peer.userId)).toEqual([w.bob.id]);
      await console.next('onUserStatusChanged', (s) => s.userId === w.bob.id && s.channelIds.length === 1);
      await console.next('onUserStatusChanged', (s) => s.userId === w.alice.id && s.channelIds.length === 1);
      // Bob was there when Alice joined: he hears of it.
      expect(await bob.next('onUserStatusChanged', (s) => s.userId === w.alice.id)).toMatchObject({ online: true });
      await alice.flush();
      expect(alice.all('onUserStatusChanged').filter((s) => s.userId === w.bob.id)).toEqual([]);
    });
  });
});
