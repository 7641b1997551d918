/**
 * The emergency alert (issue 14): raised over HTTP or the socket, pushed at once to every administrator and
 * to the sender's channels with its position, acknowledged by an administrator only, at most one per 30 s
 * per sender; the sender gets its channel's floor with top priority. And the per-channel floor switch:
 * with floor control off, everyone may talk at once. Each transmission is kept as channel_talk with its
 * duration.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChannelSummary } from '../src/channels/store.ts';
import { type Account, createMember, databases, signUpAdmin, startApp, type TestApp } from './harness.ts';
import { connect, eventually, listen, type TestClient } from './realtime-harness.ts';

describe.each(databases)('emergency alerts and the floor switch on %s', (dialect) => {
  let app: TestApp;
  let url: string;
  let admin: Account;
  let alice: Account;
  let bob: Account;
  let outsider: Account;
  let channel: ChannelSummary;
  const clients: TestClient[] = [];

  const connected = async (account: Account) => {
    const client = await connect(url, account.token);
    clients.push(client);
    return client;
  };
  const joined = async (account: Account, room = channel.rtcSession) => {
    const client = await connected(account);
    client.socket.emit('join_room', { room });
    await client.next('all_users');
    return client;
  };
  const request = (client: TestClient, room = channel.rtcSession) => client.emitAck('floor_request', { room });

  beforeEach(async () => {
    app = await startApp(dialect);
    url = await listen(app);
    admin = await signUpAdmin(app);
    alice = await createMember(app, admin, { firstName: 'Alice', lastName: 'Field' });
    bob = await createMember(app, admin, { firstName: 'Bob', lastName: 'Field' });
    outsider = await createMember(app, admin, { firstName: 'Otto', lastName: 'Outside' });
    channel = await app.services.channels.create('Net');
    await app.services.memberships.add(channel.id, [alice.id, bob.id]);
  });
  afterEach(async () => {
    for (const client of clients.splice(0)) client.close();
    await app.close();
  });

  it('pushes an alert with its position to every administrator and to the sender’s channels, records it, and refuses a second one within 30 s', async () => {
    const console = await connected(admin);
    const listener = await joined(bob);
    const away = await connected(outsider);
    const sent = await app.call(
      '/user/api/sendEmergencyAlert',
      { channelId: channel.id, lat: 48.85, lng: 2.35, accuracy: 12 },
      alice.token,
    );
    expect(sent.status).toBe(200);
    expect(sent.body.res).toMatchObject({
      userId: alice.id,
      display_name: 'Alice Field',
      channelId: channel.id,
      channelName: 'Net',
      lat: 48.85,
      lng: 2.35,
      accuracy: 12,
      acknowledgedBy: null,
      acknowledgedAt: null,
    });
    const alertId = sent.body.res.id;
    expect(await console.next('emergencyAlert')).toMatchObject({ id: alertId, lat: 48.85, lng: 2.35 });
    expect(await listener.next('emergencyAlert')).toMatchObject({ id: alertId, display_name: 'Alice Field' });
    await away.flush();
    expect(away.all('emergencyAlert')).toEqual([]);

    const activity = await console.next('onActivity', (a) => a.type === 'emergency');
    expect(activity).toMatchObject({ user: { id: alice.id }, channel: { id: channel.id, name: 'Net' } });
    // Kept in the activity log that the console reads (moved from e2e/emergency.spec.ts).
    const log = await app.call('/user/api/getAllActivities/', { start: 0, limit: 20 }, admin.token);
    expect(log.body.res.activities).toContainEqual(
      expect.objectContaining({ type: 'emergency', user: expect.objectContaining({ id: alice.id }) }),
    );

    const again = await app.call('/user/api/sendEmergencyAlert', {}, alice.token);
    expect(again.status).toBe(429);
    expect(again.body).toMatchObject({ success: false, result: expect.stringContaining('30 seconds') });
    const socketAgain = await (await connected(alice)).emitAck('emergency_alert', {});
    expect(socketAgain).toEqual({ success: false, result: expect.stringMatching(/^emergency_alert: .*30 seconds/) });
  });

  it('lets only an administrator acknowledge and list alerts; the acknowledgement names who took it', async () => {
    const console = await connected(admin);
    const listener = await joined(bob);
    const sent = await (await connected(alice)).emitAck('emergency_alert', { channelId: String(channel.id) });
    const alert = (sent as unknown as { success: true; res: { id: number } }).res;
    expect(sent.success).toBe(true);
    await console.next('emergencyAlert');

    const byMember = await app.call('/user/api/acknowledgeEmergencyAlert', { alertId: alert.id }, bob.token);
    expect(byMember.status).toBe(403);
    expect((await app.call('/user/api/getEmergencyAlerts', { start: 0, limit: 10 }, bob.token)).status).toBe(403);

    const taken = await app.call('/user/api/acknowledgeEmergencyAlert', { alertId: alert.id }, admin.token);
    expect(taken.status).toBe(200);
    expect(taken.body.res).toMatchObject({ id: alert.id, acknowledgedBy: { id: admin.id, display_name: 'Ada Admin' } });
    expect(taken.body.res.acknowledgedAt).toEqual(expect.any(String));
    expect(await listener.next('emergencyAcknowledged')).toMatchObject({
      id: alert.id,
      acknowledgedBy: { display_name: 'Ada Admin' },
    });
    expect((await app.call('/user/api/acknowledgeEmergencyAlert', { alertId: 999999 }, admin.token)).status).toBe(404);

    // An open alert is listed before an older acknowledged one, newest first within each group.
    await app.call('/user/api/sendEmergencyAlert', {}, bob.token);
    const listed = await app.call('/user/api/getEmergencyAlerts', { start: 0, limit: 10 }, admin.token);
    expect(listed.status).toBe(200);
    expect(listed.body.res.totalRecords).toBe(2);
    expect(listed.body.res.open).toBe(1);
    expect(listed.body.res.alerts.map((a: { userId: number }) => a.userId)).toEqual([bob.id, alice.id]);
  });

  it('validates the alert: a position needs both coordinates, a channel must be the sender’s', async () => {
    const halfPosition = await app.call('/user/api/sendEmergencyAlert', { lat: 10 }, alice.token);
    expect(halfPosition.status).toBe(400);
    expect(halfPosition.body.result).toMatch(/lng/);
    const outOfRange = await app.call('/user/api/sendEmergencyAlert', { lat: 100, lng: 0 }, alice.token);
    expect(outOfRange.status).toBe(400);
    const notMine = await app.call('/user/api/sendEmergencyAlert', { channelId: channel.id }, outsider.token);
    expect(notMine.status).toBe(403);
    expect((await app.call('/user/api/sendEmergencyAlert', {})).status).toBe(401);
  });

  it('gives the sender the floor with top priority: an administrator holding it is preempted and cannot take it back', async () => {
    const a = await joined(alice);
    const boss = await joined(admin);
    expect(await request(boss)).toEqual({ granted: true, grantId: expect.any(String) });
    const sent = await app.call('/user/api/sendEmergencyAlert', {}, alice.token);
    expect(sent.status).toBe(200);
    // Without channelId, the alert is for the channel the sender is in.
    expect(sent.body.res.channelId).toBe(channel.id);
    expect(await a.next('floor_granted')).toEqual({
      room: channel.rtcSession,
      reason: 'emergency',
      holdMs: 10000,
      grantId: expect.any(String),
      // Issue 70: which alert opened the microphone, for the phone to say why.
      alert: { id: sent.body.res.id, reason: 'sos', raisedBy: null },
    });
    expect(await boss.next('floor_revoked')).toEqual({
      room: channel.rtcSession,
      reason: 'preempted',
      by: { userId: alice.id, name: 'Alice Field' },
    });
    expect(await boss.next('onMicStateChanged', (c) => c.userId === alice.id && c.micState)).toMatchObject({
      micState: true,
    });
    // Issue 59: the channel has a floor queue: the administrator waits behind the emergency.
    expect(await request(boss)).toEqual({
      granted: false,
      queued: true,
      position: 1,
      holder: { userId: alice.id, name: 'Alice Field' },
    });
  });

  it('lets everyone talk at once in a channel whose floor control is off, and keeps each transmission with its duration', async () => {
    const created = await app.call(
      '/user/api/createChannel',
      { channelName: 'Open', floorControl: false },
      admin.token,
    );
    expect(created.status).toBe(200);
    expect(created.body.res.floorControl).toBe(false);
    const open = created.body.res;
    await app.services.memberships.add(open.id, [alice.id, bob.id]);
    const a = await joined(alice, open.rtcSession);
    const b = await joined(bob, open.rtcSession);
    expect(await request(a, open.rtcSession)).toEqual({ granted: true, grantId: expect.any(String) });
    expect(await request(b, open.rtcSession)).toEqual({ granted: true, grantId: expect.any(String) });
    expect(await b.next('onMicStateChanged', (c) => c.userId === alice.id)).toMatchObject({ micState: true });

    // Turned on again: one talker at a time.
    const updated = await app.call(
      '/user/api/updateChannel',
      { channelId: open.id, channelName: 'Open', floorControl: true },
      admin.token,
    );
    expect(updated.body.res.floorControl).toBe(true);
    const all = await app.call('/user/api/getAllChannels', {}, admin.token);
    expect(all.body.res.find((c: { id: number }) => c.id === open.id).floorControl).toBe(true);
    a.socket.emit('floor_release', { room: open.rtcSession });
    b.socket.emit('floor_release', { room: open.rtcSession });
    await eventually(async () => {
      const talks = await app.services.db
        .selectFrom('activities')
        .select(['user_id', 'duration_ms'])
        .where('type', '=', 'channel_talk')
        .where('channel_id', '=', open.id)
        .execute();
      return talks.length === 2 && talks.every((t) => typeof t.duration_ms === 'number' && t.duration_ms >= 0);
    }, 'two channel_talk entries with a duration');
    expect(await request(a, open.rtcSession)).toEqual({ granted: true, grantId: expect.any(String) });
    expect(await request(b, open.rtcSession)).toMatchObject({ granted: false, holder: { userId: alice.id } });
    const log = await app.call('/user/api/getAllActivities/', { start: 0, limit: 10 }, admin.token);
    const talk = log.body.res.activities.find((a: { type: string }) => a.type === 'channel_talk');
    expect(talk.durationMs).toEqual(expect.any(Number));
  });
});
