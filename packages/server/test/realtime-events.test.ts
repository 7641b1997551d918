/**
 * Events in a channel room over the real-time socket (spec section 7): the signalling relay, push-to-talk,
 * connectAdminToChannel, typing, chat (with the spec's messageResponse twin) and positions.
 */
import { describe, expect, it } from 'vitest';
import { databases } from './harness.ts';
import { eventually } from './realtime-harness.ts';
import { realtimeWorld } from './realtime-world.ts';

describe.each(databases)('events in a real-time room on %s', (dialect) => {
  const w = realtimeWorld(dialect);

  describe('signalling relay', () => {
    it('relays offer, answer and candidate to the named peer only, with the real sender id', async () => {
      const a = await w.joined(w.alice, w.red);
      const b = await w.joined(w.bob, w.red);
      const watcher = await w.joined(w.admin, w.red);

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
        room: w.red.rtcSession,
      });

      b.socket.emit('answer', { sdp: { type: 'answer', sdp: 'v=0' }, answerSendID: 'forged', answerReceiveID: a.id });
      expect(await a.next('getAnswer')).toEqual({
        sdp: { type: 'answer', sdp: 'v=0' },
        answerSendID: b.id,
        room: w.red.rtcSession,
      });

      a.socket.emit('candidate', {
        candidate: { candidate: 'candidate:1' },
        candidateSendID: 'x',
        candidateReceiveID: b.id,
      });
      expect(await b.next('getCandidate')).toEqual({
        candidate: { candidate: 'candidate:1' },
        candidateSendID: a.id,
        room: w.red.rtcSession,
      });

      await watcher.flush();
      expect(watcher.all('getOffer')).toEqual([]);
      expect(watcher.all('getAnswer')).toEqual([]);
      expect(watcher.all('getCandidate')).toEqual([]);
    });

    it('does not relay to a socket of another room', async () => {
      const a = await w.joined(w.alice, w.red);
      const c = await w.joined(w.carol, w.blue);
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
      const b = await w.joined(w.bob, w.red);
      const outsider = await w.open(w.alice);
      const ack = await outsider.emitAck('offer', { sdp: 'x', offerSendID: 'x', offerReceiveID: b.id });
      expect(ack).toEqual({ success: false, result: 'offer: join a room first (join_room).' });
      expect((await outsider.next('error')).message).toBe('offer: join a room first (join_room).');
      await b.flush();
      expect(b.all('getOffer')).toEqual([]);
    });

    it('rejects a malformed offer with an error naming the field', async () => {
      const a = await w.joined(w.alice, w.red);
      a.socket.emit('offer', { sdp: 'x', offerSendID: a.id });
      expect((await a.next('error')).message).toBe('offer: offerReceiveID: expected string');
    });
  });

  describe('push-to-talk', () => {
    it('pushes mic changes to the room and records one talk burst and one channel_talk per press', async () => {
      const a = await w.joined(w.alice, w.red);
      const b = await w.joined(w.bob, w.red);
      a.socket.emit('micStateChange', { id: a.id, micState: true, room: w.red.rtcSession });
      const expected = { id: a.id, userId: w.alice.id, name: 'Alice Martin', micState: true, room: w.red.rtcSession };
      expect(await b.next('onMicStateChanged')).toEqual(expected);
      expect(await a.next('onMicStateChanged')).toEqual(expected);
      a.socket.emit('micStateChange', { id: a.id, micState: 'false', room: w.red.rtcSession });
      expect(await b.next('onMicStateChanged')).toEqual({ ...expected, micState: false });

      const bursts = await eventually(async () => {
        const rows = await w.db().selectFrom('talk_bursts').selectAll().where('user_id', '=', w.alice.id).execute();
        return rows.length === 1 && rows[0].ended_at !== null && rows;
      }, 'a closed talk burst');
      expect(bursts[0]).toMatchObject({ channel_id: w.red.id, channel_name: 'Red Team' });
      expect(String(bursts[0].ended_at) >= bursts[0].started_at).toBe(true);
      await eventually(async () => (await w.activitiesOf(w.alice.id, 'channel_talk')).length === 1, 'channel_talk');
    });

    it('ends the burst of a talker who disconnects, and shows its mic off to the others', async () => {
      const a = await w.joined(w.alice, w.red);
      const b = await w.joined(w.bob, w.red);
      await a.emitAck('micStateChange', { micState: true });
      await b.next('onMicStateChanged', (p) => p.micState === true);
      const id = a.id;
      a.close();
      expect(await b.next('onMicStateChanged')).toMatchObject({ id, userId: w.alice.id, micState: false });
      const burst = await eventually(
        () =>
          w
            .db()
            .selectFrom('talk_bursts')
            .selectAll()
            .where('user_id', '=', w.alice.id)
            .where('ended_at', 'is not', null)
            .executeTakeFirst(),
        'the burst closed',
      );
      expect(burst.channel_id).toBe(w.red.id);
      await eventually(async () => (await w.activitiesOf(w.alice.id, 'channel_talk')).length === 1, 'channel_talk');
    });

    it('refuses a mic change from a socket outside the room it names', async () => {
      const a = await w.joined(w.alice, w.red);
      const ack = await a.emitAck('micStateChange', { micState: true, room: w.blue.rtcSession });
      expect(ack.success).toBe(false);
      expect((await a.next('error')).message).toBe(
        'micStateChange: this socket is in the room "RedTeam", not in "Blue".',
      );
      expect(await w.db().selectFrom('talk_bursts').selectAll().execute()).toEqual([]);
    });

    it('takes mic changes over HTTP (updateUserMicState/) from a member for itself', async () => {
      const a = await w.joined(w.alice, w.red);
      const b = await w.joined(w.bob, w.red);
      const on = await w.app.call(
        '/user/api/updateUserMicState/',
        { userId: w.alice.id, micState: true, channelName: 'Red Team' },
        w.alice.token,
      );
      expect(on.status).toBe(200);
      expect(await b.next('onMicStateChanged')).toEqual({
        id: a.id,
        userId: w.alice.id,
        name: 'Alice Martin',
        micState: true,
        room: w.red.rtcSession,
      });
      const off = await w.app.call(
        '/user/api/updateUserMicState/',
        { userId: w.alice.id, micState: 'false', channelName: 'Red Team' },
        w.alice.token,
      );
      expect(off.status).toBe(200);
      expect(await b.next('onMicStateChanged')).toMatchObject({ userId: w.alice.id, micState: false });
      const rows = await w.db().selectFrom('talk_bursts').selectAll().where('user_id', '=', w.alice.id).execute();
      expect(rows).toHaveLength(1);
      expect(rows[0].ended_at).not.toBeNull();
      expect(await w.activitiesOf(w.alice.id, 'channel_talk')).toHaveLength(1);

      const forOther = await w.app.call(
        '/user/api/updateUserMicState/',
        { userId: w.bob.id, micState: true, channelName: 'Red Team' },
        w.alice.token,
      );
      expect(forOther.status).toBe(403);
      const notMember = await w.app.call(
        '/user/api/updateUserMicState/',
        { userId: w.carol.id, micState: true, channelName: 'Red Team' },
        w.carol.token,
      );
      expect(notMember.status).toBe(403);
      expect(notMember.body.result).toBe('You are not a member of this channel.');
      const unknown = await w.app.call(
        '/user/api/updateUserMicState/',
        { userId: w.alice.id, micState: true, channelName: 'Nowhere' },
        w.alice.token,
      );
      expect(unknown.status).toBe(404);
      const bad = await w.app.call(
        '/user/api/updateUserMicState/',
        { userId: w.alice.id, micState: 'loud' },
        w.alice.token,
      );
      expect(bad.status).toBe(400);
      expect(bad.body.result).toMatch(/micState/);
    });
  });

  describe('connectAdminToChannel/', () => {
    it("records the administrator's socket in the channel", async () => {
      const console = await w.open(w.admin);
      await eventually(() => w.presenceOf(console.id), 'presence row');
      const response = await w.app.call(
        '/user/api/connectAdminToChannel/',
        { userId: w.admin.id, channelId: w.red.id, socketId: console.id },
        w.admin.token,
      );
      expect(response).toMatchObject({ status: 200, body: { success: true } });
      expect((await w.presenceOf(console.id))?.channel_id).toBe(w.red.id);
      const users = await w.app.call('/user/api/getUsersInChannel', { channelId: w.red.id }, w.admin.token);
      expect(users.status).toBe(200);
    });

    it("refuses another user's socket, an unknown socket and a channel the member is not in", async () => {
      const bobs = await w.open(w.bob);
      await eventually(() => w.presenceOf(bobs.id), 'presence row');
      const foreign = await w.app.call(
        '/user/api/connectAdminToChannel/',
        { userId: w.alice.id, channelId: w.red.id, socketId: bobs.id },
        w.alice.token,
      );
      expect(foreign.status).toBe(403);
      const unknown = await w.app.call(
        '/user/api/connectAdminToChannel/',
        { userId: w.bob.id, channelId: w.red.id, socketId: 'nope' },
        w.bob.token,
      );
      expect(unknown.status).toBe(404);
      const notMember = await w.app.call(
        '/user/api/connectAdminToChannel/',
        { userId: w.bob.id, channelId: w.blue.id, socketId: bobs.id },
        w.bob.token,
      );
      expect(notMember.status).toBe(403);
      expect((await w.presenceOf(bobs.id))?.channel_id).toBeNull();
    });
  });

  describe('typing', () => {
    it('tells the other sockets of the room, not the typist and not other rooms', async () => {
      const a = await w.joined(w.alice, w.red);
      const b = await w.joined(w.bob, w.red);
      const c = await w.joined(w.carol, w.blue);
      await a.emitAck('typing', { room: w.red.rtcSession });
      expect(await b.next('typingResponse')).toEqual({
        id: a.id,
        userId: w.alice.id,
        name: 'Alice Martin',
        room: w.red.rtcSession,
      });
      a.socket.emit('typing');
      expect(await b.next('typingResponse')).toMatchObject({ id: a.id, room: w.red.rtcSession });
      await a.flush();
      await c.flush();
      expect(a.all('typingResponse')).toEqual([]);
      expect(c.all('typingResponse')).toEqual([]);
    });
  });

  describe('chat', () => {
    it('stores a socket message and pushes it to the room: messageResponse and onSendMessage to spec clients, onSendMessage only with pushes=once', async () => {
      const a = await w.joined(w.alice, w.red);
      const b = await w.joined(w.bob, w.red);
      const c = await w.joined(w.carol, w.blue);
      const once = await w.joined(w.admin, w.red, { pushesOnce: true });
      expect(await a.emitAck('message', { channelId: w.red.id, message: '  Hello team  ' })).toEqual({
        success: true,
      });
      const pushed = await b.next('messageResponse');
      expect(pushed).toMatchObject({
        userId: w.alice.id,
        channelId: w.red.id,
        textMsg: 'Hello team',
        file: null,
        user: { display_name: 'Alice Martin' },
      });
      expect(await b.next('onSendMessage')).toEqual(pushed);
      expect(await a.next('messageResponse')).toEqual(pushed);
      expect(await once.next('onSendMessage')).toEqual(pushed);
      // Each twin once to a spec client; no twin to a client that asked for one push per change.
      await Promise.all([b.flush(), once.flush()]);
      expect(b.all('messageResponse')).toEqual([pushed]);
      expect(b.all('onSendMessage')).toEqual([pushed]);
      expect(once.all('onSendMessage')).toEqual([pushed]);
      expect(once.all('messageResponse')).toEqual([]);
      const stored = await w.db().selectFrom('messages').selectAll().where('id', '=', pushed.id).executeTakeFirst();
      expect(stored?.text_msg).toBe('Hello team');
      expect(await w.activitiesOf(w.alice.id, 'message_send')).toHaveLength(1);
      await c.flush();
      expect(c.all('messageResponse')).toEqual([]);
    });

    it("accepts the 'message created' alias", async () => {
      const a = await w.joined(w.alice, w.red);
      await a.emitAck('message created', { channelId: String(w.red.id), message: 'alias' });
      expect(await a.next('onSendMessage')).toMatchObject({ textMsg: 'alias', channelId: w.red.id });
    });

    it('refuses a message to a channel the sender does not belong to, and a blank message', async () => {
      const c = await w.joined(w.carol, w.blue);
      const refused = await c.emitAck('message', { channelId: w.red.id, message: 'let me in' });
      expect(refused).toEqual({ success: false, result: 'message: you are not a member of the channel "Red Team".' });
      const blank = await c.emitAck('message', { channelId: w.blue.id, message: '   ' });
      expect(blank.success).toBe(false);
      expect(blank.result).toMatch(/^message: message:/);
      expect(await w.db().selectFrom('messages').selectAll().execute()).toEqual([]);
    });

    it('pushes a message sent over HTTP (sendMessageToChannel) to the sockets of the room', async () => {
      const a = await w.joined(w.alice, w.red);
      const b = await w.joined(w.bob, w.red);
      const sent = await w.app.call(
        '/user/api/sendMessageToChannel',
        { userId: w.admin.id, channelId: w.red.id, message: 'From the console' },
        w.admin.token,
      );
      expect(sent.status).toBe(200);
      const pushed = await a.next('messageResponse');
      expect(pushed).toMatchObject({ textMsg: 'From the console', userId: w.admin.id, channelId: w.red.id });
      expect(await b.next('onSendMessage')).toMatchObject({ id: pushed.id });
    });
  });

  describe('positions', () => {
    it('stores every position, pushes it to administrators and map users of the channels, logs it once per interval', async () => {
      const console = await w.open(w.admin);
      const withMap = await w.joined(w.alice, w.red);
      const withoutMap = await w.joined(w.bob, w.red);
      const outsider = await w.joined(w.carol, w.blue);
      await withoutMap.emitAck('onLocationChanged', { lat: 48.85, lng: 2.35, accuracy: 12 });
      const expected = { userId: w.bob.id, lat: 48.85, lng: 2.35, accuracy: 12, createdAt: expect.any(String) };
      expect(await console.next('onLocationChanged')).toEqual(expected);
      expect(await withMap.next('onLocationChanged')).toEqual(expected);
      await withoutMap.emitAck('onLocationChanged', { lat: 48.86, lng: 2.36 });
      expect(await console.next('onLocationChanged')).toMatchObject({ lat: 48.86, accuracy: null });

      const rows = await w.db().selectFrom('user_positions').selectAll().where('user_id', '=', w.bob.id).execute();
      expect(rows.map((r) => [r.lat, r.lng])).toEqual([
        [48.85, 2.35],
        [48.86, 2.36],
      ]);
      expect(await w.activitiesOf(w.bob.id, 'position_update')).toHaveLength(1);
      await outsider.flush();
      await withoutMap.flush();
      expect(outsider.all('onLocationChanged')).toEqual([]);
      expect(withoutMap.all('onLocationChanged')).toEqual([]);
    });

    it('rejects a position out of range', async () => {
      const a = await w.open(w.alice);
      const ack = await a.emitAck('onLocationChanged', { lat: 123, lng: 2 });
      expect(ack.success).toBe(false);
      expect(ack.result).toMatch(/^onLocationChanged: lat:/);
      expect(await w.db().selectFrom('user_positions').selectAll().execute()).toEqual([]);
    });
  });
});
