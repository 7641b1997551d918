/**
 * Private calls (issue 27): who may call whom, the ring (incomingCall) and its answer, a hidden channel of two
 * where both talk push-to-talk, a decline, a timeout and a hang-up told to the caller, and a hidden channel
 * that no list shows and only its parties enter while the call is answered.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Account, databases, expectNoSecrets, type TestApp } from './harness.ts';
import { callRequests, privateCallCast } from './private-call-cast.ts';
import { eventually } from './realtime-harness.ts';

describe.each(databases)('private calls on %s', (dialect) => {
  let app: TestApp;
  let url: string;
  let admin: Account;
  let desk: Account;
  let mia: Account;
  let max: Account;
  let stranger: Account;
  let channelId: number;
  const { start, answer, hangUp, online, closeSockets } = callRequests(
    () => app,
    () => url,
  );

  const activityTypes = async () =>
    (await app.call('/user/api/getAllActivities/', { start: 0, limit: 100 }, admin.token)).body.res
      .activities as Array<{
      type: string;
      channel: { id: number | null; name: string } | null;
      user: { id: number | null } | null;
      durationMs?: number;
    }>;

  beforeEach(async () => {
    ({ app, url, admin, desk, mia, max, stranger, channelId } = await privateCallCast(dialect));
  });
  afterEach(async () => {
    closeSockets();
    await app.close();
  });

  it('rings the callee, is accepted, and both talk push-to-talk in a hidden channel of two', async () => {
    const deskSocket = await online(desk);
    const miaSocket = await online(mia);
    const started = await start(desk, mia);
    expect(started.status).toBe(200);
    expect(started.body.code).toBe('call_ringing');
    const { callId, room } = started.body.res;
    expect(await miaSocket.next('incomingCall')).toEqual({
      callId,
      room,
      from: { userId: desk.id, name: 'Dana Desk' },
    });
    expect(await deskSocket.next('privateCallUpdated')).toMatchObject({ callId, state: 'ringing' });

    // Nobody enters the room while it rings.
    const early = await deskSocket.emitAck('join_room', { room, mode: 'talk' });
    expect(early).toEqual({ success: false, result: 'join_room: this private call is not going on.' });

    const accepted = await answer(mia, callId, true);
    expect(accepted.status).toBe(200);
    expect(accepted.body.res).toMatchObject({ callId, state: 'active', caller: { userId: desk.id } });
    expect(await deskSocket.next('privateCallUpdated', (call) => call.state === 'active')).toMatchObject({ callId });

    expect(await deskSocket.emitAck('join_room', { room, mode: 'talk' })).toEqual({
      success: true,
      room,
      mode: 'talk',
    });
    expect(await miaSocket.emitAck('join_room', { room, mode: 'talk' })).toEqual({ success: true, room, mode: 'talk' });
    // Push-to-talk both ways: one at a time, each heard by the other.
    expect(await deskSocket.emitAck('floor_request', { room })).toEqual({ granted: true, grantId: expect.any(String) });
    expect(await miaSocket.next('floor_taken', (taken) => taken.room === room)).toMatchObject({ userId: desk.id });
    deskSocket.socket.emit('floor_release', { room });
    await miaSocket.next('floor_idle', (idle) => idle.room === room);
    expect(await miaSocket.emitAck('floor_request', { room })).toEqual({ granted: true, grantId: expect.any(String) });
    expect(
      await deskSocket.next('floor_taken', (taken) => taken.room === room && taken.userId !== desk.id),
    ).toMatchObject({ userId: mia.id });
    miaSocket.socket.emit('floor_release', { room });

    // An administrator is no party: the room stays theirs.
    const adminSocket = await online(admin);
    expect((await adminSocket.emitAck('join_room', { room, mode: 'listen' })).success).toBe(false);

    expect((await hangUp(mia, callId)).status).toBe(200);
    expect(await deskSocket.next('privateCallUpdated', (call) => call.state === 'ended')).toMatchObject({ callId });
    const types = await eventually(async () => {
      const found = await activityTypes();
      return found.some((a) => a.type === 'private_call') && found;
    }, 'the private_call activity');
    const call = types.find((a) => a.type === 'private_call');
    // The entry names the callee; no id of the hidden channel leaves the call (issue 35).
    expect(call).toMatchObject({ user: { id: desk.id }, channel: { id: null, name: 'Mia Field' } });
    expect(call?.durationMs).toBeGreaterThanOrEqual(0);
    // The hidden channel's joins, talk and leaves are not in the log: the call is.
    const hiddenId = (await app.call('/user/api/getPrivateCalls', {}, desk.token)).body.res[0].channelId as number;
    // Over: its parties are out of the room, and may not come back.
    for (const party of [desk, mia])
      await eventually(
        async () => !(await app.services.presence.socketIn(party.id, hiddenId)),
        'the parties out of the room',
      );
    expect((await deskSocket.emitAck('join_room', { room, mode: 'talk' })).success).toBe(false);
    expect(types.filter((a) => a.channel?.id === hiddenId)).toEqual([]);
    expect(types.filter((a) => a.type === 'private_call')).toHaveLength(1);
    // Both parties find the call among theirs, with its channel (its voice history).
    const history = await app.call('/user/api/getPrivateCalls', {}, mia.token);
    expect(history.body.res[0]).toMatchObject({ callId, state: 'ended', channelId: hiddenId });
    const voice = await app.call('/user/api/getChannelVoiceMessages', { channelId: hiddenId }, mia.token);
    expect(voice.status).toBe(200);
  });

  it('leaves both parties in their channels however the call ends, hearing them after (issue 58)', async () => {
    const deskSocket = await online(desk);
    const miaSocket = await online(mia);
    for (const socket of [deskSocket, miaSocket])
      expect(await socket.emitAck('join_room', { room: 'North', mode: 'talk' })).toMatchObject({ success: true });
    const ends = [
      { who: mia, accept: true },
      { who: desk, accept: true },
      { who: mia, accept: false },
    ];
    for (const end of ends) {
      const { callId, room } = (await start(desk, mia)).body.res;
      await miaSocket.next('incomingCall', (ring) => ring.callId === callId);
      if (end.accept) {
        expect((await answer(mia, callId, true)).status).toBe(200);
        for (const socket of [deskSocket, miaSocket])
          expect(await socket.emitAck('join_room', { room, mode: 'talk' })).toMatchObject({ success: true });
        expect((await hangUp(end.who, callId)).status).toBe(200);
      } else expect((await answer(mia, callId, false)).status).toBe(200);
      await deskSocket.next(
        'privateCallUpdated',
        (call) => call.callId === callId && call.state !== 'ringing' && call.state !== 'active',
      );
      const hiddenId = (await app.call('/user/api/getPrivateCalls', {}, desk.token)).body.res[0].channelId as number;
      for (const party of [desk, mia])
        await eventually(async () => !(await app.services.presence.socketIn(party.id, hiddenId)), 'out of the call');
      // The pages' goodbye to the call's room comes after the server put them out of it: it changes nothing.
      for (const socket of [deskSocket, miaSocket])
        expect(await socket.emitAck('leave_room', { room })).toEqual({ success: true });
      for (const party of [desk, mia])
        expect(await app.services.presence.socketIn(party.id, channelId)).toMatchObject({ mode: 'talk' });
      // The desk's next over on North reaches Mia.
      expect(await deskSocket.emitAck('floor_request', { room: 'North' })).toMatchObject({ granted: true });
      expect(await miaSocket.next('floor_taken', (taken) => taken.room === 'North')).toMatchObject({ userId: desk.id });
      deskSocket.socket.emit('floor_release', { room: 'North' });
      await miaSocket.next('floor_idle', (idle) => idle.room === 'North');
    }
    const leaves = (await activityTypes()).filter((a) => a.type === 'channel_leave');
    expect(leaves).toEqual([]);
  });

  it('tells the caller of a decline and of a call nobody answered, and stops the ring', async () => {
    const deskSocket = await online(desk);
    const maxSocket = await online(max);
    const first = (await start(desk, max)).body.res.callId;
    await maxSocket.next('incomingCall');
    const declined = await answer(max, first, false);
    expect(declined.body).toMatchObject({ code: 'call_declined', res: { state: 'declined' } });
    expect(await deskSocket.next('privateCallUpdated', (call) => call.state === 'declined')).toMatchObject({
      callId: first,
    });
    // Answered once: a second answer is too late.
    expect((await answer(max, first, true)).body.code).toBe('call_not_ringing');

    const second = (await start(desk, max)).body.res.callId;
    expect(await deskSocket.next('privateCallUpdated', (call) => call.state === 'missed')).toMatchObject({
      callId: second,
    });
    expect(await maxSocket.next('privateCallUpdated', (call) => call.state === 'missed')).toMatchObject({
      callId: second,
    });
    expect((await answer(max, second, true)).status).toBe(409);

    // A caller's hang-up while it rings cancels it.
    const third = (await start(max, desk)).body.res.callId;
    expect((await hangUp(max, third)).status).toBe(200);
    expect(await deskSocket.next('privateCallUpdated', (call) => call.callId === third)).toMatchObject({
      state: 'ringing',
    });
    expect(await deskSocket.next('privateCallUpdated', (call) => call.callId === third)).toMatchObject({
      state: 'cancelled',
    });
  });

  it('lets a member call the desks of its channels and administrators, and members only when allowed', async () => {
    // A member calls a dispatcher of its channel and an administrator.
    const toDesk = await start(mia, desk);
    expect(toDesk.status).toBe(200);
    await hangUp(mia, toDesk.body.res.callId);
    const toAdmin = await start(mia, admin);
    expect(toAdmin.status).toBe(200);
    await hangUp(mia, toAdmin.body.res.callId);
    // Not another member, not even of its channel.
    const toMember = await start(mia, max);
    expect(toMember.status).toBe(403);
    // The refusal names nobody (issue 35).
    expect(toMember.body).toMatchObject({
      code: 'call_not_allowed',
      result:
        'You may not call this person privately: a member calls the dispatchers and administrators of its channels.',
    });
    // A dispatcher of another channel is not one of its desks; the dispatcher cannot call outside its channels.
    expect((await start(stranger, desk)).status).toBe(403);
    expect((await start(desk, stranger)).status).toBe(403);
    // An administrator calls anyone.
    const fromAdmin = await start(admin, stranger);
    expect(fromAdmin.status).toBe(200);
    await hangUp(stranger, fromAdmin.body.res.callId);

    // An administrator allows members to call members (audited); a member cannot change it.
    expect((await app.call('/user/api/setCallSettings', { membersMayCallMembers: true }, mia.token)).status).toBe(403);
    const allowed = await app.call('/user/api/setCallSettings', { membersMayCallMembers: true }, admin.token);
    expect(allowed.body).toMatchObject({ code: 'call_settings_saved', res: { membersMayCallMembers: true } });
    expect((await app.call('/user/api/getCallSettings', {}, mia.token)).body.res).toEqual({
      membersMayCallMembers: true,
    });
    const now = await start(mia, max);
    expect(now.status).toBe(200);
    // ... of their channels only.
    expect((await start(stranger, max)).status).toBe(403);
    const audit = await app.call('/user/api/getAuditLog', { targetType: 'setting' }, admin.token);
    expect(audit.body.res.entries[0]).toMatchObject({
      action: 'settings.calls',
      actor: { id: admin.id },
      changes: { membersMayCallMembers: { before: null, after: true } },
    });

    // Busy: the callee and the caller are in a call.
    const busy = await start(desk, max);
    // Busy, without the name, nor whether the person talks, rings or is rung.
    expect(busy.status).toBe(409);
    expect(busy.body).toMatchObject({
      code: 'call_busy',
      result: 'Busy: this person cannot take your call now. Try again later.',
    });
    expect((await start(mia, desk)).body.code).toBe('call_in_progress');
    // Only the callee answers; only a party hangs up.
    expect((await answer(mia, now.body.res.callId, true)).body.code).toBe('not_a_call_party');
    expect((await hangUp(desk, now.body.res.callId)).body.code).toBe('not_a_call_party');
    expect((await hangUp(desk, 999999)).status).toBe(404);
    expect((await start(mia, mia)).body.code).toBe('call_self');
    expect((await start(mia, { ...max, id: 999999 })).status).toBe(404);
  });

  it('keeps the hidden channel out of every list, and out of the channels calls manage', async () => {
    const call = (await start(desk, mia)).body.res;
    await answer(mia, call.callId, true);
    const hidden = (await app.call('/user/api/getPrivateCalls', {}, desk.token)).body.res[0].channelId as number;
    const names = (list: Array<{ name: string }>) => list.map((channel) => channel.name);

    expect(names((await app.call('/user/api/getAllChannels', {}, admin.token)).body.res)).toEqual(['North']);
    expect(names((await app.call('/user/api/getChannelOverviews', {}, admin.token)).body.res)).toEqual(['North']);
    expect(names((await app.call('/user/api/getChannelsToExport/', {}, admin.token)).body.res)).toEqual(['North']);
    expect(names((await app.call('/user/api/getMyChannels', {}, mia.token)).body.res)).toEqual(['North']);
    expect(names((await app.call('/user/api/getMyChannels', {}, desk.token)).body.res)).toEqual(['North']);
    const statistics = (await app.call('/user/api/getStatistics', {}, admin.token)).body.res;
    expect(statistics.totalChannels).toBe(1);
    expect(statistics.topChannels.map((c: { id: number }) => c.id)).toEqual([channelId]);
    const users = (await app.call('/user/api/getAllUsers', {}, admin.token)).body.res as Array<{
      id: number;
      channels: Array<{ id: number }>;
    }>;
    expect(users.find((user) => user.id === mia.id)?.channels.map((c) => c.id)).toEqual([channelId]);
    const exported = (await app.call('/user/api/getListUsersToExport/', {}, admin.token)).body.res;
    expect(exported.find((row: { identifier: string }) => row.identifier === mia.identifier).canal).toBe('North');
    const user = (await app.call('/user/api/getUserById/', { userId: mia.id }, mia.token)).body.res;
    expect(user.channels.map((c: { id: number }) => c.id)).toEqual([channelId]);
    expectNoSecrets(user);

    // The channel calls do not know it.
    expect(
      (await app.call('/user/api/updateChannel', { channelId: hidden, channelName: 'X' }, admin.token)).status,
    ).toBe(404);
    expect((await app.call('/user/api/deleteChannel', { channelId: hidden }, admin.token)).status).toBe(404);
    expect(
      (await app.call('/user/api/addUserToChannel', { userId: max.id, channelId: hidden }, admin.token)).status,
    ).toBe(404);
    expect(
      (await app.call('/user/api/updateChannelUsers', { userId: max.id, channelList: [hidden] }, admin.token)).status,
    ).toBe(400);
    // Setting Mia's channels keeps her in the call's channel: the call goes on.
    await app.call('/user/api/updateChannelUsers', { userId: mia.id, channelList: [channelId] }, admin.token);
    const miaSocket = await online(mia);
    expect((await miaSocket.emitAck('join_room', { room: call.room, mode: 'talk' })).success).toBe(true);
    // Nor does the dispatch console.
    const monitor = await app.call(
      '/user/api/setMonitorList',
      { channels: [{ channelId: hidden }], unselectedVolume: 40 },
      admin.token,
    );
    expect(monitor.status).toBe(404);
  });

  it('limits how many calls one user starts in a minute', async () => {
    for (let i = 0; i < 10; i += 1) {
      const started = await start(desk, mia);
      expect(started.status).toBe(200);
      await hangUp(desk, started.body.res.callId);
    }
    const refused = await start(desk, mia);
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('too_many_calls');
  });

  it('ends an answered call whose party left and did not come back', async () => {
    const deskSocket = await online(desk);
    const miaSocket = await online(mia);
    const { callId, room } = (await start(desk, mia)).body.res;
    await answer(mia, callId, true);
    await deskSocket.emitAck('join_room', { room, mode: 'talk' });
    await miaSocket.emitAck('join_room', { room, mode: 'talk' });
    miaSocket.close();
    expect(await deskSocket.next('privateCallUpdated', (c) => c.state === 'ended')).toMatchObject({ callId });
  });
});
