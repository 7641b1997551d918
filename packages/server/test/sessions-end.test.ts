/**
 * What must end ends (issue 12): logout, "disconnect from all devices", a new password and a deleted account
 * close the sockets of the sessions they end, at once, saying why (`session_ended`); the others stay. And
 * old clients' extra payload fields never get an event refused.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChannelSummary } from '../src/channels/store.ts';
import { type Account, createMember, databases, signIn, signUpAdmin, startApp, type TestApp } from './harness.ts';
import { connect, listen, type TestClient } from './realtime-harness.ts';

describe.each(databases)('ending sessions on %s', (dialect) => {
  let app: TestApp;
  let url: string;
  let admin: Account;
  let member: Account;
  let channel: ChannelSummary;
  const clients: TestClient[] = [];

  const open = async (account: Account) => {
    const client = await connect(url, account.token);
    clients.push(client);
    return client;
  };
  /** The socket was told its session ended, then closed by the server. */
  const ended = async (client: TestClient) => {
    const notice = await client.next('session_ended');
    expect(await client.next('disconnect')).toBe('io server disconnect');
    return notice;
  };
  const stillOpen = async (client: TestClient) => {
    await client.flush();
    expect(client.socket.connected).toBe(true);
    expect(client.all('session_ended')).toEqual([]);
  };

  beforeEach(async () => {
    app = await startApp(dialect);
    url = await listen(app);
    admin = await signUpAdmin(app);
    member = await createMember(app, admin, { firstName: 'Mia', lastName: 'Field', password: 'memberpw' });
    channel = await app.services.channels.create('Field Team');
    await app.services.memberships.add(channel.id, [member.id]);
  });
  afterEach(async () => {
    for (const client of clients.splice(0)) client.close();
    await app.close();
  });

  it('logout closes the sockets of that session only', async () => {
    const phone = await signIn(app, member.identifier, 'memberpw');
    const onLaptop = await open(member);
    const onPhone = await open(phone);
    expect((await app.call('/user/api/logout', {}, member.token)).status).toBe(200);
    expect(await ended(onLaptop)).toEqual({ reason: 'logout', message: 'You signed out.' });
    await stillOpen(onPhone);
  });

  it('"disconnect from all devices" closes every socket of the user, saying why', async () => {
    const phone = await signIn(app, member.identifier, 'memberpw');
    const sockets = [await open(member), await open(phone)];
    const bystander = await open(admin);
    await app.call('/user/api/deleteUserTokens/', { userId: member.id }, admin.token);
    for (const socket of sockets) expect((await ended(socket)).reason).toBe('revoked');
    await stillOpen(bystander);
  });

  it("a password changed by its owner ends the owner's other sessions and keeps the one that changed it", async () => {
    const phone = await signIn(app, admin.identifier, admin.password);
    const here = await open(admin);
    const there = await open(phone);
    const changed = await app.call(
      '/user/api/updatePasswordUser',
      { id: admin.id, password: 'second-secret-2', currentPassword: admin.password },
      admin.token,
    );
    expect(changed.status).toBe(200);
    expect((await ended(there)).reason).toBe('password');
    await stillOpen(here);
    expect((await app.call('/user/api/getAllUsers', {}, phone.token)).status).toBe(401);
    expect((await app.call('/user/api/getAllUsers', {}, admin.token)).status).toBe(200);
  });

  it('a password set by an administrator ends every session of that user (updatePasswordUser and updateUserData)', async () => {
    const socket = await open(member);
    await app.call('/user/api/updatePasswordUser', { id: member.id, password: 'new-password-1' }, admin.token);
    expect((await ended(socket)).reason).toBe('password');
    expect((await app.call('/user/api/getMyChannels', {}, member.token)).status).toBe(401);

    const again = await signIn(app, member.identifier, 'new-password-1');
    const next = await open(again);
    const edit = { id: member.id, firstName: 'Mia', lastName: 'Field', password: 'new-password-2' };
    expect((await app.call('/user/api/updateUserData', edit, admin.token)).status).toBe(200);
    expect((await ended(next)).reason).toBe('password');
  });

  it('an edit that keeps the password ends no session', async () => {
    const socket = await open(member);
    const edit = { id: member.id, firstName: 'Mia', lastName: 'Renamed', password: '' };
    expect((await app.call('/user/api/updateUserData', edit, admin.token)).status).toBe(200);
    await stillOpen(socket);
  });

  it('deleting a user closes its sockets with the reason "deleted"', async () => {
    const socket = await open(member);
    await app.call('/user/api/deleteUser', { UserId: member.id }, admin.token);
    expect((await ended(socket)).reason).toBe('deleted');
  });

  it("accepts old clients' extra fields whatever their type, and still validates the fields it uses", async () => {
    const socket = await open(member);
    const join = await socket.emitAck('join_room', { room: channel.rtcSession, name: 42 });
    expect(join).toEqual({ success: true });
    expect(await socket.emitAck('micStateChange', { id: 12345, micState: true, room: channel.rtcSession })).toEqual({
      success: true,
    });
    expect(await socket.emitAck('micStateChange', { id: 'abc', micState: 'false' })).toEqual({ success: true });
    expect(
      await socket.emitAck('offer', { sdp: {}, offerSendID: 7, offerSendName: null, offerReceiveID: 'x' }),
    ).toEqual({ success: true });
    expect(await socket.emitAck('typing', { room: channel.rtcSession, name: 3 })).toEqual({ success: true });
    const bad = await socket.emitAck('micStateChange', { id: 1, micState: 'maybe' });
    expect(bad.success).toBe(false);
    expect(bad.result).toMatch(/^micStateChange: micState/);
  });
});
