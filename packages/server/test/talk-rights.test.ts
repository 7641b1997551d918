/**
 * Who may talk (issue 25): a listen-only member (setChannelMemberRights canTalk false) hears and chats but its
 * press is refused, and loses a floor it holds when it is made listen-only; the spec's updateUserMicState and
 * micStateChange go through the floor like a press: refused while another holds it, and to a listener.
 */
import { describe, expect, it } from 'vitest';
import { type Account, databases } from './harness.ts';
import { eventually } from './realtime-harness.ts';
import { realtimeWorld } from './realtime-world.ts';

describe.each(databases)('the right to talk on %s', (dialect) => {
  const w = realtimeWorld(dialect);
  const room = () => w.red.rtcSession;
  const setCanTalk = (userId: number, canTalk: boolean, token = w.admin.token) =>
    w.app.call('/user/api/setChannelMemberRights', { channelId: w.red.id, userId, canTalk }, token);
  const micState = (account: Account, on: boolean) =>
    w.app.call(
      '/user/api/updateUserMicState/',
      { userId: account.id, micState: on, channelName: 'Red Team' },
      account.token,
    );
  const canTalkIn = async (token: string) => {
    const users = (await w.app.call('/user/api/getUsersInChannel', { channelId: w.red.id }, token)).body.res;
    return Object.fromEntries(users.map((u: { id: number; canTalk: boolean }) => [u.id, u.canTalk]));
  };

  it('lets a listen-only member hear and chat, never take the floor, and takes the floor back from it', async () => {
    expect((await setCanTalk(w.bob.id, false, w.alice.token)).status).toBe(403);
    expect((await setCanTalk(w.bob.id, false)).status).toBe(200);
    expect(await canTalkIn(w.admin.token)).toEqual({ [w.alice.id]: true, [w.bob.id]: false });
    expect(await canTalkIn(w.alice.token)).toEqual({ [w.alice.id]: true, [w.bob.id]: false });

    const a = await w.joined(w.alice, w.red);
    const b = await w.open(w.bob);
    expect(await b.emitAck('join_room', { room: room(), mode: 'talk' })).toEqual({
      success: true,
      room: room(),
      mode: 'talk',
    });
    expect(await a.next('user joined')).toMatchObject({ id: b.id, userId: w.bob.id, room: room(), mode: 'talk' });
    await a.emitAck('typing', { room: room() });
    expect(await b.next('typingResponse')).toMatchObject({ id: a.id, room: room() });
    await a.emitAck('message', { channelId: w.red.id, message: 'can you hear me' });
    expect(await b.next('onSendMessage')).toMatchObject({ userId: w.alice.id, textMsg: 'can you hear me' });
    expect(await b.emitAck('message', { channelId: w.red.id, message: 'loud and clear' })).toEqual({ success: true });
    expect(await a.next('onSendMessage', (m) => m.userId === w.bob.id)).toMatchObject({ textMsg: 'loud and clear' });

    expect(await b.emitAck('floor_request', { room: room() })).toEqual({ granted: false, reason: 'listen_only' });
    expect(await b.emitAck('micStateChange', { micState: true })).toEqual({
      success: false,
      result: 'micStateChange: you may only listen in this channel.',
    });
    await a.flush();
    expect(a.all('floor_taken')).toEqual([]);
    expect(a.all('onMicStateChanged')).toEqual([]);

    // Allowed to talk again: its press is granted once the server has read its new rights.
    expect((await setCanTalk(w.bob.id, true)).status).toBe(200);
    expect(await canTalkIn(w.admin.token)).toEqual({ [w.alice.id]: true, [w.bob.id]: true });
    await eventually(async () => {
      const answer = (await b.emitAck('floor_request', { room: room() })) as { granted?: boolean };
      return answer.granted === true;
    }, 'the press of a member allowed to talk again granted');
    expect(await a.next('floor_taken')).toMatchObject({ room: room(), userId: w.bob.id, name: 'Bob Durand' });

    // Made listen-only while it holds the floor: the floor goes back, and its next press is refused.
    expect((await setCanTalk(w.bob.id, false)).status).toBe(200);
    expect(await b.next('floor_revoked')).toEqual({ room: room(), reason: 'revoked' });
    expect(await a.next('floor_idle')).toEqual({ room: room() });
    expect(await b.emitAck('floor_request', { room: room() })).toEqual({ granted: false, reason: 'listen_only' });
    expect(await a.emitAck('floor_request', { room: room() })).toEqual({ granted: true, grantId: expect.any(String) });
  });

  it('takes updateUserMicState and micStateChange through the floor', async () => {
    const x = await w.joined(w.alice, w.red);
    const y = await w.joined(w.bob, w.red);
    const watcher = await w.joined(w.admin, w.red);
    expect(await x.emitAck('floor_request', { room: room() })).toEqual({ granted: true, grantId: expect.any(String) });
    await watcher.next('onMicStateChanged', (p) => p.userId === w.alice.id && p.micState === true);

    // Alice holds the floor: Bob's HTTP press is refused, and nobody sees his mic go on.
    const busy = await micState(w.bob, true);
    expect(busy.status).toBe(409);
    expect(busy.body).toMatchObject({ success: false, code: 'floor_busy' });
    await Promise.all([watcher.flush(), x.flush()]);
    for (const client of [watcher, x]) {
      expect(client.all('onMicStateChanged').filter((p) => p.userId === w.bob.id)).toEqual([]);
      expect(client.all('floor_taken').filter((p) => p.userId === w.bob.id)).toEqual([]);
    }
    expect((await w.presenceOf(y.id))?.mic_state).toBe(0);

    // Once Alice releases, Bob's call takes the floor and the room sees his mic on.
    x.socket.emit('floor_release', { room: room() });
    expect(await watcher.next('floor_idle')).toEqual({ room: room() });
    expect((await micState(w.bob, true)).status).toBe(200);
    expect(await watcher.next('onMicStateChanged', (p) => p.userId === w.bob.id)).toEqual({
      id: y.id,
      userId: w.bob.id,
      name: 'Bob Durand',
      micState: true,
      room: room(),
    });
    expect(await x.next('floor_taken', (p) => p.userId === w.bob.id)).toMatchObject({ room: room() });

    // A socket's micStateChange while Bob holds the floor: an error event, and its mic stays off.
    const refused = 'micStateChange: Bob Durand is talking: wait until the channel is free.';
    expect(await x.emitAck('micStateChange', { micState: true })).toEqual({ success: false, result: refused });
    expect((await x.next('error')).message).toBe(refused);
    await watcher.flush();
    expect(watcher.all('onMicStateChanged').filter((p) => p.userId === w.alice.id && p.micState)).toHaveLength(1);

    // Bob's HTTP release frees the floor; a listen-only member's HTTP press is refused.
    expect((await micState(w.bob, false)).status).toBe(200);
    expect(await watcher.next('floor_idle')).toEqual({ room: room() });
    expect((await setCanTalk(w.alice.id, false)).status).toBe(200);
    const listenOnly = await micState(w.alice, true);
    expect(listenOnly.status).toBe(403);
    expect(listenOnly.body).toMatchObject({ success: false, code: 'listen_only' });
  });
});
