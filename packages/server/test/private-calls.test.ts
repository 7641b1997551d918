/**
 * Private calls (issue 27): who may call whom, the ring (incomingCall) and its answer, a hidden channel of two
 * where both talk push-to-talk, a decline, a timeout and a hang-up told to the caller, and a hidden channel
 * that no list shows and only its parties enter while the call is answered.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type Account,
  createMember,
  databases,
  expectNoSecrets,
  signUpAdmin,
  startApp,
  type TestApp,
} from './harness.ts';
import { connect, eventually, listen, type TestClient } from './realtime-harness.ts';
import { createWithRole } from './role-fixtures.ts';

describe.each(databases)('private calls on %s', (dialect) => {
  let app: TestApp;
  let url: string;
  let admin: Account;
  let desk: Account;
  let mia: Account;
  let max: Account;
  let stranger: Account;
  let channelId: number;
  const clients: TestClient[] = [];

  const online = async (account: Account) => {
    const client = await connect(url, account.token, { pushesOnce: true });
    clients.push(client);
    return client;
  };
  const start = (from: Account, to: Account) => app.call('/user/api/startPrivateCall', { userId: to.id }, from.token);
  const answer = (by: Account, callId: number, accept: boolean) =>
    app.call('/user/api/answerPrivateCall', { callId, accept }, by.token);
  const hangUp = (by: Account, callId: number) => app.call('/user/api/endPrivateCall', { callId }, by.token);
  const activityTypes = async () =>
    (await app.call('/user/api/getAllActivities/', { start: 0, limit: 100 }, admin.token)).body.res
      .activities as Array<{
      type: string;
      channel: { id: number | null; name: string } | null;
      user: { id: number | null } | null;
      durationMs?: number;
    }>;

  beforeEach(async () => {
    app = await startApp(dialect, { privateCallRingMs: 1500 });
    url = await listen(app);
    admin = await signUpAdmin(app);
    desk = await createWithRole(app, admin, 'dispatcher', { firstName: 'Dana', lastName: 'Desk' });
    mia = await createMember(app, admin, { firstName: 'Mia', lastName: 'Field' });
    max = await createMember(app, admin, { firstName: 'Max', lastName: 'Field' });
    stranger = await createMember(app, admin, { firstName: 'Sam', lastName: 'Elsewhere' });
    channelId = (await app.call('/user/api/createChannel', { channelName: 'North' }, admin.token)).body.res.id;
    await app.services.memberships.add(channelId, [desk.id, mia.id, max.id]);
  });
  afterEach(async () => {
    for (const client of clients.splice(0)) client.close();
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

  describe('private stays private (issue 35)', () => {
    const same = async (path: string, body: (channelId: number) => object, token: string, hidden: number) => {
      const [asHidden, asMissing] = [
        await app.call(path, body(hidden), token),
        await app.call(path, body(999_999), token),
      ];
      expect({ path, status: asHidden.status, code: asHidden.body.code }).toEqual({
        path,
        status: asMissing.status,
        code: asMissing.body.code,
      });
      expect(asHidden.status, `${path}: ${JSON.stringify(asHidden.body)}`).toBeGreaterThanOrEqual(403);
      return asHidden;
    };
    const hour = () => ({ from: new Date(Date.now() - 3600_000).toISOString(), to: new Date().toISOString() });

    it('answers for the hidden channel as for a channel that does not exist, administrators included', async () => {
      const call = (await start(desk, mia)).body.res;
      await answer(mia, call.callId, true);
      const hidden = (await app.call('/user/api/getPrivateCalls', {}, desk.token)).body.res[0].channelId as number;
      for (const who of [admin, max, desk, mia]) {
        await same('/user/api/getchannelmessagelistForAdmin', (channelId) => ({ channelId }), who.token, hidden);
        await same('/user/api/getUsersInChannel', (channelId) => ({ channelId }), who.token, hidden);
        await same('/user/api/sendMessage', (channelId) => ({ channelId, textMsg: 'hello' }), who.token, hidden);
        await same('/user/api/getGeofences', (channelId) => ({ channelId }), who.token, hidden);
        await same(
          '/user/api/exportPositions',
          (channelId) => ({ channelId, format: 'gpx', ...hour() }),
          who.token,
          hidden,
        );
        await same('/user/api/exportVoiceMessages', (channelId) => ({ channelId, ...hour() }), who.token, hidden);
      }
      // The voice history is its two parties' only.
      for (const who of [admin, max])
        await same('/user/api/getChannelVoiceMessages', (channelId) => ({ channelId }), who.token, hidden);
      for (const party of [desk, mia])
        expect((await app.call('/user/api/getChannelVoiceMessages', { channelId: hidden }, party.token)).status).toBe(
          200,
        );
      // Sockets: no watch, and no room, for an administrator either (the answer of a room that does not exist).
      const adminSocket = await online(admin);
      expect(await adminSocket.emitAck('watch_channels', { channelIds: [hidden, channelId] })).toEqual({
        success: true,
        channelIds: [channelId],
      });
      expect(await adminSocket.emitAck('join_room', { room: call.room, mode: 'listen' })).toEqual({
        success: false,
        result: `join_room: there is no channel with the room "${call.room}".`,
      });
      // Nobody joins it by name or by id; nobody is its member, the parties neither.
      const byName = await app.call(
        '/user/api/updateUserChannelsByChannelName/',
        { userIdentifier: max.identifier, channelNames: [call.room] },
        admin.token,
      );
      expect(byName.status).toBe(200);
      expect(byName.body.params).toEqual({ count: 0 });
      expect(
        (await app.call('/user/api/addUserToChannel', { userId: max.id, channelId: hidden }, admin.token)).status,
      ).toBe(404);
      await app.services.memberships.add(hidden, [max.id]);
      await app.services.memberships.addUserToChannels(max.id, [hidden]);
      expect([...(await app.services.memberships.memberIds(hidden))]).toEqual([]);
      await same('/user/api/getchannelmessagelistForAdmin', (channelId) => ({ channelId }), max.token, hidden);
    });

    it('gives the parties the call only while it lasts: no room, positions, alerts or geofences after', async () => {
      const deskSocket = await online(desk);
      const miaSocket = await online(mia);
      const call = (await start(desk, mia)).body.res;
      await answer(mia, call.callId, true);
      expect((await deskSocket.emitAck('join_room', { room: call.room, mode: 'talk' })).success).toBe(true);
      expect((await miaSocket.emitAck('join_room', { room: call.room, mode: 'talk' })).success).toBe(true);
      // An administrator takes the dispatcher out of North: the call is no way to follow Mia.
      await app.call('/user/api/deleteUserFromChannel', { userId: desk.id, channelId }, admin.token);
      const trail = await app.call('/user/api/getPositionHistory', { userId: mia.id }, desk.token);
      expect(trail.status).toBe(403);
      // The recheck of its rights (it no longer supervises North) keeps it in the call: the call is not a membership.
      expect(await deskSocket.next('rights_changed')).toMatchObject({ changes: ['channels'] });
      expect(await deskSocket.emitAck('floor_request', { room: call.room })).toEqual({
        granted: true,
        grantId: expect.any(String),
      });
      expect((await hangUp(desk, call.callId)).status).toBe(200);
      const hidden = (await app.services.channels.byRtcSession(call.room))?.id as number;
      for (const party of [desk, mia])
        await eventually(async () => !(await app.services.presence.socketIn(party.id, hidden)), 'the parties out');
      expect((await deskSocket.emitAck('join_room', { room: call.room, mode: 'talk' })).success).toBe(false);
      expect(
        (await app.call('/user/api/getchannelmessagelistForAdmin', { channelId: hidden }, desk.token)).status,
      ).toBe(403);
      expect((await app.call('/user/api/getGeofences', { channelId: hidden }, desk.token)).status).toBe(403);
      expect((await app.call('/user/api/getAllActivities/', { channelId: hidden }, desk.token)).status).toBe(403);
    });

    it('rings one call per person: two callers at the same instant get one ring and one busy', async () => {
      await app.call('/user/api/setCallSettings', { membersMayCallMembers: true }, admin.token);
      const answers = await Promise.all([start(desk, mia), start(admin, mia), start(max, mia)]);
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409]);
      for (const refused of answers.filter((a) => a.status === 409)) {
        expect(refused.body.code).toBe('call_busy');
        expect(refused.body.result).not.toContain('Mia');
      }
      const rows = await app.services.db.selectFrom('call_parties').selectAll().execute();
      expect(rows.map((row) => row.user_id).sort()).toContain(mia.id);
      expect(rows).toHaveLength(2);
      // Over, both are free again.
      await hangUp(mia, answers.find((a) => a.status === 200)?.body.res.callId);
      expect(await app.services.db.selectFrom('call_parties').selectAll().execute()).toEqual([]);
      expect((await start(admin, mia)).status).toBe(200);
    });

    it('makes crossed calls one call, answered', async () => {
      const deskSocket = await online(desk);
      const first = await start(desk, mia);
      const crossed = await start(mia, desk);
      expect(crossed.status).toBe(200);
      expect(crossed.body.code).toBe('call_answered');
      expect(crossed.body.res.callId).toBe(first.body.res.callId);
      expect(await deskSocket.next('privateCallUpdated', (c) => c.state === 'active')).toMatchObject({
        callId: first.body.res.callId,
      });
      await hangUp(desk, first.body.res.callId);
      // At the same instant: still one call, answered.
      const both = await Promise.all([start(desk, mia), start(mia, desk)]);
      expect(both.map((a) => a.status)).toEqual([200, 200]);
      expect(both[0].body.res.callId).toBe(both[1].body.res.callId);
      const open = await app.services.db
        .selectFrom('private_calls')
        .select(['id', 'state'])
        .where('state', 'in', ['ringing', 'active'])
        .execute();
      expect(open).toEqual([{ id: both[0].body.res.callId, state: 'active' }]);
    });
  });
});

describe.each(databases)('a private call exported for compliance on %s', (dialect) => {
  it('exports a call only with PRIVATE_CALLS_AUDITABLE=true and a reason, audited; never by its channel id', async () => {
    for (const auditable of [false, true]) {
      const app = await startApp(dialect, { privateCallsAuditable: auditable });
      try {
        const admin = await signUpAdmin(app);
        const mia = await createMember(app, admin, { firstName: 'Mia', lastName: 'Field' });
        const { callId } = (await app.call('/user/api/startPrivateCall', { userId: mia.id }, admin.token)).body.res;
        await app.call('/user/api/answerPrivateCall', { callId, accept: true }, mia.token);
        await app.call('/user/api/endPrivateCall', { callId }, mia.token);
        const hidden = (await app.call('/user/api/getPrivateCalls', {}, mia.token)).body.res[0].channelId;
        const hour = {
          from: new Date(Date.now() - 3600_000).toISOString(),
          to: new Date(Date.now() + 1000).toISOString(),
        };
        const exportIt = (body: object) => app.call('/user/api/exportVoiceMessages', { ...hour, ...body }, admin.token);
        expect((await exportIt({ channelId: hidden })).status).toBe(404);
        const withReason = await exportIt({ callId, reason: 'Court order 2024-17' });
        const audit = (await app.call('/user/api/getAuditLog', { targetType: 'privateCall' }, admin.token)).body.res;
        if (!auditable) {
          expect(withReason.status).toBe(404);
          expect(audit.entries).toEqual([]);
          continue;
        }
        expect((await exportIt({ callId })).status).toBe(400);
        expect(withReason.status).toBe(200);
        expect(audit.entries).toEqual([
          expect.objectContaining({
            action: 'privateCall.export',
            actor: { id: admin.id, name: expect.any(String) },
            targetId: callId,
            changes: { reason: { before: null, after: 'Court order 2024-17' } },
          }),
        ]);
        // A member who may not export voice may not export a call either.
        expect(
          (await app.call('/user/api/exportVoiceMessages', { ...hour, callId, reason: 'x' }, mia.token)).status,
        ).toBe(403);
      } finally {
        await app.close();
      }
    }
  });
});

describe.each(databases)('private calls listed for compliance on %s (issue 47)', (dialect) => {
  let app: TestApp;
  afterEach(async () => {
    await app.close();
  });
  const list = (token: string, body: object = {}) => app.call('/user/api/listPrivateCalls', body, token);
  const listings = async (token: string) =>
    (await app.call('/user/api/getAuditLog', { targetType: 'privateCall' }, token)).body.res.entries.filter(
      (entry: { action: string }) => entry.action === 'privateCall.list',
    );

  it('answers 403 with a sentence without PRIVATE_CALLS_AUDITABLE, and audits nothing', async () => {
    app = await startApp(dialect);
    const admin = await signUpAdmin(app);
    const refused = await list(admin.token);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({
      success: false,
      code: 'private_calls_not_auditable',
      result: 'Private calls are not open to audit on this server: it runs without PRIVATE_CALLS_AUDITABLE=true.',
    });
    expect(await listings(admin.token)).toEqual([]);
  });

  it('lists the calls of [from, to) newest first with their parties and length, nothing of their content, audited', async () => {
    app = await startApp(dialect, { privateCallsAuditable: true });
    const admin = await signUpAdmin(app);
    const mia = await createMember(app, admin, { firstName: 'Mia', lastName: 'Field' });
    const max = await createMember(app, admin, { firstName: 'Max', lastName: 'Field' });
    let lastStart = 0;
    const call = async (to: Account, how: 'ended' | 'declined' | 'active') => {
      // Each call starts in a millisecond of its own, so that a bound can fall between two of them.
      while (Date.now() <= lastStart) await new Promise((resolve) => setImmediate(resolve));
      const { callId } = (await app.call('/user/api/startPrivateCall', { userId: to.id }, admin.token)).body.res;
      lastStart = Date.now();
      await app.call('/user/api/answerPrivateCall', { callId, accept: how !== 'declined' }, to.token);
      if (how === 'ended') await app.call('/user/api/endPrivateCall', { callId }, to.token);
      return callId as number;
    };
    const ended = await call(mia, 'ended');
    const declined = await call(max, 'declined');
    const active = await call(mia, 'active');

    const all = await list(admin.token);
    expect(all.status).toBe(200);
    expect(all.body.hasMore).toBe(false);
    const [third, second, first] = all.body.res;
    expect(all.body.res.map((c: { callId: number }) => c.callId)).toEqual([active, declined, ended]);
    const admin_ = { userId: admin.id, name: expect.any(String) };
    expect(first).toEqual({
      callId: ended,
      parties: [admin_, { userId: mia.id, name: 'Mia Field' }],
      startedAt: expect.any(String),
      answeredAt: expect.any(String),
      endedAt: expect.any(String),
      durationMs: Date.parse(first.endedAt) - Date.parse(first.answeredAt),
      state: 'ended',
    });
    expect(second).toEqual({
      callId: declined,
      parties: [admin_, { userId: max.id, name: 'Max Field' }],
      startedAt: expect.any(String),
      answeredAt: null,
      endedAt: expect.any(String),
      durationMs: 0,
      state: 'declined',
    });
    expect(third).toMatchObject({ callId: active, endedAt: null, state: 'active' });
    expect(third.durationMs).toBeGreaterThanOrEqual(0);

    // `from` is in the period, `to` is not; a limit says that older calls are left out.
    const since = await list(admin.token, { from: second.startedAt });
    expect(since.body.res.map((c: { callId: number }) => c.callId)).toEqual([active, declined]);
    const before = await list(admin.token, { to: second.startedAt });
    expect(before.body.res.map((c: { callId: number }) => c.callId)).toEqual([ended]);
    const newest = await list(admin.token, { limit: 1 });
    expect(newest.body).toMatchObject({ res: [{ callId: active }], hasMore: true });

    expect((await list(admin.token, { from: second.startedAt, to: second.startedAt })).status).toBe(400);
    expect((await list(admin.token, { limit: 501 })).status).toBe(400);
    // Only one who may export a call's voice lists them; a refusal is not audited.
    expect((await list(mia.token)).status).toBe(403);

    const audited = await listings(admin.token);
    expect(audited).toHaveLength(4);
    expect(audited.at(-1)).toMatchObject({
      actor: { id: admin.id },
      action: 'privateCall.list',
      targetType: 'privateCall',
      changes: { from: { before: null, after: null }, to: { before: null, after: null } },
    });
    expect(audited[2].changes).toEqual({
      from: { before: null, after: second.startedAt },
      to: { before: null, after: null },
    });
  });
});
