/**
 * Issue 69 item 4: an SOS raised for someone else is not a microphone. A dispatcher's `sendEmergencyAlert { userId,
 * channelId }` (HTTP and the socket's `emergency_alert`) is accepted only in a channel it dispatches and the member
 * belongs to, with the member's last reported position (never the caller's); it opens the member's microphone only
 * with the safety setting `emergencyOpenMic: 'any_alert'`, never in a listen-only membership; it is no lone worker's
 * check-in; and it is audited as the dispatcher's with the alert, or not raised at all.
 */
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { type Account, databases } from './harness.ts';
import { eventually } from './realtime-harness.ts';
import { world } from './world.ts';

describe.each(databases)('an SOS raised for someone else on %s', { timeout: 60_000 }, (dialect) => {
  const w = world(dialect, {
    config: { loneWorkerMinSeconds: 1 },
    people: {
      /** Dispatches Quai; a member of Dépôt too, where it dispatches nothing it may not. */
      dana: { role: 'dispatcher', firstName: 'Dana', lastName: 'Desk' },
      /** Dispatches Dépôt. */
      olga: { role: 'dispatcher', firstName: 'Olga', lastName: 'Other' },
      alice: { role: 'member', firstName: 'Alice', lastName: 'Field' },
      carl: { role: 'member', firstName: 'Carl', lastName: 'Field' },
      lena: { role: 'member', firstName: 'Lena', lastName: 'Listen' },
    },
    channels: {
      // Lena only listens in Quai.
      quai: { name: 'Quai', members: ['dana', 'alice', 'carl', 'lena'], listenOnly: ['lena'] },
      depot: { name: 'Dépôt', members: ['olga', 'alice'] },
    },
  });
  const raise = (body: object, who: Account) => w.app.call('/user/api/sendEmergencyAlert', body, who.token);
  const openMic = async (mode: 'own_alert' | 'any_alert') =>
    expect((await w.app.call('/user/api/setSafetySettings', { emergencyOpenMic: mode }, w.admin.token)).status).toBe(
      200,
    );
  const alertRows = () => w.app.services.db.selectFrom('emergency_alerts').selectAll().execute();

  it('is accepted only in a channel the caller dispatches and the member belongs to; absent, channelId is a 400', async () => {
    const { admin, dana, olga, alice, carl, quai, depot } = w;
    // Alice is in Dépôt, but Dana does not dispatch it: a foreign channel.
    const foreign = await raise({ userId: alice.id, channelId: depot.id }, dana);
    expect(foreign.status).toBe(403);
    expect(foreign.body.code).toBe('not_allowed');
    // A channel Olga dispatches, but not one Carl belongs to; and someone who is nobody there (an unknown user).
    expect((await raise({ userId: carl.id, channelId: depot.id }, olga)).body.code).toBe('not_allowed');
    expect((await raise({ userId: 999_999, channelId: depot.id }, olga)).status).toBe(403);
    expect((await raise({ userId: 999_999, channelId: quai.id }, admin)).status).toBe(403);
    // A member raises no SOS for another, even in its own channel.
    expect((await raise({ userId: alice.id, channelId: quai.id }, carl)).status).toBe(403);
    const absent = await raise({ userId: alice.id }, dana);
    expect(absent.status).toBe(400);
    expect(absent.body.result).toMatch(/channelId/);
    expect(await alertRows()).toEqual([]);

    // By the socket too.
    const desk = await w.open(dana);
    const overSocket = await desk.emitAck('emergency_alert', { userId: alice.id, channelId: depot.id });
    expect(overSocket).toMatchObject({ success: false, result: expect.stringMatching(/^emergency_alert: /) });
    expect(await alertRows()).toEqual([]);

    const raised = await raise({ userId: alice.id, channelId: quai.id }, dana);
    expect(raised.status).toBe(200);
    expect(raised.body.res).toMatchObject({
      userId: alice.id,
      channelId: quai.id,
      reason: 'sos',
      raisedBy: { id: dana.id, display_name: 'Dana Desk' },
    });
    // An administrator dispatches every channel: in Dépôt, where Alice is.
    const byAdmin = await raise({ userId: alice.id, channelId: depot.id }, admin);
    expect(byAdmin.status).toBe(429);
    expect(byAdmin.body.code).toBe('emergency_raised_recently');
    // The dispatcher's SOS does not hold back the member's own (which opens its microphone).
    expect((await raise({ channelId: quai.id }, alice)).status).toBe(200);
  });

  it("carries the member's last reported position, never the caller's", async () => {
    const { app, dana, alice, carl, quai } = w;
    await app.services.positions.add(alice.id, { lat: 45.1, lng: 5.2, accuracy: 30 });
    await app.services.positions.add(alice.id, { lat: 45.76, lng: 4.83, accuracy: 9 });
    await app.services.positions.add(dana.id, { lat: 48.85, lng: 2.35, accuracy: 5 });
    const raised = await raise({ userId: alice.id, channelId: quai.id, lat: 48.85, lng: 2.35, accuracy: 5 }, dana);
    expect(raised.status).toBe(200);
    expect(raised.body.res).toMatchObject({ lat: 45.76, lng: 4.83, accuracy: 9 });
    // A member who never reported one: no position, not the caller's.
    const desk = await w.open(dana);
    const overSocket = (await desk.emitAck('emergency_alert', {
      userId: carl.id,
      channelId: quai.id,
      lat: 48.85,
      lng: 2.35,
    })) as unknown as { success: boolean; res: { lat: unknown; lng: unknown } };
    expect(overSocket.success).toBe(true);
    expect(overSocket.res).toMatchObject({ lat: null, lng: null });
  });

  it("opens the member's microphone only with emergencyOpenMic 'any_alert', never where it only listens", async () => {
    const { app, dana, alice, carl, lena, quai } = w;
    const alicePhone = await w.joined(alice, quai.rtcSession);
    const carlPhone = await w.joined(carl, quai.rtcSession);
    const lenaPhone = await w.joined(lena, quai.rtcSession);

    // The default: the dispatcher's SOS reaches Alice's page, but opens nothing.
    expect((await raise({ userId: alice.id, channelId: quai.id }, dana)).status).toBe(200);
    await alicePhone.next('emergencyAlert');
    await alicePhone.flush();
    expect(alicePhone.all('floor_granted')).toEqual([]);
    const read = await app.call('/user/api/getSafetySettings', {}, alice.token);
    expect(read.body.res.emergencyOpenMic).toBe('own_alert');

    await openMic('any_alert');
    expect((await raise({ userId: carl.id, channelId: quai.id }, dana)).status).toBe(200);
    expect(await carlPhone.next('floor_granted')).toMatchObject({ room: quai.rtcSession, reason: 'emergency' });
    // Lena's membership only listens: no microphone, whatever the setting.
    expect((await raise({ userId: lena.id, channelId: quai.id }, dana)).status).toBe(200);
    await lenaPhone.next('emergencyAlert', (alert) => alert.userId === lena.id);
    await lenaPhone.flush();
    expect(lenaPhone.all('floor_granted')).toEqual([]);
    // Her own SOS still opens it (issue 14: an alert opens its sender's microphone whatever its rights), once Carl's
    // emergency has let go of the floor.
    carlPhone.socket.emit('floor_release', { room: quai.rtcSession });
    await lenaPhone.next('floor_idle');
    expect((await raise({ channelId: quai.id }, lena)).status).toBe(200);
    expect(await lenaPhone.next('floor_granted')).toMatchObject({ room: quai.rtcSession, reason: 'emergency' });
  });

  it("is no lone worker's check-in: only the worker's own press or checkIn answers", async () => {
    const { app, admin, dana, alice, carl, quai, depot } = w;
    // The floor it opens (its granting, below, proves the setting took).
    await app.call('/user/api/setSafetySettings', { emergencyOpenMic: 'any_alert' }, admin.token);
    expect(
      (
        await app.call(
          '/user/api/setSafetySettings',
          { loneWorker: { intervalSeconds: 1, graceSeconds: 60 } },
          admin.token,
        )
      ).status,
    ).toBe(200);
    // Carl talks in Dépôt: the floor of Quai is the SOS's.
    await app.services.memberships.add(depot.id, [carl.id]);
    const alicePhone = await w.joined(alice, quai.rtcSession);
    const watcher = await w.joined(dana, quai.rtcSession);
    const carlPhone = await w.joined(carl, depot.rtcSession);
    const state = async (userId: number) =>
      (await app.call('/user/api/getLoneWorkers', { userId }, admin.token)).body.res?.[0]?.state as string;
    for (const [account, phone] of [
      [alice, alicePhone],
      [carl, carlPhone],
    ] as const) {
      expect((await app.call('/user/api/startLoneWorker', {}, account.token)).status).toBe(200);
      await phone.next('lone_worker_check');
      expect(await state(account.id)).toBe('due');
    }

    // The dispatcher's SOS opens Alice's microphone (the setting says so): a floor, but not her answer.
    expect((await raise({ userId: alice.id, channelId: quai.id }, dana)).status).toBe(200);
    await alicePhone.next('floor_granted');
    await watcher.next('onMicStateChanged', (change) => change.userId === alice.id && change.micState);
    await eventually(
      async () =>
        (await app.services.db.selectFrom('talk_bursts').select('id').where('user_id', '=', alice.id).execute())
          .length > 0,
      "the SOS's transmission kept",
    );
    // Carl's own press, after it, answers his check: by then Alice's would have been answered too.
    expect(await carlPhone.emitAck('floor_request', { room: depot.rtcSession })).toMatchObject({ granted: true });
    await eventually(async () => (await state(carl.id)) === 'ok', "Carl's press answered his check");
    expect(await state(alice.id)).toBe('due');
    // Her own "I'm OK" does.
    expect((await app.call('/user/api/checkIn', {}, alice.token)).body.res.state).toBe('ok');
  });

  it("is audited as the caller's with the alert, over HTTP and the socket, or not raised at all", async () => {
    const { app, admin, dana, alice, carl, quai } = w;
    const boss = await w.open(admin);
    const desk = await w.open(dana);
    const overSocket = (await desk.emitAck('emergency_alert', { userId: alice.id, channelId: quai.id })) as unknown as {
      success: boolean;
      res: { id: number };
    };
    expect(overSocket.success).toBe(true);
    const entries = (await app.call('/user/api/getAuditLog', {}, admin.token)).body.res.entries;
    expect(entries.find((e: { action: string }) => e.action === 'alert.raise')).toMatchObject({
      actor: { id: dana.id },
      targetType: 'alert',
      targetId: overSocket.res.id,
      changes: { raisedFor: { after: { userId: alice.id } }, channelId: { after: quai.id } },
    });
    await boss.next('emergencyAlert', (alert) => alert.id === overSocket.res.id);

    // The audit log cannot be written: the alert is not raised, nobody hears of it, and the member may be again.
    await sql`alter table audit_log rename to audit_log_away`.execute(app.services.db);
    const failed = await raise({ userId: carl.id, channelId: quai.id }, dana);
    expect(failed.status).toBe(500);
    expect((await alertRows()).map((row) => row.user_id)).toEqual([alice.id]);
    await sql`alter table audit_log_away rename to audit_log`.execute(app.services.db);
    const again = await raise({ userId: carl.id, channelId: quai.id }, dana);
    expect(again.status).toBe(200);
    await boss.next('emergencyAlert', (alert) => alert.id === again.body.res.id);
    expect(boss.all('emergencyAlert').map((alert) => alert.userId)).toEqual([alice.id, carl.id]);
  });
});
