import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import type { ChannelSummary } from '../src/channels/store.ts';
import { type Account, createMember, databases, signUpAdmin, startApp, type TestApp } from './harness.ts';
import { connect, eventually, listen, refusal, type TestClient } from './realtime-harness.ts';

describe.each(databases)('real-time socket on %s', (dialect) => {
  let app: TestApp;
  let url: string;
  let admin: Account;
  /** Alice (map access) and Bob are members of "Red Team"; Carol only of "Blue". */
  let alice: Account;
  let bob: Account;
  let carol: Account;
  let red: ChannelSummary;
  let blue: ChannelSummary;
  const clients: TestClient[] = [];

  const open = async (account: Account) => {
    const client = await connect(url, account.token);
    clients.push(client);
    return client;
  };
  const joined = async (account: Account, channel: ChannelSummary) => {
    const client = await open(account);
    client.socket.emit('join_room', { room: channel.rtcSession, name: 'ignored' });
    await client.next('all_users');
    return client;
  };
  const db = () => app.services.db;
  const presenceOf = (socketId: string) =>
    db().selectFrom('user_sockets').selectAll().where('socket_id', '=', socketId).executeTakeFirst();
  const activitiesOf = (userId: number, type: string) =>
    db()
      .selectFrom('activities')
      .selectAll()
      .where('user_id', '=', userId)
      .where('type', '=', type)
      .orderBy('id')
      .execute();

  beforeEach(async () => {
    app = await startApp(dialect);
    url = await listen(app);
    admin = await signUpAdmin(app);
    alice = await createMember(app, admin, { firstName: 'Alice', lastName: 'Martin', mapRight: true });
    bob = await createMember(app, admin, { firstName: 'Bob', lastName: 'Durand' });
    carol = await createMember(app, admin, { firstName: 'Carol', lastName: 'Petit' });
    red = await app.services.channels.create('Red Team');
    blue = await app.services.channels.create('Blue');
    await app.services.memberships.add(red.id, [alice.id, bob.id]);
    await app.services.memberships.add(blue.id, [carol.id]);
  });
  afterEach(async () => {
    for (const client of clients.splice(0)) client.close();
    await app.close();
  });

  describe('connection', () => {
    it('refuses a handshake without a token, with an unknown token and with a revoked one', async () => {
      expect(await refusal(url, undefined)).toMatch(/Missing token/);
      expect(await refusal(url, 'not-a-token')).toMatch(/invalid, expired or revoked/);
      const revoked = await app.call('/user/api/deleteUserTokens/', { userId: bob.id }, admin.token);
      expect(revoked.status).toBe(200);
      expect(await refusal(url, bob.token)).toMatch(/invalid, expired or revoked/);
    });

    it('accepts the token in the handshake auth object too', async () => {
      const client = await connect(url, alice.token, { viaAuth: true });
      clients.push(client);
      expect(client.socket.connected).toBe(true);
    });

    it('disconnects every socket of a user whose tokens are revoked, and of a deleted user', async () => {
      const phone = await open(bob);
      const laptop = await open(bob);
      const other = await open(alice);
      await app.call('/user/api/deleteUserTokens/', { userId: bob.id }, admin.token);
      expect(await phone.next('disconnect')).toBe('io server disconnect');
      expect(await laptop.next('disconnect')).toBe('io server disconnect');
      await other.flush();
      expect(other.socket.connected).toBe(true);

      await app.call('/user/api/deleteUser', { UserId: alice.id }, admin.token);
      expect(await other.next('disconnect')).toBe('io server disconnect');
    });

    it('writes a presence row on connect and removes it on disconnect', async () => {
      const client = await open(alice);
      const id = client.id;
      const row = await eventually(() => presenceOf(id), 'presence row written');
      expect(row).toMatchObject({ user_id: alice.id, channel_id: null, instance_id: app.config.instanceId });
      client.close();
      await eventually(async () => (await presenceOf(id)) === undefined, 'presence row removed');
    });

    it('removes the presence rows a previous process left when a single instance starts', async () => {
      await db()
        .insertInto('user_sockets')
        .values({
          user_id: alice.id,
          channel_id: red.id,
          socket_id: 'left-by-a-crash',
          instance_id: 'previous-process',
          mic_state: 0,
          created_at: new Date().toISOString(),
        })
        .execute();
      await db()
        .insertInto('talk_bursts')
        .values({
          user_id: alice.id,
          channel_id: red.id,
          channel_name: 'Red Team',
          started_at: '2026-01-01T10:00:00.000Z',
          ended_at: null,
        })
        .execute();
      const restarted = await buildApp({ ...app.config, instanceId: 'restarted' }, { database: app.services.database });
      try {
        expect(await presenceOf('left-by-a-crash')).toBeUndefined();
        // Nobody holds that talk burst any more: it is closed (its real end is unknown).
        const burst = await db().selectFrom('talk_bursts').selectAll().executeTakeFirstOrThrow();
        expect(burst.ended_at).toBe(burst.started_at);
      } finally {
        await restarted.fastify.close();
      }
    });
    it('closes its sockets so that clients come back, and removes their presence rows, when the server closes', async () => {
      const closing = await buildApp({ ...app.config, instanceId: 'closing' }, { database: app.services.database });
      const client = await connect(await listen(closing), alice.token);
      clients.push(client);
      const id = client.id;
      await eventually(() => presenceOf(id), 'presence row written');
      await closing.fastify.close();
      // A transport close, not a server-side disconnect: Socket.IO clients reconnect after it by themselves.
      expect(await client.next('disconnect')).toBe('transport close');
      expect(client.socket.active).toBe(true);
      expect(await presenceOf(id)).toBeUndefined();
    });
  });

  describe('join_room', () => {
    it('lets a member join, lists the others to the joiner and announces the joiner to the others', async () => {
      const first = await joined(alice, red);
      expect(first.all('all_users')).toEqual([[]]);
      expect(first.all('usersInThisRoom')).toEqual([[]]);

      const second = await open(bob);
      second.socket.emit('join_room', { room: red.rtcSession, name: 'Bobby' });
      const peers = await second.next('all_users');
      expect(peers).toEqual([{ id: first.id, name: 'Alice Martin', userId: alice.id }]);
      expect(await second.next('usersInThisRoom')).toEqual(peers);
      expect(await first.next('user joined')).toEqual({ id: second.id, name: 'Bob Durand', userId: bob.id });
    });

    it('refuses a user who is not a member of the channel, with a clear error', async () => {
      const client = await open(carol);
      client.socket.emit('join_room', { room: red.rtcSession, name: 'Carol' });
      expect((await client.next('error')).message).toBe('join_room: you are not a member of the channel "Red Team".');
      expect(client.all('all_users')).toEqual([]);
      // Presence rows are written in group commits: the connection's row may land just after the refusal.
      const row = await eventually(() => presenceOf(client.id), 'the presence row of the connection');
      expect(row.channel_id).toBeNull();
    });

    it('lets an administrator join any channel', async () => {
      const member = await joined(alice, red);
      const console = await open(admin);
      console.socket.emit('join_room', { room: red.rtcSession, name: 'Admin' });
      expect(await console.next('all_users')).toEqual([{ id: member.id, name: 'Alice Martin', userId: alice.id }]);
      expect(await member.next('user joined')).toMatchObject({ id: console.id, userId: admin.id });
    });

    it('answers an unknown room and a malformed payload with an error event', async () => {
      const client = await open(alice);
      client.socket.emit('join_room', { room: 'Nowhere', name: 'x' });
      expect((await client.next('error')).message).toBe('join_room: there is no channel with the room "Nowhere".');
      client.socket.emit('join_room', { room: 42 });
      expect((await client.next('error')).message).toBe('join_room: room: expected string');
      client.socket.emit('join_room');
      expect((await client.next('error')).message).toMatch(/^join_room: room:/);
      expect(client.socket.connected).toBe(true);
    });

    it('records presence in the channel and channel_join, then channel_leave on leave_room', async () => {
      const client = await joined(alice, red);
      await eventually(async () => (await presenceOf(client.id))?.channel_id === red.id, 'presence in Red Team');
      const joins = await eventually(async () => {
        const rows = await activitiesOf(alice.id, 'channel_join');
        return rows.length === 1 && rows;
      }, 'channel_join recorded');
      expect(joins[0]).toMatchObject({ channel_id: red.id, channel_name: 'Red Team' });

      const other = await joined(bob, red);
      // The room named does not matter (a client that missed a rename names the old key).
      expect(await client.emitAck('leave_room', { room: 'OldName' })).toEqual({ success: true });
      expect(await other.next('user_exit')).toEqual({ id: client.id });
      expect((await presenceOf(client.id))?.channel_id).toBeNull();
      const leaves = await activitiesOf(alice.id, 'channel_leave');
      expect(leaves).toHaveLength(1);
      expect(leaves[0].channel_id).toBe(red.id);
      expect(await activitiesOf(alice.id, 'connexion_lost')).toHaveLength(0);
    });

    it('records channel_leave but no connexion_lost when a client disconnects on purpose', async () => {
      const client = await joined(alice, red);
      const other = await joined(bob, red);
      const id = client.id;
      client.close();
      expect(await other.next('user_exit')).toEqual({ id });
      await eventually(async () => (await activitiesOf(alice.id, 'channel_leave')).length === 1, 'channel_leave');
      await eventually(async () => (await presenceOf(id)) === undefined, 'presence removed');
      expect(await activitiesOf(alice.id, 'connexion_lost')).toHaveLength(0);
    });

    it('records connexion_lost when the connection drops unexpectedly', async () => {
      const client = await joined(alice, red);
      const other = await joined(bob, red);
      const id = client.id;
      // The transport closes under the client, as when a phone loses its network.
      client.socket.io.engine.close();
      expect(await other.next('user_exit')).toEqual({ id });
      const lost = await eventually(async () => {
        const rows = await activitiesOf(alice.id, 'connexion_lost');
        return rows.length === 1 && rows;
      }, 'connexion_lost recorded');
      expect(lost[0].channel_id).toBe(red.id);
      expect(await activitiesOf(alice.id, 'channel_leave')).toHaveLength(1);
      await eventually(async () => (await presenceOf(id)) === undefined, 'presence removed');
    });

    it('records no connexion_lost when the user is back within the grace period', async () => {
      const client = await joined(alice, red);
      const other = await joined(bob, red);
      const id = client.id;
      client.socket.io.engine.close();
      expect(await other.next('user_exit')).toEqual({ id });
      await joined(alice, red);
      // An absence can only be checked after the fact: well past the grace period.
      await new Promise((resolve) => setTimeout(resolve, app.config.connectionLostGraceMs * 5));
      expect(await activitiesOf(alice.id, 'connexion_lost')).toHaveLength(0);
    });
  });

  describe('channel changes', () => {
    it('takes a member removed from the channel out of its room', async () => {
      const a = await joined(alice, red);
      const b = await joined(bob, red);
      const removed = await app.call(
        '/user/api/deleteUserFromChannel',
        { userId: bob.id, channelId: red.id },
        admin.token,
      );
      expect(removed.status).toBe(200);
      expect(await a.next('user_exit')).toEqual({ id: b.id });
      expect((await b.next('error')).message).toBe(
        'You are no longer a member of the channel "Red Team": you left its room.',
      );
      expect((await presenceOf(b.id))?.channel_id).toBeNull();
      expect(await activitiesOf(bob.id, 'channel_leave')).toHaveLength(1);

      await a.emitAck('offer', { sdp: 'x', offerSendID: a.id, offerReceiveID: b.id });
      await a.emitAck('message', { channelId: red.id, message: 'after the removal' });
      await b.flush();
      expect(b.all('getOffer')).toEqual([]);
      expect(b.all('messageResponse')).toEqual([]);
      const refused = await b.emitAck('micStateChange', { micState: true });
      expect(refused).toEqual({ success: false, result: 'micStateChange: join a room first (join_room).' });
    });

    it('empties the room of a deleted channel after telling its sockets', async () => {
      const a = await joined(alice, red);
      const console = await joined(admin, red);
      await eventually(async () => (await activitiesOf(admin.id, 'channel_join')).length === 1, 'the join recorded');
      const deleted = await app.call('/user/api/deleteChannel', { channelId: red.id }, admin.token);
      expect(deleted.status).toBe(200);
      expect(await a.next('onChannelDeleted')).toEqual({ id: red.id });
      expect((await a.next('error')).message).toBe('This channel was deleted: you left its room.');
      expect((await console.next('error')).message).toBe('This channel was deleted: you left its room.');
      const ack = await a.emitAck('typing', {});
      expect(ack).toEqual({ success: false, result: 'typing: join a room first (join_room).' });
    });

    it('keeps the sockets of a renamed channel together under its new room key', async () => {
      const a = await joined(alice, red);
      const b = await joined(bob, red);
      const renamed = await app.call(
        '/user/api/updateChannel',
        { channelId: red.id, channelName: 'Red Squad' },
        admin.token,
      );
      expect(renamed.status).toBe(200);
      await eventually(async () => {
        await a.emitAck('typing', {});
        return b.all('typingResponse').find((t) => t.room === 'RedSquad');
      }, 'typing in the renamed room');
      await app.call('/user/api/sendMessageToChannel', { channelId: red.id, message: 'renamed' }, admin.token);
      expect(await b.next('messageResponse')).toMatchObject({ textMsg: 'renamed' });
      expect(b.all('user_exit')).toEqual([]);
    });

    it('pushes deleted messages to the room and deleted users to administrators', async () => {
      const console = await open(admin);
      const a = await joined(alice, red);
      const sent = await app.call(
        '/user/api/sendMessageToChannel',
        { channelId: red.id, message: 'oops' },
        alice.token,
      );
      await app.call('/user/api/deleteMessageById', { msgId: sent.body.res.id }, alice.token);
      expect(await a.next('onMessageDeleted')).toEqual({ id: sent.body.res.id, channelId: red.id });
      await app.call('/user/api/deleteUser', { UserId: carol.id }, admin.token);
      expect(await console.next('onUserDeleted')).toEqual({ id: carol.id });
    });
  });

  describe('signalling relay', () => {
    it('relays offer, answer and candidate to the named peer only, with the real sender id', async () => {
      const a = await joined(alice, red);
      const b = await joined(bob, red);
      const watcher = await joined(admin, red);

      a.socket.emit('offer', {
        sdp: { type: 'offer', sdp: 'v=0' },
        offerSendID: 'forged',
        offerSendName: 'Eve',
        offerReceiveID: b.id,
      });
      expect(await b.next('getOffer')).toEqual({
        sdp: { type: 'offer', sdp: 'v=0' },
        offerSendID: a.id,
        offerSendName: 'Alice Martin',
      });

      b.socket.emit('answer', { sdp: { type: 'answer', sdp: 'v=0' }, answerSendID: 'forged', answerReceiveID: a.id });
      expect(await a.next('getAnswer')).toEqual({ sdp: { type: 'answer', sdp: 'v=0' }, answerSendID: b.id });

      a.socket.emit('candidate', {
        candidate: { candidate: 'candidate:1' },
        candidateSendID: 'x',
        candidateReceiveID: b.id,
      });
      expect(await b.next('getCandidate')).toEqual({ candidate: { candidate: 'candidate:1' }, candidateSendID: a.id });

      await watcher.flush();
      expect(watcher.all('getOffer')).toEqual([]);
      expect(watcher.all('getAnswer')).toEqual([]);
      expect(watcher.all('getCandidate')).toEqual([]);
    });

    it('does not relay to a socket of another room', async () => {
      const a = await joined(alice, red);
      const c = await joined(carol, blue);
      expect(await a.emitAck('offer', { sdp: 'x', offerSendID: a.id, offerReceiveID: c.id })).toEqual({
        success: true,
      });
      await a.emitAck('candidate', { candidate: 'x', candidateSendID: a.id, candidateReceiveID: c.id });
      await a.emitAck('answer', { sdp: 'x', answerSendID: a.id, answerReceiveID: c.id });
      await c.flush();
      expect(c.all('getOffer')).toEqual([]);
      expect(c.all('getCandidate')).toEqual([]);
      expect(c.all('getAnswer')).toEqual([]);
    });

    it('refuses signalling from a socket that has not joined a room', async () => {
      const b = await joined(bob, red);
      const outsider = await open(alice);
      const ack = await outsider.emitAck('offer', { sdp: 'x', offerSendID: 'x', offerReceiveID: b.id });
      expect(ack).toEqual({ success: false, result: 'offer: join a room first (join_room).' });
      expect((await outsider.next('error')).message).toBe('offer: join a room first (join_room).');
      await b.flush();
      expect(b.all('getOffer')).toEqual([]);
    });

    it('rejects a malformed offer with an error naming the field', async () => {
      const a = await joined(alice, red);
      a.socket.emit('offer', { sdp: 'x', offerSendID: a.id });
      expect((await a.next('error')).message).toBe('offer: offerReceiveID: expected string');
    });
  });

  describe('push-to-talk', () => {
    it('pushes mic changes to the room and records one talk burst and one channel_talk per press', async () => {
      const a = await joined(alice, red);
      const b = await joined(bob, red);
      a.socket.emit('micStateChange', { id: a.id, micState: true, room: red.rtcSession });
      const expected = { id: a.id, userId: alice.id, name: 'Alice Martin', micState: true, room: red.rtcSession };
      expect(await b.next('onMicStateChanged')).toEqual(expected);
      expect(await a.next('onMicStateChanged')).toEqual(expected);
      a.socket.emit('micStateChange', { id: a.id, micState: 'false', room: red.rtcSession });
      expect(await b.next('onMicStateChanged')).toEqual({ ...expected, micState: false });

      const bursts = await eventually(async () => {
        const rows = await db().selectFrom('talk_bursts').selectAll().where('user_id', '=', alice.id).execute();
        return rows.length === 1 && rows[0].ended_at !== null && rows;
      }, 'a closed talk burst');
      expect(bursts[0]).toMatchObject({ channel_id: red.id, channel_name: 'Red Team' });
      expect(String(bursts[0].ended_at) >= bursts[0].started_at).toBe(true);
      await eventually(async () => (await activitiesOf(alice.id, 'channel_talk')).length === 1, 'channel_talk');
    });

    it('ends the burst of a talker who disconnects, and shows its mic off to the others', async () => {
      const a = await joined(alice, red);
      const b = await joined(bob, red);
      await a.emitAck('micStateChange', { micState: true });
      await b.next('onMicStateChanged', (p) => p.micState === true);
      const id = a.id;
      a.close();
      expect(await b.next('onMicStateChanged')).toMatchObject({ id, userId: alice.id, micState: false });
      const burst = await eventually(
        () =>
          db()
            .selectFrom('talk_bursts')
            .selectAll()
            .where('user_id', '=', alice.id)
            .where('ended_at', 'is not', null)
            .executeTakeFirst(),
        'the burst closed',
      );
      expect(burst.channel_id).toBe(red.id);
      await eventually(async () => (await activitiesOf(alice.id, 'channel_talk')).length === 1, 'channel_talk');
    });

    it('refuses a mic change from a socket outside the room it names', async () => {
      const a = await joined(alice, red);
      const ack = await a.emitAck('micStateChange', { micState: true, room: blue.rtcSession });
      expect(ack.success).toBe(false);
      expect((await a.next('error')).message).toBe(
        'micStateChange: this socket is in the room "RedTeam", not in "Blue".',
      );
      expect(await db().selectFrom('talk_bursts').selectAll().execute()).toEqual([]);
    });

    it('takes mic changes over HTTP (updateUserMicState/) from a member for itself', async () => {
      const a = await joined(alice, red);
      const b = await joined(bob, red);
      const on = await app.call(
        '/user/api/updateUserMicState/',
        { userId: alice.id, micState: true, channelName: 'Red Team' },
        alice.token,
      );
      expect(on.status).toBe(200);
      expect(await b.next('onMicStateChanged')).toEqual({
        id: a.id,
        userId: alice.id,
        name: 'Alice Martin',
        micState: true,
        room: red.rtcSession,
      });
      const off = await app.call(
        '/user/api/updateUserMicState/',
        { userId: alice.id, micState: 'false', channelName: 'Red Team' },
        alice.token,
      );
      expect(off.status).toBe(200);
      expect(await b.next('onMicStateChanged')).toMatchObject({ userId: alice.id, micState: false });
      const rows = await db().selectFrom('talk_bursts').selectAll().where('user_id', '=', alice.id).execute();
      expect(rows).toHaveLength(1);
      expect(rows[0].ended_at).not.toBeNull();
      expect(await activitiesOf(alice.id, 'channel_talk')).toHaveLength(1);

      const forOther = await app.call(
        '/user/api/updateUserMicState/',
        { userId: bob.id, micState: true, channelName: 'Red Team' },
        alice.token,
      );
      expect(forOther.status).toBe(403);
      const notMember = await app.call(
        '/user/api/updateUserMicState/',
        { userId: carol.id, micState: true, channelName: 'Red Team' },
        carol.token,
      );
      expect(notMember.status).toBe(403);
      expect(notMember.body.result).toBe('You are not a member of this channel.');
      const unknown = await app.call(
        '/user/api/updateUserMicState/',
        { userId: alice.id, micState: true, channelName: 'Nowhere' },
        alice.token,
      );
      expect(unknown.status).toBe(404);
      const bad = await app.call('/user/api/updateUserMicState/', { userId: alice.id, micState: 'loud' }, alice.token);
      expect(bad.status).toBe(400);
      expect(bad.body.result).toMatch(/micState/);
    });
  });

  describe('connectAdminToChannel/', () => {
    it("records the administrator's socket in the channel", async () => {
      const console = await open(admin);
      await eventually(() => presenceOf(console.id), 'presence row');
      const response = await app.call(
        '/user/api/connectAdminToChannel/',
        { userId: admin.id, channelId: red.id, socketId: console.id },
        admin.token,
      );
      expect(response).toMatchObject({ status: 200, body: { success: true } });
      expect((await presenceOf(console.id))?.channel_id).toBe(red.id);
      const users = await app.call('/user/api/getUsersInChannel', { channelId: red.id }, admin.token);
      expect(users.status).toBe(200);
    });

    it("refuses another user's socket, an unknown socket and a channel the member is not in", async () => {
      const bobs = await open(bob);
      await eventually(() => presenceOf(bobs.id), 'presence row');
      const foreign = await app.call(
        '/user/api/connectAdminToChannel/',
        { userId: alice.id, channelId: red.id, socketId: bobs.id },
        alice.token,
      );
      expect(foreign.status).toBe(403);
      const unknown = await app.call(
        '/user/api/connectAdminToChannel/',
        { userId: bob.id, channelId: red.id, socketId: 'nope' },
        bob.token,
      );
      expect(unknown.status).toBe(404);
      const notMember = await app.call(
        '/user/api/connectAdminToChannel/',
        { userId: bob.id, channelId: blue.id, socketId: bobs.id },
        bob.token,
      );
      expect(notMember.status).toBe(403);
      expect((await presenceOf(bobs.id))?.channel_id).toBeNull();
    });
  });

  describe('typing', () => {
    it('tells the other sockets of the room, not the typist and not other rooms', async () => {
      const a = await joined(alice, red);
      const b = await joined(bob, red);
      const c = await joined(carol, blue);
      await a.emitAck('typing', { room: red.rtcSession });
      expect(await b.next('typingResponse')).toEqual({
        id: a.id,
        userId: alice.id,
        name: 'Alice Martin',
        room: red.rtcSession,
      });
      a.socket.emit('typing');
      expect(await b.next('typingResponse')).toMatchObject({ id: a.id, room: red.rtcSession });
      await a.flush();
      await c.flush();
      expect(a.all('typingResponse')).toEqual([]);
      expect(c.all('typingResponse')).toEqual([]);
    });
  });

  describe('chat', () => {
    it('stores a socket message and pushes it to the room as messageResponse and onSendMessage', async () => {
      const a = await joined(alice, red);
      const b = await joined(bob, red);
      const c = await joined(carol, blue);
      expect(await a.emitAck('message', { channelId: red.id, message: '  Hello team  ' })).toEqual({
        success: true,
      });
      const pushed = await b.next('messageResponse');
      expect(pushed).toMatchObject({
        userId: alice.id,
        channelId: red.id,
        textMsg: 'Hello team',
        file: null,
        user: { display_name: 'Alice Martin' },
      });
      expect(await b.next('onSendMessage')).toEqual(pushed);
      expect(await a.next('messageResponse')).toEqual(pushed);
      const stored = await db().selectFrom('messages').selectAll().where('id', '=', pushed.id).executeTakeFirst();
      expect(stored?.text_msg).toBe('Hello team');
      expect(await activitiesOf(alice.id, 'message_send')).toHaveLength(1);
      await c.flush();
      expect(c.all('messageResponse')).toEqual([]);
    });

    it("accepts the 'message created' alias", async () => {
      const a = await joined(alice, red);
      await a.emitAck('message created', { channelId: String(red.id), message: 'alias' });
      expect(await a.next('onSendMessage')).toMatchObject({ textMsg: 'alias', channelId: red.id });
    });

    it('refuses a message to a channel the sender does not belong to, and a blank message', async () => {
      const c = await joined(carol, blue);
      const refused = await c.emitAck('message', { channelId: red.id, message: 'let me in' });
      expect(refused).toEqual({ success: false, result: 'message: you are not a member of the channel "Red Team".' });
      const blank = await c.emitAck('message', { channelId: blue.id, message: '   ' });
      expect(blank.success).toBe(false);
      expect(blank.result).toMatch(/^message: message:/);
      expect(await db().selectFrom('messages').selectAll().execute()).toEqual([]);
    });

    it('pushes a message sent over HTTP (sendMessageToChannel) to the sockets of the room', async () => {
      const a = await joined(alice, red);
      const b = await joined(bob, red);
      const sent = await app.call(
        '/user/api/sendMessageToChannel',
        { userId: admin.id, channelId: red.id, message: 'From the console' },
        admin.token,
      );
      expect(sent.status).toBe(200);
      const pushed = await a.next('messageResponse');
      expect(pushed).toMatchObject({ textMsg: 'From the console', userId: admin.id, channelId: red.id });
      expect(await b.next('onSendMessage')).toMatchObject({ id: pushed.id });
    });
  });

  describe('positions', () => {
    it('stores every position, pushes it to administrators and map users of the channels, logs it once per interval', async () => {
      const console = await open(admin);
      const withMap = await joined(alice, red);
      const withoutMap = await joined(bob, red);
      const outsider = await joined(carol, blue);
      await withoutMap.emitAck('onLocationChanged', { lat: 48.85, lng: 2.35, accuracy: 12 });
      const expected = { userId: bob.id, lat: 48.85, lng: 2.35, accuracy: 12, createdAt: expect.any(String) };
      expect(await console.next('onLocationChanged')).toEqual(expected);
      expect(await withMap.next('onLocationChanged')).toEqual(expected);
      await withoutMap.emitAck('onLocationChanged', { lat: 48.86, lng: 2.36 });
      expect(await console.next('onLocationChanged')).toMatchObject({ lat: 48.86, accuracy: null });

      const rows = await db().selectFrom('user_positions').selectAll().where('user_id', '=', bob.id).execute();
      expect(rows.map((r) => [r.lat, r.lng])).toEqual([
        [48.85, 2.35],
        [48.86, 2.36],
      ]);
      expect(await activitiesOf(bob.id, 'position_update')).toHaveLength(1);
      await outsider.flush();
      await withoutMap.flush();
      expect(outsider.all('onLocationChanged')).toEqual([]);
      expect(withoutMap.all('onLocationChanged')).toEqual([]);
    });

    it('rejects a position out of range', async () => {
      const a = await open(alice);
      const ack = await a.emitAck('onLocationChanged', { lat: 123, lng: 2 });
      expect(ack.success).toBe(false);
      expect(ack.result).toMatch(/^onLocationChanged: lat:/);
      expect(await db().selectFrom('user_positions').selectAll().execute()).toEqual([]);
    });
  });

  describe('status', () => {
    it('pushes onUserStatusChanged and userConnected to administrators and to the rooms of the channels', async () => {
      const console = await open(admin);
      const roommate = await joined(bob, red);
      const a = await open(alice);
      const online = { userId: alice.id, online: true, channelIds: [] };
      expect(await console.next('userConnected', (s) => s.userId === alice.id)).toEqual(online);
      expect(await console.next('onUserStatusChanged', (s) => s.userId === alice.id)).toEqual(online);
      expect(await roommate.next('onUserStatusChanged', (s) => s.userId === alice.id)).toEqual(online);

      a.socket.emit('join_room', { room: red.rtcSession, name: 'Alice' });
      expect(await console.next('onUserStatusChanged', (s) => s.userId === alice.id)).toEqual({
        ...online,
        channelIds: [red.id],
      });

      const second = await open(alice);
      await console.next('onUserStatusChanged', (s) => s.userId === alice.id);
      a.close();
      second.close();
      expect(await console.next('onUserStatusChanged', (s) => s.userId === alice.id && s.online === false)).toEqual({
        userId: alice.id,
        online: false,
        channelIds: [],
      });
      // One userConnected: the second socket of a user already online is not a new arrival.
      expect(console.all('userConnected').filter((s) => s.userId === alice.id)).toHaveLength(1);
    });
  });
});
