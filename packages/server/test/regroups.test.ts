/**
 * Dynamic regrouping and the remote change of a member's selected channel (issue 59, items 3 and 4), through
 * HTTP and real sockets: a dispatcher's regroup switches its members' /talk (selected_channel_changed), its
 * channel is temporary and holds only the right people, its end (or its minutes) brings them back and takes it
 * out of every list while its history stays; selectChannelFor is an administrator's, or a channel dispatcher's
 * for one of its members.
 */
import { describe, expect, it } from 'vitest';
import { type Account, databases } from './harness.ts';
import { eventually } from './realtime-harness.ts';
import { world } from './world.ts';

describe.each(databases)('regroups on %s', (dialect) => {
  const w = world(dialect, {
    people: {
      dana: { role: 'dispatcher', firstName: 'Dana', lastName: 'Desk' },
      olga: { role: 'dispatcher', firstName: 'Olga', lastName: 'Other' },
      alice: { role: 'member', firstName: 'Alice', lastName: 'Field' },
      bob: { role: 'member', firstName: 'Bob', lastName: 'Field' },
      carl: { role: 'member', firstName: 'Carl', lastName: 'Yard' },
    },
    channels: {
      quai: { name: 'Quai', members: ['dana', 'alice'], overHttp: true },
      dock: { name: 'Dock', members: ['dana', 'bob'], overHttp: true },
      yard: { name: 'Yard', members: ['olga', 'carl'], overHttp: true },
    },
  });

  const myChannels = async (account: Account) =>
    (await w.app.call('/user/api/getMyChannels', {}, account.token)).body.res as Array<{
      id: number;
      name: string;
      temporary: boolean;
      users: Array<{ id: number }>;
    }>;
  const allChannels = async () =>
    (await w.app.call('/user/api/getAllChannels', {}, w.admin.token)).body.res as Array<{
      id: number;
      temporary: boolean;
    }>;

  it('switches the regrouped members to a temporary channel holding only them and its creator', async () => {
    const { app, admin, dana, olga, alice, bob, carl, quai } = w;
    expect((await app.call('/user/api/selectMyChannel', { channelId: quai.id }, alice.token)).status).toBe(200);
    const alicePhone = await w.open(alice);
    const bobPhone = await w.open(bob);
    const carlPhone = await w.open(carl);

    const made = await app.call(
      '/user/api/createRegroup',
      { name: 'Fire B12', userIds: [alice.id, bob.id] },
      dana.token,
    );
    expect(made.status).toBe(200);
    const { regroupId, channelId } = made.body;
    expect(made.body.res).toMatchObject({ regroupId, channelId, name: 'Fire B12', createdBy: { userId: dana.id } });

    for (const phone of [alicePhone, bobPhone])
      expect(await phone.next('selected_channel_changed')).toEqual({
        channelId,
        channelName: 'Fire B12',
        reason: 'regroup',
        by: { userId: dana.id, name: 'Dana Desk' },
        regroupId,
      });
    await carlPhone.flush();
    expect(carlPhone.all('selected_channel_changed')).toEqual([]);

    const aliceList = await myChannels(alice);
    const regroupChannel = aliceList.find((entry) => entry.id === channelId);
    expect(regroupChannel?.temporary).toBe(true);
    expect(regroupChannel?.users.map((user) => user.id).sort()).toEqual([dana.id, alice.id, bob.id].sort());
    // Their other channels stay (the scan keeps them).
    expect(aliceList.find((entry) => entry.id === quai.id)?.temporary).toBe(false);
    expect((await allChannels()).find((entry) => entry.id === channelId)?.temporary).toBe(true);
    expect((await myChannels(carl)).some((entry) => entry.id === channelId)).toBe(false);

    const open = await app.call('/user/api/getRegroups', {}, dana.token);
    expect(open.body.res.map((regroup: { regroupId: number }) => regroup.regroupId)).toEqual([regroupId]);
    expect((await app.call('/user/api/getRegroups', {}, olga.token)).body.res).toEqual([]);
    // A member who opens /talk later lands there.
    expect((await app.call('/user/api/getMySelectedChannel', {}, bob.token)).body.res).toMatchObject({
      channelId,
      reason: 'regroup',
      by: { userId: dana.id },
    });
    const audit = await app.call('/user/api/getAuditLog', {}, admin.token);
    expect(audit.body.res.entries[0]).toMatchObject({ action: 'regroup.create', targetId: channelId });
  });

  it('takes in the members of the chosen channels', async () => {
    const { app, dana, bob, dock } = w;
    const made = await app.call(
      '/user/api/createRegroup',
      { name: 'Storm', userIds: [], channelIds: [dock.id] },
      dana.token,
    );
    expect(made.status).toBe(200);
    expect(made.body.res.members.map((member: { userId: number }) => member.userId).sort()).toEqual(
      [dana.id, bob.id].sort(),
    );
  });

  it('refuses a user outside the dispatcher’s channels, a member, and bad bodies', async () => {
    const { app, admin, dana, alice, bob, carl, yard } = w;
    const carlPhone = await w.open(carl);
    const outside = await app.call('/user/api/createRegroup', { name: 'X', userIds: [alice.id, carl.id] }, dana.token);
    expect(outside.status).toBe(403);
    expect(outside.body).toMatchObject({ success: false, code: 'regroup_user_not_allowed' });
    expect(outside.body.result).toContain('Carl');
    const otherChannel = await app.call(
      '/user/api/createRegroup',
      { name: 'X', userIds: [], channelIds: [yard.id] },
      dana.token,
    );
    expect(otherChannel.status).toBe(403);
    expect((await app.call('/user/api/createRegroup', { name: 'X', userIds: [bob.id] }, alice.token)).status).toBe(403);
    for (const body of [
      { name: '', userIds: [alice.id] },
      { name: 'X', userIds: [] },
      { name: 'X', userIds: [alice.id], minutes: 0 },
      { name: 'X', userIds: [alice.id], minutes: 'soon' },
      { name: 'X', userIds: 'everyone' },
    ]) {
      const refused = await app.call('/user/api/createRegroup', body, dana.token);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.success).toBe(false);
    }
    expect((await app.call('/user/api/createRegroup', { name: 'Quai', userIds: [alice.id] }, dana.token)).status).toBe(
      409,
    );
    await carlPhone.flush();
    expect(carlPhone.all('selected_channel_changed')).toEqual([]);
    // An administrator regroups anyone.
    expect((await app.call('/user/api/createRegroup', { name: 'All', userIds: [carl.id] }, admin.token)).status).toBe(
      200,
    );
  });

  it('brings the members back to their previous channels at its end; the channel leaves the lists, its history stays', async () => {
    const { app, admin, dana, olga, alice, bob, quai, dock } = w;
    await app.call('/user/api/selectMyChannel', { channelId: quai.id }, alice.token);
    await app.call('/user/api/selectChannelFor', { userId: bob.id, channelId: dock.id }, dana.token);
    const alicePhone = await w.open(alice);
    const bobPhone = await w.open(bob);
    const made = await app.call('/user/api/createRegroup', { name: 'Flood', userIds: [alice.id, bob.id] }, dana.token);
    const { regroupId, channelId } = made.body;
    await alicePhone.next('selected_channel_changed', (change) => change.reason === 'regroup');
    await bobPhone.next('selected_channel_changed', (change) => change.reason === 'regroup');
    const message = await app.call('/user/api/sendMessageToChannel', { channelId, message: 'On scene' }, alice.token);
    expect(message.status).toBe(200);

    expect((await app.call('/user/api/endRegroup', { regroupId }, olga.token)).status).toBe(404);
    const ended = await app.call('/user/api/endRegroup', { regroupId }, dana.token);
    expect(ended.status).toBe(200);
    expect(ended.body.res).toMatchObject({ regroupId, endReason: 'ended' });
    const by = { userId: dana.id, name: 'Dana Desk' };
    expect(await alicePhone.next('selected_channel_changed', (change) => change.reason === 'regroup_end')).toEqual({
      channelId: quai.id,
      channelName: 'Quai',
      reason: 'regroup_end',
      by,
      regroupId,
    });
    expect(await bobPhone.next('selected_channel_changed', (change) => change.reason === 'regroup_end')).toMatchObject({
      channelId: dock.id,
      reason: 'regroup_end',
    });
    expect((await app.call('/user/api/endRegroup', { regroupId }, dana.token)).status).toBe(409);

    for (const account of [alice, bob, dana])
      expect((await myChannels(account)).some((entry) => entry.id === channelId)).toBe(false);
    expect((await allChannels()).some((entry) => entry.id === channelId)).toBe(false);
    const overviews = await app.call('/user/api/getChannelOverviews', {}, admin.token);
    expect(overviews.body.res.some((entry: { id: number }) => entry.id === channelId)).toBe(false);
    expect((await app.call('/user/api/getRegroups', {}, dana.token)).body.res).toEqual([]);
    // Its chat stays for the record (an administrator reads it), and its name is free again.
    const kept = await app.call('/user/api/getchannelmessagelistForAdmin', { channelId }, admin.token);
    expect(kept.body.discussion.map((entry: { textMsg: string }) => entry.textMsg)).toContain('On scene');
    expect((await app.call('/user/api/createChannel', { channelName: 'Flood' }, admin.token)).status).toBe(200);
    expect((await app.call('/user/api/getMySelectedChannel', {}, alice.token)).body.res).toMatchObject({
      channelId: quai.id,
      reason: 'regroup_end',
    });
    const audit = await app.call('/user/api/getAuditLog', {}, admin.token);
    expect(audit.body.res.entries.map((entry: { action: string }) => entry.action)).toContain('regroup.end');
  });

  it('tells each member its end before the switch back, and no socket in its channel hears of a change of rights', async () => {
    const { app, dana, alice, bob, quai, dock } = w;
    await app.call('/user/api/selectMyChannel', { channelId: quai.id }, alice.token);
    const made = await app.call('/user/api/createRegroup', { name: 'Blaze', userIds: [alice.id, bob.id] }, dana.token);
    const { regroupId, channelId } = made.body;
    const listed = (await app.call('/user/api/getMyChannels', {}, dana.token)).body.res as Array<{
      id: number;
      rtcSession: string;
    }>;
    const rtcSession = listed.find((entry) => entry.id === channelId)?.rtcSession;
    // Alice's /talk and Dana's console in the regroup's room; Bob's page left it for the dock before the end.
    const alicePhone = await w.open(alice);
    const desk = await w.open(dana);
    const bobPhone = await w.open(bob);
    for (const client of [alicePhone, desk]) {
      client.socket.emit('join_room', { room: rtcSession, name: '' });
      await client.next('all_users');
    }
    await app.call('/user/api/selectMyChannel', { channelId: dock.id }, bob.token);

    expect((await app.call('/user/api/endRegroup', { regroupId }, dana.token)).status).toBe(200);
    const told = { regroupId, name: 'Blaze', channelId, reason: 'ended' };
    expect(await alicePhone.next('regroup_ended')).toEqual({
      ...told,
      backTo: { channelId: quai.id, channelName: 'Quai' },
    });
    expect(await bobPhone.next('regroup_ended')).toEqual({ ...told, backTo: null });
    expect(await desk.next('regroup_ended')).toEqual({ ...told, backTo: null });
    await alicePhone.next('selected_channel_changed', (change) => change.reason === 'regroup_end');
    const order = alicePhone.received.map((entry) => entry.event);
    expect(order.indexOf('regroup_ended')).toBeLessThan(order.indexOf('selected_channel_changed'));
    // Out of the room, told so, but not as a right taken away (the client said "an administrator removed you").
    for (const client of [alicePhone, desk])
      await eventually(
        async () => client.all('error').some((error) => /regroup ended/.test(error.message)),
        'the socket left the regroup’s room',
      );
    for (const client of [alicePhone, desk, bobPhone]) await client.flush();
    expect(bobPhone.all('selected_channel_changed').filter((change) => change.reason === 'regroup_end')).toEqual([]);
    for (const client of [alicePhone, desk, bobPhone]) expect(client.all('rights_changed')).toEqual([]);
  });

  it('ends by itself when its minutes run out, once', async () => {
    const { app, admin, dana, alice, quai } = w;
    await app.call('/user/api/selectMyChannel', { channelId: quai.id }, alice.token);
    const alicePhone = await w.open(alice);
    const made = await app.call(
      '/user/api/createRegroup',
      { name: 'Short', userIds: [alice.id], minutes: 0.01 },
      dana.token,
    );
    expect(made.status).toBe(200);
    expect(
      await alicePhone.next('selected_channel_changed', (change) => change.reason === 'regroup_end'),
    ).toMatchObject({ channelId: quai.id, regroupId: made.body.regroupId, by: { userId: dana.id } });
    await eventually(
      async () => (await app.call('/user/api/getRegroups', {}, dana.token)).body.res.length === 0,
      'the regroup is over',
    );
    // A second pass finds nothing to end.
    expect(await app.services.regroups.expireDue()).toBe(0);
    await alicePhone.flush();
    expect(alicePhone.all('selected_channel_changed').filter((change) => change.reason === 'regroup_end')).toHaveLength(
      1,
    );
    const audit = await app.call('/user/api/getAuditLog', {}, admin.token);
    expect(audit.body.res.entries.map((entry: { action: string }) => entry.action)).toContain('regroup.expire');
  });

  it('lets an administrator, or a dispatcher of the channel for its member, switch a member’s channel', async () => {
    const { app, admin, dana, olga, alice, bob, carl, quai, yard } = w;
    const alicePhone = await w.open(alice);
    const selected = await app.call('/user/api/selectChannelFor', { userId: alice.id, channelId: quai.id }, dana.token);
    expect(selected.status).toBe(200);
    expect(selected.body.res).toEqual({ userId: alice.id, channelId: quai.id });
    expect(await alicePhone.next('selected_channel_changed')).toEqual({
      channelId: quai.id,
      channelName: 'Quai',
      reason: 'dispatcher',
      by: { userId: dana.id, name: 'Dana Desk' },
    });
    expect((await app.call('/user/api/getMySelectedChannel', {}, alice.token)).body.res).toMatchObject({
      channelId: quai.id,
      channelName: 'Quai',
      reason: 'dispatcher',
      by: { userId: dana.id, name: 'Dana Desk' },
    });
    // Refused: a member, a dispatcher of another channel, a dispatcher for a user outside the channel.
    expect(
      (await app.call('/user/api/selectChannelFor', { userId: alice.id, channelId: quai.id }, bob.token)).status,
    ).toBe(403);
    expect(
      (await app.call('/user/api/selectChannelFor', { userId: alice.id, channelId: quai.id }, olga.token)).status,
    ).toBe(403);
    expect(
      (await app.call('/user/api/selectChannelFor', { userId: carl.id, channelId: quai.id }, dana.token)).status,
    ).toBe(403);
    expect((await app.call('/user/api/selectChannelFor', { userId: 'x', channelId: quai.id }, dana.token)).status).toBe(
      400,
    );
    await alicePhone.flush();
    expect(alicePhone.all('selected_channel_changed')).toHaveLength(1);
    // An administrator: any member of any channel.
    const carlPhone = await w.open(carl);
    expect(
      (await app.call('/user/api/selectChannelFor', { userId: carl.id, channelId: yard.id }, admin.token)).status,
    ).toBe(200);
    expect(await carlPhone.next('selected_channel_changed')).toMatchObject({
      channelId: yard.id,
      reason: 'dispatcher',
    });
    expect(
      (await app.call('/user/api/selectChannelFor', { userId: carl.id, channelId: quai.id }, admin.token)).status,
    ).toBe(400);
    // The member's own choice replaces it.
    expect((await app.call('/user/api/selectMyChannel', { channelId: yard.id }, alice.token)).status).toBe(403);
    const audit = await app.call('/user/api/getAuditLog', {}, admin.token);
    expect(audit.body.res.entries[0]).toMatchObject({ action: 'user.select_channel', targetId: carl.id });
  });
});
