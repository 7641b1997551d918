import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { recordPushes } from './chat-fixtures.ts';
import {
  type Account,
  createMember,
  databases,
  expectNoSecrets,
  signUpAdmin,
  startApp,
  type TestApp,
} from './harness.ts';

describe.each(databases)('channels and membership on %s', (dialect) => {
  let app: TestApp;
  let admin: Account;
  beforeEach(async () => {
    app = await startApp(dialect);
    admin = await signUpAdmin(app);
  });
  afterEach(async () => {
    await app.close();
  });

  const create = (name: string, token = admin.token) =>
    app.call('/user/api/createChannel', { channelName: name, channelRtcSession: 'ignored', userId: admin.id }, token);
  const activitiesOf = async (type: string) =>
    (await app.call('/user/api/getAllActivities/', { start: 0, limit: 1000 }, admin.token)).body.res.activities.filter(
      (a: { type: string }) => a.type === type,
    );

  it('creates a channel whose rtcSession is its name without whitespace, computed by the server', async () => {
    const pushes = recordPushes(app);
    const created = await create('  Équipe  Nord \t1 ');
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      success: true,
      result: 'Channel created successfully',
      res: { name: 'Équipe Nord 1', rtcSession: 'ÉquipeNord1', users: [], connected: 0 },
    });
    expect(created.body.res.id).toEqual(expect.any(Number));
    expect(pushes).toContainEqual({ to: 'admins', event: 'onChannelsChanged', args: [] });

    const [activity] = await activitiesOf('channel_creation');
    expect(activity).toMatchObject({
      user: { id: admin.id, firstName: 'Ada', display_name: 'Ada Admin' },
      channel: { id: created.body.res.id, name: 'Équipe Nord 1' },
    });
  });

  it('refuses a taken name, a name that differs only by whitespace, and a blank name', async () => {
    await create('Alpha Team');
    const same = await create('Alpha Team');
    expect(same.status).toBe(409);
    expect(same.body).toEqual({ success: false, result: 'Channel name already exists', code: 'channel_name_taken' });
    const sameRoom = await create('AlphaTeam');
    expect(sameRoom.status).toBe(409);
    const blank = await create('   ');
    expect(blank.status).toBe(400);
    expect(blank.body.result).toMatch(/channelName/);
    const all = await app.call('/user/api/getAllChannels', {}, admin.token);
    expect(all.body.res).toHaveLength(1);
  });

  it('lists channels with members, distinct connected members and the latest activity', async () => {
    const alpha = (await create('Alpha')).body.res;
    const beta = (await create('Beta')).body.res;
    const mia = await createMember(app, admin, { firstName: 'Mia' });
    const leo = await createMember(app, admin, { firstName: 'Leo' });
    for (const user of [mia, leo, admin])
      await app.call('/user/api/addUserToChannel', { userId: user.id, channelId: alpha.id }, admin.token);
    const at = new Date().toISOString();
    const socket = (userId: number, channelId: number | null, id: string) => ({
      user_id: userId,
      channel_id: channelId,
      socket_id: id,
      instance_id: 'test',
      mic_state: 0,
      created_at: at,
    });
    await app.services.db
      .insertInto('user_sockets')
      .values([
        socket(mia.id, alpha.id, 's1'),
        socket(mia.id, alpha.id, 's2'),
        socket(leo.id, alpha.id, 's3'),
        socket(admin.id, null, 's4'),
      ])
      .execute();
    await app.call('/user/api/updateChannel', { channelId: alpha.id, channelName: 'Alpha 2' }, admin.token);

    const all = await app.call('/user/api/getAllChannels', {}, admin.token);
    expect(all.status).toBe(200);
    expectNoSecrets(all.body);
    const listed = all.body.res.find((c: { id: number }) => c.id === alpha.id);
    expect(listed).toMatchObject({ name: 'Alpha 2', rtcSession: 'Alpha2', connected: 2 });
    expect(listed.createdAt).toMatch(/^\d{4}-\d\d-\d\dT.*Z$/);
    expect(listed.users.map((u: { id: number }) => u.id).sort()).toEqual([admin.id, mia.id, leo.id].sort());
    expect(listed.userActivities).toHaveLength(1);
    expect(listed.userActivities[0]).toMatchObject({ type: 'channel_update', channel: { name: 'Alpha 2' } });
    const other = all.body.res.find((c: { id: number }) => c.id === beta.id);
    expect(other).toMatchObject({ users: [], connected: 0, userActivities: [{ type: 'channel_creation' }] });
  });

  it('exports channel names and creation dates', async () => {
    await create('Bravo');
    await create('Alpha');
    const exported = await app.call('/user/api/getChannelsToExport/', {}, admin.token);
    expect(exported.status).toBe(200);
    expect(exported.body.res).toEqual([
      { name: 'Alpha', createdAt: expect.any(String) },
      { name: 'Bravo', createdAt: expect.any(String) },
    ]);
  });

  it('renames a channel, refuses a name taken by another one, and records channel_update', async () => {
    const alpha = (await create('Alpha')).body.res;
    await create('Beta');
    const renamed = await app.call(
      '/user/api/updateChannel',
      { channelId: alpha.id, channelName: 'Alpha One', userId: admin.id },
      admin.token,
    );
    expect(renamed.body).toMatchObject({
      success: true,
      result: 'Channel updated successfully',
      res: { name: 'Alpha One', rtcSession: 'AlphaOne' },
    });
    const taken = await app.call('/user/api/updateChannel', { channelId: alpha.id, channelName: 'Beta' }, admin.token);
    expect(taken.status).toBe(409);
    expect(taken.body).toEqual({ success: false, result: 'Channel name already exists', code: 'channel_name_taken' });
    const sameRoom = await app.call(
      '/user/api/updateChannel',
      { channelId: alpha.id, channelName: 'Be ta' },
      admin.token,
    );
    expect(sameRoom.status).toBe(409);
    const keepOwn = await app.call(
      '/user/api/updateChannel',
      { channelId: alpha.id, channelName: 'AlphaOne' },
      admin.token,
    );
    expect(keepOwn.status).toBe(200);
    const unknown = await app.call('/user/api/updateChannel', { channelId: 9999, channelName: 'Zed' }, admin.token);
    expect(unknown.status).toBe(404);
    expect(await activitiesOf('channel_update')).toHaveLength(2);
  });

  it('deletes a channel; its activities keep the channel name', async () => {
    const pushes = recordPushes(app);
    const alpha = (await create('Alpha')).body.res;
    const mia = await createMember(app, admin);
    await app.call('/user/api/addUserToChannel', { userId: mia.id, channelId: alpha.id }, admin.token);
    const deleted = await app.call('/user/api/deleteChannel', { channelId: alpha.id, userId: admin.id }, admin.token);
    expect(deleted.body).toEqual({ success: true, result: 'Channel has been deleted', code: 'channel_deleted' });
    expect(pushes).toContainEqual({ to: 'admins', event: 'onChannelDeleted', args: [{ id: alpha.id }] });
    expect(pushes).toContainEqual({ to: `user:${mia.id}`, event: 'onChannelsChanged', args: [] });

    const all = await app.call('/user/api/getAllChannels', {}, admin.token);
    expect(all.body.res).toEqual([]);
    const [removal] = await activitiesOf('channel_delete');
    expect(removal).toMatchObject({ user: { id: admin.id }, channel: { id: null, name: 'Alpha' } });
    const [creation] = await activitiesOf('channel_creation');
    expect(creation.channel).toEqual({ id: null, name: 'Alpha' });
    const mine = await app.call('/user/api/getMyChannels', {}, mia.token);
    expect(mine.body.res).toEqual([]);
    const again = await app.call('/user/api/deleteChannel', { channelId: alpha.id }, admin.token);
    expect(again.status).toBe(404);
  });

  it('imports channels: duplicates removed, blank names not added, existing names reported', async () => {
    await create('Existing');
    const imported = await app.call(
      '/user/api/createMultipleChannels',
      {
        channelData: [
          { name: 'North' },
          { name: 'North' },
          { name: ' South ' },
          { name: '' },
          { name: '   ' },
          {},
          { name: null },
          { name: 'Existing' },
          { name: 'Exis ting' },
          { name: 'East Side' },
          { name: 'EastSide' },
          { name: 42 },
        ],
      },
      admin.token,
    );
    expect(imported.status).toBe(200);
    const report = imported.body.channelsCreated;
    expect(imported.body.success).toBe(true);
    expect(report.added.map((r: { name: string }) => r.name)).toEqual(['North', 'South', 'East Side', '42']);
    expect(report.added.every((r: { id: unknown }) => typeof r.id === 'number')).toBe(true);
    expect(report.alreadyExisting).toEqual([{ name: 'Existing' }, { name: 'Exis ting' }, { name: 'EastSide' }]);
    expect(report.notAdded).toEqual([{ name: '' }, { name: '   ' }, {}, { name: null }]);

    const names = (await app.call('/user/api/getAllChannels', {}, admin.token)).body.res.map(
      (c: { name: string }) => c.name,
    );
    expect(names.sort()).toEqual(['42', 'East Side', 'Existing', 'North', 'South']);
    expect(await activitiesOf('channel_creation')).toHaveLength(5);

    const again = await app.call('/user/api/createMultipleChannels', { channelData: [{ name: 'North' }] }, admin.token);
    expect(again.body.channelsCreated).toEqual({ added: [], alreadyExisting: [{ name: 'North' }], notAdded: [] });
    const bad = await app.call('/user/api/createMultipleChannels', { channelData: 'North' }, admin.token);
    expect(bad.status).toBe(400);
    expect(bad.body.result).toMatch(/channelData/);
  });

  it('adds a user to a channel once, however many times it is asked, and removes it idempotently', async () => {
    const alpha = (await create('Alpha')).body.res;
    const mia = await createMember(app, admin);
    for (let i = 0; i < 3; i++) {
      const added = await app.call('/user/api/addUserToChannel', { userId: mia.id, channelId: alpha.id }, admin.token);
      expect(added.body).toEqual({ success: true, result: 'User Added To Channel', code: 'user_added_to_channel' });
    }
    const members = await app.call('/user/api/getUsersInChannel', { channelId: alpha.id }, admin.token);
    expect(members.body.res.map((u: { id: number }) => u.id)).toEqual([mia.id]);

    for (let i = 0; i < 2; i++) {
      const removed = await app.call(
        '/user/api/deleteUserFromChannel',
        { userId: mia.id, channelId: alpha.id },
        admin.token,
      );
      expect(removed.body).toEqual({
        success: true,
        result: 'User Deleted from Channel',
        code: 'user_removed_from_channel',
      });
    }
    const after = await app.call('/user/api/getUsersInChannel', { channelId: alpha.id }, admin.token);
    expect(after.body.res).toEqual([]);

    const unknownUser = await app.call('/user/api/addUserToChannel', { userId: 999, channelId: alpha.id }, admin.token);
    expect(unknownUser.status).toBe(404);
    const unknownChannel = await app.call(
      '/user/api/addUserToChannel',
      { userId: mia.id, channelId: 999 },
      admin.token,
    );
    expect(unknownChannel.status).toBe(404);
    const badId = await app.call('/user/api/addUserToChannel', { userId: 'abc', channelId: alpha.id }, admin.token);
    expect(badId.status).toBe(400);
    expect(badId.body.result).toMatch(/userId/);
  });

  it('sets the exact members of a channel (updateUserChannels) and the exact channels of a user (updateChannelUsers)', async () => {
    const alpha = (await create('Alpha')).body.res;
    const beta = (await create('Beta')).body.res;
    const gamma = (await create('Gamma')).body.res;
    const mia = await createMember(app, admin);
    const leo = await createMember(app, admin);
    const zoe = await createMember(app, admin);
    await app.call('/user/api/addUserToChannel', { userId: zoe.id, channelId: alpha.id }, admin.token);

    const members = await app.call(
      '/user/api/updateUserChannels',
      { userList: [mia.id, leo.id, String(leo.id)], channelId: alpha.id },
      admin.token,
    );
    expect(members.body.success).toBe(true);
    const inAlpha = await app.call('/user/api/getUsersInChannel', { channelId: alpha.id }, admin.token);
    expect(inAlpha.body.res.map((u: { id: number }) => u.id).sort()).toEqual([mia.id, leo.id].sort());

    const channels = await app.call(
      '/user/api/updateChannelUsers',
      { userId: mia.id, channelList: [beta.id, gamma.id] },
      admin.token,
    );
    expect(channels.body.success).toBe(true);
    const mine = await app.call('/user/api/getMyChannels', {}, mia.token);
    expect(mine.body.res.map((c: { name: string }) => c.name)).toEqual(['Beta', 'Gamma']);
    expectNoSecrets(mine.body);
    const repeat = await app.call(
      '/user/api/updateChannelUsers',
      { userId: mia.id, channelList: [beta.id, gamma.id] },
      admin.token,
    );
    expect(repeat.status).toBe(200);
    expect((await app.call('/user/api/getMyChannels', {}, mia.token)).body.res).toHaveLength(2);

    const unknown = await app.call(
      '/user/api/updateUserChannels',
      { userList: [mia.id, 777], channelId: alpha.id },
      admin.token,
    );
    expect(unknown.status).toBe(400);
    expect(unknown.body.result).toMatch(/userList.*777/);
    const unknownChannel = await app.call(
      '/user/api/updateChannelUsers',
      { userId: mia.id, channelList: [888] },
      admin.token,
    );
    expect(unknownChannel.status).toBe(400);
    expect(unknownChannel.body.result).toMatch(/channelList.*888/);
    // Nothing changed by the refused calls.
    expect((await app.call('/user/api/getMyChannels', {}, mia.token)).body.res).toHaveLength(2);
    const emptied = await app.call('/user/api/updateUserChannels', { userList: [], channelId: beta.id }, admin.token);
    expect(emptied.status).toBe(200);
    expect(
      (await app.call('/user/api/getMyChannels', {}, mia.token)).body.res.map((c: { name: string }) => c.name),
    ).toEqual(['Gamma']);
  });

  it('gives the users of a channel with their sockets and latest position, positions only with map access', async () => {
    const alpha = (await create('Alpha')).body.res;
    const mia = await createMember(app, admin, { mapRight: false });
    const leo = await createMember(app, admin, { mapRight: true });
    for (const user of [mia, leo])
      await app.call('/user/api/addUserToChannel', { userId: user.id, channelId: alpha.id }, admin.token);
    const now = Date.now();
    await app.services.db
      .insertInto('user_positions')
      .values([
        { user_id: leo.id, lat: 1, lng: 2, accuracy: null, created_at: new Date(now - 60_000).toISOString() },
        { user_id: leo.id, lat: 48.85, lng: 2.35, accuracy: 5, created_at: new Date(now).toISOString() },
      ])
      .execute();
    await app.services.db
      .insertInto('user_sockets')
      .values({
        user_id: leo.id,
        channel_id: alpha.id,
        socket_id: 'sock-leo',
        instance_id: 'test',
        mic_state: 0,
        created_at: new Date().toISOString(),
      })
      .execute();

    const seenByAdmin = await app.call('/user/api/getUsersInChannel', { channelId: alpha.id }, admin.token);
    expectNoSecrets(seenByAdmin.body);
    const leoSeen = seenByAdmin.body.res.find((u: { id: number }) => u.id === leo.id);
    expect(leoSeen.user_sockets).toEqual([{ userId: leo.id, channelId: alpha.id, socket_id: 'sock-leo' }]);
    expect(leoSeen.userPositions).toEqual([{ lat: 48.85, lng: 2.35, accuracy: 5, createdAt: expect.any(String) }]);

    const seenByLeo = await app.call('/user/api/getUsersInChannel', { channelId: alpha.id }, leo.token);
    expect(seenByLeo.body.res.find((u: { id: number }) => u.id === leo.id).userPositions).toHaveLength(1);
    const seenByMia = await app.call('/user/api/getUsersInChannel', { channelId: alpha.id }, mia.token);
    expect(seenByMia.status).toBe(200);
    expect(seenByMia.body.res.find((u: { id: number }) => u.id === leo.id).userPositions).toEqual([]);
  });

  it('keeps the names on the activities of a deleted user', async () => {
    const mia = await createMember(app, admin, { firstName: 'Mia', lastName: 'Gone' });
    const alpha = (await create('Alpha')).body.res;
    await app.call('/user/api/addUserToChannel', { userId: mia.id, channelId: alpha.id }, admin.token);
    await app.call('/user/api/sendMessageToChannel', { channelId: alpha.id, message: 'bye' }, mia.token);
    await app.call('/user/api/deleteUser', { UserId: mia.id }, admin.token);
    const [sent] = await activitiesOf('message_send');
    expect(sent).toMatchObject({
      user: { id: null, firstName: 'Mia', lastName: 'Gone', display_name: 'Mia Gone' },
      channel: { id: alpha.id, name: 'Alpha' },
    });
  });
});
