/**
 * Rights rechecked live (issue 35 point 5): a change of a user's map access, role, memberships or a
 * membership's canTalk, by whichever path (edit, import, membership calls, `npm run admin`), takes effect on
 * its open sockets at once: rooms left, positions, talk and alerts stop, a floor it may no longer hold goes
 * back, and the socket is told (`rights_changed`). Real sockets, on SQLite and PostgreSQL; across two instances
 * in realtime-redis.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { runAdminCommand } from '../src/ops/admin.ts';
import { databases } from './harness.ts';
import type { TestClient } from './realtime-harness.ts';
import { type RealtimeWorld, realtimeWorld } from './realtime-world.ts';
import { createWithRole } from './role-fixtures.ts';

/** Bob (Red Team, no map access) reports a position; the server has handled it once the ack comes. */
async function reportPosition(bob: TestClient, lat: number) {
  expect(await bob.emitAck('onLocationChanged', { lat, lng: 2.35 })).toMatchObject({ success: true });
}

/** The latitudes of `userId`'s positions that `client` heard, once every event sent to it before now has come. */
async function heardPositions(client: TestClient, userId: number): Promise<number[]> {
  await client.flush();
  return client
    .all('onLocationChanged')
    .filter((p) => p.userId === userId)
    .map((p) => p.lat);
}

/** The Edit User dialog's call, names kept. */
function edit(w: RealtimeWorld, id: number, fields: object) {
  return w.app.call(
    '/user/api/updateUserData',
    { id, firstName: 'Alice', lastName: 'Martin', ...fields },
    w.admin.token,
  );
}

describe.each(databases)('rights rechecked on open sockets on %s', (dialect) => {
  const w = realtimeWorld(dialect);

  it("takes map access away: the member's socket leaves the map room and hears no more positions", async () => {
    const alice = await w.joined(w.alice, w.red);
    const bob = await w.joined(w.bob, w.red);
    await reportPosition(bob, 48.1);
    expect(await heardPositions(alice, w.bob.id)).toEqual([48.1]);

    expect((await edit(w, w.alice.id, { mapRight: false })).status).toBe(200);
    expect(await alice.next('rights_changed')).toEqual({
      role: 'member',
      mapRight: false,
      changes: ['map'],
      left: [],
      message: "Your rights changed: you may no longer see your channels' map.",
    });
    await reportPosition(bob, 48.2);
    expect(await heardPositions(alice, w.bob.id)).toEqual([48.1]);

    // Given back: the same socket hears positions again, without joining anew.
    expect((await edit(w, w.alice.id, { mapRight: true })).status).toBe(200);
    expect(await alice.next('rights_changed')).toMatchObject({ mapRight: true, changes: ['map'] });
    await reportPosition(bob, 48.3);
    expect(await heardPositions(alice, w.bob.id)).toEqual([48.1, 48.3]);
  });

  it('removing a membership takes the socket out of the room and out of the channels it watches', async () => {
    const alice = await w.joined(w.alice, w.red);
    const inRoom = await w.joined(w.bob, w.red);
    const watching = await w.open(w.bob);
    expect(await watching.emitAck('watch_channels', { channelIds: [w.red.id] })).toEqual({
      success: true,
      channelIds: [w.red.id],
    });
    expect(await alice.emitAck('floor_request', { room: w.red.rtcSession })).toEqual({
      granted: true,
      grantId: expect.any(String),
    });
    expect(await watching.next('onMicStateChanged')).toMatchObject({ userId: w.alice.id, micState: true });
    alice.socket.emit('floor_release', { room: w.red.rtcSession });
    expect(await watching.next('onMicStateChanged')).toMatchObject({ userId: w.alice.id, micState: false });

    const removed = await w.app.call(
      '/user/api/deleteUserFromChannel',
      { userId: w.bob.id, channelId: w.red.id },
      w.admin.token,
    );
    expect(removed.status).toBe(200);
    expect(await inRoom.next('rights_changed')).toEqual({
      role: 'member',
      mapRight: false,
      changes: ['channels'],
      left: [w.red.rtcSession],
      message: 'Your rights changed: you are no longer in "Red Team".',
    });
    expect(await watching.next('rights_changed')).toMatchObject({
      changes: ['channels'],
      left: [],
      message: 'Your rights changed: you no longer follow "Red Team".',
    });
    expect(await alice.next('user_exit')).toEqual({ id: inRoom.id, room: w.red.rtcSession });

    // Talk and chat of the channel reach neither socket any more.
    expect(await alice.emitAck('floor_request', { room: w.red.rtcSession })).toEqual({
      granted: true,
      grantId: expect.any(String),
    });
    await alice.emitAck('message', { channelId: w.red.id, message: 'after the removal' });
    for (const client of [inRoom, watching]) {
      await client.flush();
      // Only the press heard before the removal.
      expect(client.all('onMicStateChanged').filter((m) => m.micState)).toHaveLength(1);
      expect(client.all('messageResponse')).toEqual([]);
    }
    // Asking to watch it again gets nothing either.
    expect(await watching.emitAck('watch_channels', { channelIds: [w.red.id] })).toEqual({
      success: true,
      channelIds: [],
    });
  });

  it('makes a member listen-only while it holds the floor: the floor goes back at once, its next press is refused', async () => {
    const alice = await w.joined(w.alice, w.red);
    const bob = await w.joined(w.bob, w.red);
    expect(await bob.emitAck('floor_request', { room: w.red.rtcSession })).toEqual({
      granted: true,
      grantId: expect.any(String),
    });
    await alice.next('floor_taken', (f) => f.userId === w.bob.id);

    const rights = (canTalk: boolean) =>
      w.app.call('/user/api/setChannelMemberRights', { channelId: w.red.id, userId: w.bob.id, canTalk }, w.admin.token);
    expect((await rights(false)).status).toBe(200);
    expect(await bob.next('floor_revoked')).toEqual({ room: w.red.rtcSession, reason: 'revoked' });
    expect(await bob.next('rights_changed')).toMatchObject({
      changes: ['talk'],
      left: [],
      message: 'Your rights changed: you may only listen in "Red Team".',
    });
    expect(await alice.next('floor_idle')).toEqual({ room: w.red.rtcSession });
    expect(await bob.emitAck('floor_request', { room: w.red.rtcSession })).toEqual({
      granted: false,
      reason: 'listen_only',
    });

    expect((await rights(true)).status).toBe(200);
    expect(await bob.next('rights_changed')).toMatchObject({ changes: ['talk'] });
    expect(await bob.emitAck('floor_request', { room: w.red.rtcSession })).toEqual({
      granted: true,
      grantId: expect.any(String),
    });
  });

  it("demotes an administrator: its sockets leave the administrators' room, no more positions of others' channels", async () => {
    const second = await createWithRole(w.app, w.admin, 'admin', { firstName: 'Second', lastName: 'Admin' });
    const console = await w.open(second);
    const carol = await w.joined(w.carol, w.blue);
    await reportPosition(carol, 47.1);
    expect(await heardPositions(console, w.carol.id)).toEqual([47.1]);

    expect((await edit(w, second.id, { role: 'member', firstName: 'Second', lastName: 'Admin' })).status).toBe(200);
    expect(await console.next('rights_changed')).toMatchObject({ role: 'member', changes: ['role', 'map'] });
    await reportPosition(carol, 47.2);
    expect(await heardPositions(console, w.carol.id)).toEqual([47.1]);
    // What the socket may do follows too: a channel it is not a member of is refused now.
    const join = await console.emitAck('join_room', { room: w.blue.rtcSession, mode: 'listen' });
    expect(join).toEqual({ success: false, result: 'join_room: you are not a member of the channel "Blue".' });
  });

  it('removes a dispatcher from a channel: no more SOS alerts of that channel reach its console', async () => {
    const dispatcher = await createWithRole(w.app, w.admin, 'dispatcher');
    await w.app.services.memberships.add(w.red.id, [dispatcher.id]);
    const console = await w.open(dispatcher);
    await w.app.services.emergency.raise({ userId: w.alice.id, role: 'member' }, { channelId: w.red.id });
    expect(await console.next('emergencyAlert')).toMatchObject({ userId: w.alice.id, channelId: w.red.id });

    await w.app.call('/user/api/deleteUserFromChannel', { userId: dispatcher.id, channelId: w.red.id }, w.admin.token);
    expect(await console.next('rights_changed')).toMatchObject({ role: 'dispatcher', changes: ['channels'] });
    await w.app.services.emergency.raise({ userId: w.bob.id, role: 'member' }, { channelId: w.red.id });
    await console.flush();
    expect(console.all('emergencyAlert')).toHaveLength(1);
  });

  it('follows an import that takes map access away, and removeUserChannels', async () => {
    const alice = await w.joined(w.alice, w.red);
    const bob = await w.joined(w.bob, w.red);
    const imported = await w.app.call(
      '/user/api/createMultipleUsers',
      {
        mode: 'update',
        userData: [
          {
            firstName: 'Alice',
            lastName: 'Martin',
            identifier: w.alice.identifier,
            pseudo: 'alice',
            password: '',
            mapRight: 'faux',
            canal: '',
          },
        ],
      },
      w.admin.token,
    );
    expect(imported.body.createdUsers.updated).toHaveLength(1);
    expect(await alice.next('rights_changed')).toMatchObject({ mapRight: false, changes: ['map'] });
    await reportPosition(bob, 46.1);
    expect(await heardPositions(alice, w.bob.id)).toEqual([]);

    const removed = await w.app.call(
      '/user/api/removeUserChannels/',
      { userIdentifier: w.bob.identifier },
      w.admin.token,
    );
    expect(removed.status).toBe(200);
    expect(await bob.next('rights_changed')).toMatchObject({ changes: ['channels'], left: [w.red.rtcSession] });
    expect(await alice.next('user_exit')).toEqual({ id: bob.id, room: w.red.rtcSession });
  });
});

describe.each(databases)('changes written by another process, on %s', (dialect) => {
  // Each instance checks its sockets this often: what `npm run admin` wrote without Redis arrives within it.
  const w = realtimeWorld(dialect, () => ({ rightsRecheckMs: 200 }));

  it('gives an open socket a role written straight into the database, at the next periodic check', async () => {
    const alice = await w.open(w.alice);
    const carol = await w.joined(w.carol, w.blue);
    await w.db().updateTable('users').set({ role: 'admin' }).where('id', '=', w.alice.id).execute();
    expect(await alice.next('rights_changed')).toMatchObject({ role: 'admin', changes: ['role'] });
    await reportPosition(carol, 45.1);
    expect(await heardPositions(alice, w.carol.id)).toEqual([45.1]);
  });

  it('ends the sockets of sessions deleted by another process', async () => {
    const bob = await w.joined(w.bob, w.red);
    await w.db().deleteFrom('sessions').where('user_id', '=', w.bob.id).execute();
    expect(await bob.next('session_ended')).toEqual({
      reason: 'revoked',
      message: 'You were disconnected from all devices: sign in again.',
    });
    expect(await bob.next('disconnect')).toBe('io server disconnect');
  });

  it.runIf(dialect === 'sqlite')(
    'follows `npm run admin -- promote` and `reset-password` on the same database',
    async () => {
      const alice = await w.open(w.alice);
      const env = { DATA_DIR: w.app.config.dataDir, TALKGROUP_PASSWORD: 'a-fresh-start-42' };
      expect(await runAdminCommand(['promote', w.alice.identifier], env)).toMatch(/follow within 30 s/);
      expect(await alice.next('rights_changed')).toMatchObject({ role: 'admin' });
      expect(await runAdminCommand(['reset-password', w.alice.identifier], env)).toMatch(/session\(s\) ended/);
      expect(await alice.next('session_ended')).toMatchObject({ reason: 'revoked' });
    },
  );
});
