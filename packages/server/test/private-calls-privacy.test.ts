/**
 * Private stays private (issues 27 and 35): a private call's hidden channel answers like a channel that does not
 * exist to whoever is not its party, and its parties only while the call is answered.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Account, databases, type TestApp } from './harness.ts';
import { callRequests, privateCallCast } from './private-call-cast.ts';
import { eventually } from './realtime-harness.ts';

describe.each(databases)('private stays private on %s (issue 35)', (dialect) => {
  let app: TestApp;
  let url: string;
  let admin: Account;
  let desk: Account;
  let mia: Account;
  let max: Account;
  let channelId: number;
  const { start, answer, hangUp, online, closeSockets } = callRequests(
    () => app,
    () => url,
  );
  beforeEach(async () => {
    ({ app, url, admin, desk, mia, max, channelId } = await privateCallCast(dialect));
  });
  afterEach(async () => {
    closeSockets();
    await app.close();
  });

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
    expect((await app.call('/user/api/getchannelmessagelistForAdmin', { channelId: hidden }, desk.token)).status).toBe(
      403,
    );
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
