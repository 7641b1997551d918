/**
 * Roles (issue 25): a dispatcher's allowed and refused calls end to end, over HTTP and over a socket (its
 * channels' floor with priority above members, below administrators); roles set by sign-up, edit and import;
 * nobody changes its own role and the last administrator stays; a role change reaches the user's open sockets;
 * roles are data (an unknown role holds nothing).
 */
import * as protocol from '@talkgroup/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChannelSummary } from '../src/channels/store.ts';
import { multipartForm } from './chat-fixtures.ts';
import { type Account, createMember, databases, signUpAdmin, startApp, type TestApp } from './harness.ts';
import { connect, listen, type TestClient } from './realtime-harness.ts';
import { createWithRole } from './role-fixtures.ts';

describe.each(databases)('roles on %s', (dialect) => {
  let app: TestApp;
  let admin: Account;
  let dispatcher: Account;
  let alice: Account;
  let bob: Account;
  let alpha: ChannelSummary;
  let beta: ChannelSummary;
  const clients: TestClient[] = [];

  beforeEach(async () => {
    app = await startApp(dialect);
    admin = await signUpAdmin(app);
    dispatcher = await createWithRole(app, admin, 'dispatcher');
    alice = await createMember(app, admin, { firstName: 'Alice', lastName: 'Field' });
    bob = await createMember(app, admin, { firstName: 'Bob', lastName: 'Field' });
    alpha = await app.services.channels.create('Alpha');
    beta = await app.services.channels.create('Beta');
    await app.services.memberships.add(alpha.id, [dispatcher.id, alice.id]);
    await app.services.memberships.add(beta.id, [bob.id]);
  });
  afterEach(async () => {
    for (const client of clients.splice(0)) client.close();
    await app.close();
  });

  const as =
    (account: Account) =>
    (path: string, body: object = {}) =>
      app.call(path, body, account.token);
  const roleOf = async (id: number) => (await app.services.users.row(id))?.role;
  const nameOf = async (id: number) => (await app.services.users.row(id))?.display_name;
  const auditOf = async (action: string) =>
    (await as(admin)('/user/api/getAuditLog', { limit: 200 })).body.res.entries.filter(
      (entry: { action: string }) => entry.action === action,
    );

  /** A socket of `account` in `channel` (talk mode), answered. */
  async function inRoom(url: string, account: Account, channel: ChannelSummary): Promise<TestClient> {
    const client = await connect(url, account.token);
    clients.push(client);
    const ack = await client.emitAck('join_room', { room: channel.rtcSession, mode: 'talk' });
    expect(ack).toEqual({ success: true, room: channel.rtcSession, mode: 'talk' });
    return client;
  }
  const press = (client: TestClient, channel: ChannelSummary) =>
    client.emitAck('floor_request', { room: channel.rtcSession });

  it('lets a dispatcher read, chat in and see the map of its channels, and nothing else', async () => {
    const call = as(dispatcher);
    await app.services.positions.add(alice.id, { lat: 48.85, lng: 2.35 });
    await app.services.positions.add(dispatcher.id, { lat: 48.86, lng: 2.36 });
    const members = await call('/user/api/getUsersInChannel', { channelId: alpha.id });
    expect(members.status).toBe(200);
    const aliceSeen = members.body.res.find((user: { id: number }) => user.id === alice.id);
    // A dispatcher sees its channels' positions without map access of its own (mapRight false).
    expect(aliceSeen).toMatchObject({ canTalk: true, userPositions: [{ lat: 48.85, lng: 2.35 }] });
    expect(aliceSeen.identifier).toBe('');
    // A member without map access does not.
    const byAlice = await as(alice)('/user/api/getUsersInChannel', { channelId: alpha.id });
    expect(byAlice.body.res.find((user: { id: number }) => user.id === dispatcher.id).userPositions).toEqual([]);

    const sent = await call('/user/api/sendMessageToChannel', { channelId: alpha.id, message: 'Desk here' });
    expect(sent.status).toBe(200);
    const chat = await call('/user/api/getchannelmessagelistForAdmin', { channelId: alpha.id });
    expect(chat.body.discussion.map((m: { textMsg: string }) => m.textMsg)).toEqual(['Desk here']);
    expect((await call('/user/api/getChannelVoiceMessages', { channelId: alpha.id })).status).toBe(200);
    expect((await call('/user/api/getMyChannels')).body.res.map((c: { id: number }) => c.id)).toEqual([alpha.id]);

    const refused: Array<[string, object, string]> = [
      ['/user/api/getAllUsers', {}, 'admin_only'],
      ['/user/api/createChannel', { channelName: 'Mine' }, 'admin_only'],
      ['/user/api/addUserToChannel', { userId: bob.id, channelId: alpha.id }, 'admin_only'],
      ['/user/api/setChannelMemberRights', { userId: alice.id, channelId: alpha.id, canTalk: false }, 'admin_only'],
      ['/user/api/updateUserData', { id: alice.id, firstName: 'A', lastName: 'B' }, 'admin_only'],
      ['/user/api/deleteUser', { UserId: alice.id }, 'admin_only'],
      ['/user/api/deleteOldActivities', { timeFrame: '1w' }, 'admin_only'],
      ['/user/api/getUsersInChannel', { channelId: beta.id }, 'not_channel_member'],
      ['/user/api/getchannelmessagelistForAdmin', { channelId: beta.id }, 'not_channel_member'],
      ['/user/api/sendMessageToChannel', { channelId: beta.id, message: 'x' }, 'not_channel_member'],
    ];
    for (const [path, body, code] of refused) {
      const answer = await call(path, body);
      expect([path, answer.status, answer.body.code]).toEqual([path, 403, code]);
    }
    expect(await roleOf(alice.id)).toBe('member');
  });

  it('gives a dispatcher the activities of its channels only, and refuses another channel', async () => {
    await as(alice)('/user/api/sendMessageToChannel', { channelId: alpha.id, message: 'in Alpha' });
    await as(bob)('/user/api/sendMessageToChannel', { channelId: beta.id, message: 'in Beta' });
    const channelsOf = (activities: Array<{ channel: { id: number } | null }>) => [
      ...new Set(activities.map((activity) => activity.channel?.id ?? null)),
    ];
    const all = await as(admin)('/user/api/getAllActivities/', { start: 0, limit: 100 });
    expect(channelsOf(all.body.res.activities)).toEqual(expect.arrayContaining([alpha.id, beta.id]));

    const page = await as(dispatcher)('/user/api/getAllActivities/', { start: 0, limit: 100 });
    expect(page.status).toBe(200);
    expect(channelsOf(page.body.res.activities)).toEqual([alpha.id]);
    expect(page.body.res.totalRecords).toBe(page.body.res.activities.length);
    const latest = await as(dispatcher)('/user/api/getLastActivities/', { limit: 100 });
    expect(latest.status).toBe(200);
    expect(channelsOf(latest.body.res)).toEqual([alpha.id]);

    const own = await as(dispatcher)('/user/api/getAllActivities/', { channelId: alpha.id });
    expect(own.body.res.activities.map((a: { type: string }) => a.type)).toContain('message_send');
    const other = await as(dispatcher)('/user/api/getAllActivities/', { channelId: beta.id });
    expect([other.status, other.body.code]).toEqual([403, 'not_channel_member']);
    expect((await as(alice)('/user/api/getAllActivities/', {})).status).toBe(403);
  });

  it('lets a dispatcher list and take the SOS alerts of its channels only, audited', async () => {
    const own = await app.services.emergency.raise({ userId: alice.id, role: 'member' }, { channelId: alpha.id });
    const other = await app.services.emergency.raise({ userId: bob.id, role: 'member' }, { channelId: beta.id });
    const listed = await as(dispatcher)('/user/api/getEmergencyAlerts', {});
    expect(listed.status).toBe(200);
    expect(listed.body.res.alerts.map((a: { id: number }) => a.id)).toEqual([own.id]);
    expect(listed.body.res).toMatchObject({ totalRecords: 1, open: 1 });
    expect((await as(admin)('/user/api/getEmergencyAlerts', {})).body.res.totalRecords).toBe(2);

    const refused = await as(dispatcher)('/user/api/acknowledgeEmergencyAlert', { alertId: other.id });
    expect([refused.status, refused.body.code]).toEqual([403, 'not_allowed']);
    const taken = await as(dispatcher)('/user/api/acknowledgeEmergencyAlert', { alertId: own.id });
    expect(taken.status).toBe(200);
    expect(taken.body.res.acknowledgedBy).toEqual({ id: dispatcher.id, display_name: await nameOf(dispatcher.id) });
    expect(await auditOf('alert.acknowledge')).toEqual([
      expect.objectContaining({ actor: expect.objectContaining({ id: dispatcher.id }), targetId: own.id }),
    ]);
    expect((await as(alice)('/user/api/getEmergencyAlerts', {})).status).toBe(403);
  });

  it('over a socket: a dispatcher talks in its channel above members and below administrators, never elsewhere', async () => {
    const url = await listen(app);
    const desk = await inRoom(url, dispatcher, alpha);
    const field = await inRoom(url, alice, alpha);
    const console = await inRoom(url, admin, alpha);

    expect(await press(field, alpha)).toEqual({ granted: true, grantId: expect.any(String) });
    expect(await press(desk, alpha)).toEqual({ granted: true, grantId: expect.any(String) });
    expect(await field.next('floor_revoked')).toEqual({
      room: alpha.rtcSession,
      reason: 'preempted',
      by: { userId: dispatcher.id, name: await nameOf(dispatcher.id) },
    });
    // Issue 59: the channel has a floor queue: the member waits there behind the dispatcher.
    expect(await press(field, alpha)).toEqual({
      granted: false,
      queued: true,
      position: 1,
      holder: { userId: dispatcher.id, name: await nameOf(dispatcher.id) },
    });
    expect(await press(console, alpha)).toEqual({ granted: true, grantId: expect.any(String) });
    expect(await desk.next('floor_revoked')).toMatchObject({ room: alpha.rtcSession, reason: 'preempted' });
    expect(await press(desk, alpha)).toMatchObject({ granted: false, holder: { userId: admin.id } });

    const elsewhere = await desk.emitAck('join_room', { room: beta.rtcSession, mode: 'listen' });
    const sentence = 'join_room: you are not a member of the channel "Beta".';
    expect(elsewhere).toEqual({ success: false, result: sentence });
    expect((await desk.next('error')).message).toBe(sentence);
  });

  it('sets roles by sign-up, edit and export, and keeps public sign-ups to members', async () => {
    const plain = await createMember(app, admin);
    expect(await roleOf(plain.id)).toBe('member');
    const login = await as(admin)('/user/api/login', {
      user_email: dispatcher.identifier,
      user_password: 'role-password-1',
    });
    expect(login.body.user.role).toBe('dispatcher');

    const edited = await as(admin)('/user/api/updateUserData', {
      id: alice.id,
      firstName: 'Alice',
      lastName: 'Field',
      role: 'dispatcher',
    });
    expect([edited.status, edited.body.res.role]).toEqual([200, 'dispatcher']);
    const roles = (users: Array<{ id: number; role: string }>) =>
      Object.fromEntries(users.map((user) => [user.id, user.role]));
    const expected = {
      [admin.id]: 'admin',
      [dispatcher.id]: 'dispatcher',
      [alice.id]: 'dispatcher',
      [bob.id]: 'member',
    };
    expect(roles((await as(admin)('/user/api/getAllUsers')).body.res)).toMatchObject(expected);
    expect(roles((await as(admin)('/user/api/getUsersPage', { limit: 50 })).body.res.users)).toMatchObject(expected);
    const exported = (await as(admin)('/user/api/getListUsersToExport/')).body.res;
    expect(exported.find((row: { identifier: string }) => row.identifier === alice.identifier).role).toBe('dispatcher');

    const open = await startApp(dialect, { allowSignup: true });
    try {
      await signUpAdmin(open);
      const signUp = (email: string, role?: string) =>
        open.call('/user/api/signUpUser', { firstName: 'P', lastName: 'Q', email, password: 'public-pw-1', role });
      const asAdmin = await signUp('climber@example.org', 'admin');
      expect([asAdmin.status, asAdmin.body.code]).toEqual([403, 'not_allowed']);
      expect((await signUp('plain@example.org')).body.user.role).toBe('member');
      expect((await signUp('member@example.org', 'member')).body.user.role).toBe('member');
    } finally {
      await open.close();
    }
  });

  it('imports roles: a role column, a bad role refused, never its own role', async () => {
    const row = (identifier: string, role: string) => ({
      firstName: 'Ivo',
      lastName: 'Imported',
      identifier,
      pseudo: 'ivo',
      password: 'Import-pass-2025',
      mapRight: 'faux',
      canal: '',
      role,
    });
    const added = await as(admin)('/user/api/createMultipleUsers', {
      userData: [row('desk@example.org', 'Dispatcher'), row('blank@example.org', ''), row('odd@example.org', 'chief')],
    });
    const report = added.body.createdUsers;
    // Rows are hashed a few at a time: `added` keeps no file order.
    expect(report.added.map((r: { identifier: string }) => r.identifier).sort()).toEqual([
      'blank@example.org',
      'desk@example.org',
    ]);
    expect(report.notAdded).toEqual([expect.objectContaining({ identifier: 'odd@example.org', reason: 'bad_role' })]);
    const byLogin = async (login: string) => (await app.services.users.rowByIdentifier(login))?.role;
    expect([await byLogin('desk@example.org'), await byLogin('blank@example.org')]).toEqual(['dispatcher', 'member']);

    const updated = await as(admin)('/user/api/createMultipleUsers', {
      mode: 'update',
      userData: [row(admin.identifier, 'member'), row(alice.identifier, 'dispatcher'), row(bob.identifier, '')],
    });
    expect(updated.body.createdUsers.notAdded).toEqual([
      expect.objectContaining({ identifier: admin.identifier, reason: 'own_role' }),
    ]);
    expect([await roleOf(admin.id), await roleOf(alice.id), await roleOf(bob.id)]).toEqual([
      'admin',
      'dispatcher',
      'member',
    ]);
  });

  it('lets nobody change its own role, and never leaves the organisation without an administrator', async () => {
    const setRole = (by: Account, id: number, role: string) =>
      as(by)('/user/api/updateUserData', { id, firstName: 'Some', lastName: 'One', role });
    // The only administrator: 409 before the own-role rule.
    expect((await setRole(admin, admin.id, 'member')).body.code).toBe('last_admin');
    expect((await setRole(admin, admin.id, 'member')).status).toBe(409);
    expect((await as(admin)('/user/api/deleteUser', { UserId: admin.id })).status).toBe(409);

    const second = await createWithRole(app, admin, 'admin');
    const own = await setRole(admin, admin.id, 'dispatcher');
    expect([own.status, own.body.code]).toEqual([403, 'own_role']);
    expect((await setRole(second, admin.id, 'member')).status).toBe(200);
    expect((await as(admin)('/user/api/getAllUsers')).status).toBe(403);
    const last = await setRole(second, second.id, 'member');
    expect([last.status, last.body.code]).toEqual([409, 'last_admin']);
    expect((await as(second)('/user/api/deleteUser', { UserId: second.id })).status).toBe(409);
    expect(await roleOf(second.id)).toBe('admin');
    // Two administrators: one may delete the other.
    const third = await createWithRole(app, second, 'admin');
    expect((await as(third)('/user/api/deleteUser', { UserId: second.id })).status).toBe(200);
  });

  it("gives a user's open sockets its new role at once, without a reconnection, and audits the change", async () => {
    const url = await listen(app);
    const carol = await createMember(app, admin, { firstName: 'Carol', lastName: 'Field' });
    await app.services.memberships.add(alpha.id, [carol.id]);
    const after = await inRoom(url, alice, alpha);
    const other = await inRoom(url, carol, alpha);
    expect((await as(alice)('/user/api/getAllActivities/', {})).status).toBe(403);

    const promote = { id: alice.id, firstName: 'Alice', lastName: 'Field', role: 'dispatcher' };
    expect((await as(admin)('/user/api/updateUserData', promote)).status).toBe(200);
    // A dispatcher sees its channels' map whatever its own map access.
    expect(await after.next('rights_changed')).toMatchObject({
      role: 'dispatcher',
      changes: ['role', 'map'],
      left: [],
    });
    expect(after.all('disconnect')).toEqual([]);
    expect(await auditOf('user.update')).toEqual([
      expect.objectContaining({
        targetId: alice.id,
        changes: expect.objectContaining({ role: { before: 'member', after: 'dispatcher' } }),
      }),
    ]);

    // The same socket, still in the room, presses with a dispatcher's priority now.
    expect(await press(other, alpha)).toEqual({ granted: true, grantId: expect.any(String) });
    expect(await press(after, alpha)).toEqual({ granted: true, grantId: expect.any(String) });
    expect(await other.next('floor_revoked')).toMatchObject({ room: alpha.rtcSession, reason: 'preempted' });
    expect((await as(alice)('/user/api/getAllActivities/', {})).status).toBe(200);

    const alert = await app.services.emergency.raise({ userId: carol.id, role: 'member' }, { channelId: alpha.id });
    expect((await as(alice)('/user/api/acknowledgeEmergencyAlert', { alertId: alert.id })).status).toBe(200);
    expect(await auditOf('alert.acknowledge')).toEqual([
      expect.objectContaining({ actor: expect.objectContaining({ id: alice.id }), targetId: alert.id }),
    ]);
  });

  it('keeps a listen-only member from recording transmissions', async () => {
    const set = await as(admin)('/user/api/setChannelMemberRights', {
      channelId: alpha.id,
      userId: alice.id,
      canTalk: false,
    });
    expect([set.status, set.body.code]).toEqual([200, 'member_rights_updated']);
    const list = (await as(dispatcher)('/user/api/getUsersInChannel', { channelId: alpha.id })).body.res;
    expect(list.find((user: { id: number }) => user.id === alice.id).canTalk).toBe(false);
    const notMember = await as(admin)('/user/api/setChannelMemberRights', {
      channelId: beta.id,
      userId: alice.id,
      canTalk: false,
    });
    expect(notMember.status).toBe(404);
    // Refused before its bytes are looked at: a form without audio says it is not for this member to send.
    const form = multipartForm({ channelId: alpha.id, startedAt: new Date().toISOString(), durationMs: 1000 });
    const upload = await app.fastify.inject({
      method: 'POST',
      url: protocol.UPLOAD_VOICE_MESSAGE_PATH,
      headers: { 'content-type': form.contentType, 'x-access-token': alice.token },
      payload: form.payload,
    });
    expect([upload.statusCode, upload.json().code]).toEqual([403, 'not_allowed']);
  });

  it('treats a role it does not know as data: the user signs in and holds no capability', async () => {
    const samId = await app.services.users.create({
      firstName: 'Sam',
      lastName: 'Super',
      identifier: 'sam@example.org',
      password: 'super-secret-1',
      role: 'supervisor' as protocol.Role,
    });
    await app.services.memberships.add(alpha.id, [samId]);
    // A session of its own first, so that the capabilities are checked whatever sign-in answers.
    const token = await app.services.sessions.create(samId);
    expect((await app.call('/user/api/getMyChannels', {}, token)).status).toBe(200);
    const guarded = Object.values(protocol).flatMap((value) =>
      protocol.isCall(value) && protocol.isCapability(value.access) ? [value] : [],
    );
    expect(guarded.length).toBeGreaterThan(20);
    for (const call of guarded) {
      const answer = await app.fastify.inject({
        method: call.method ?? 'POST',
        url: call.path,
        headers: { 'x-access-token': token },
        ...(call.method === 'GET' ? {} : { payload: { channelId: alpha.id } }),
      });
      expect([call.path, answer.statusCode]).toEqual([call.path, 403]);
    }

    const login = await app.call('/user/api/login', { user_email: 'sam@example.org', user_password: 'super-secret-1' });
    expect([login.status, login.body.user?.id]).toEqual([200, samId]);
    expect((await app.call('/user/api/isValidToken', { token })).status).toBe(200);
    // One such row must not break an administrator's users lists.
    for (const path of ['/user/api/getAllUsers', '/user/api/getUsersPage', '/user/api/getListUsersToExport/'])
      expect([path, (await as(admin)(path)).status]).toEqual([path, 200]);
  });
});
