/**
 * Issue 70 item 1: a member's phone says what was done to it. Its own open alert is read back (getMyEmergencyAlert)
 * and pushed to its sockets whichever page they show (not only those in the alert's channel room): raised, taken
 * (with the taker's name), closed. Its microphone opened by the alert says why (floor_granted's `alert`). Its
 * "Je vais bien" (reportOk, or checkIn on the SOS of missed checks) reaches those who take the alert at once
 * (emergencyOk, with okAt), audited; only ever for its own alert.
 */
import { describe, expect, it } from 'vitest';
import { type Account, databases } from './harness.ts';
import { eventually } from './realtime-harness.ts';
import { world } from './world.ts';

describe.each(databases)("a member's own alert on %s", { timeout: 60_000 }, (dialect) => {
  const w = world(dialect, {
    config: { loneWorkerMinSeconds: 1 },
    people: {
      /** Dispatches Quai. */
      dana: { role: 'dispatcher', firstName: 'Dana', lastName: 'Desk' },
      /** Dispatches Dépôt, where Alice is not. */
      olga: { role: 'dispatcher', firstName: 'Olga', lastName: 'Other' },
      alice: { role: 'member', firstName: 'Alice', lastName: 'Field' },
      carl: { role: 'member', firstName: 'Carl', lastName: 'Field' },
    },
    channels: {
      quai: { name: 'Quai', members: ['dana', 'alice', 'carl'] },
      depot: { name: 'Dépôt', members: ['olga', 'carl'] },
    },
  });
  const mine = async (who: Account) => (await w.app.call('/user/api/getMyEmergencyAlert', {}, who.token)).body.res;

  it('is read back by its member alone, until it is closed; taken and closed reach its phone on any page', async () => {
    const { app, dana, alice, carl, quai } = w;
    expect(await mine(alice)).toBeNull();
    // Alice's phone is on /talk's home page: in no channel room.
    const phone = await w.open(alice);
    const raised = await app.call('/user/api/sendEmergencyAlert', { userId: alice.id, channelId: quai.id }, dana.token);
    expect(raised.status).toBe(200);
    expect(await phone.next('emergencyAlert')).toMatchObject({ id: raised.body.res.id, acknowledgedBy: null });
    expect(await mine(alice)).toMatchObject({ id: raised.body.res.id, reason: 'sos', okAt: null });
    // Nobody else's own alert.
    expect(await mine(carl)).toBeNull();
    expect(await mine(dana)).toBeNull();

    expect(
      (await app.call('/user/api/acknowledgeEmergencyAlert', { alertId: raised.body.res.id }, dana.token)).status,
    ).toBe(200);
    expect(await phone.next('emergencyAcknowledged')).toMatchObject({
      id: raised.body.res.id,
      acknowledgedBy: { id: dana.id, display_name: 'Dana Desk' },
      closedAt: null,
    });
    expect((await mine(alice)).acknowledgedBy).toMatchObject({ display_name: 'Dana Desk' });

    const closed = await app.call(
      '/user/api/closeEmergencyAlert',
      { alertId: raised.body.res.id, outcome: 'false' },
      dana.token,
    );
    expect(closed.status).toBe(200);
    expect(await phone.next('emergencyAcknowledged', (alert) => alert.closedAt !== null)).toMatchObject({
      closedBy: { display_name: 'Dana Desk' },
    });
    expect(await mine(alice)).toBeNull();
  });

  it('tells its dispatchers at once of the member\'s "Je vais bien", audited, and only for its own alert', async () => {
    const { app, admin, dana, olga, alice, carl, quai } = w;
    const desk = await w.open(dana);
    const elsewhere = await w.open(olga);
    const boss = await w.open(admin);
    const raised = await app.call('/user/api/sendEmergencyAlert', { channelId: quai.id }, alice.token);
    expect(raised.status).toBe(200);
    const alertId = raised.body.res.id as number;

    // Not Carl's alert: not found, whether he names it or not; a closed or unknown one neither.
    expect((await app.call('/user/api/reportOk', { alertId }, carl.token)).status).toBe(404);
    expect((await app.call('/user/api/reportOk', {}, carl.token)).status).toBe(404);
    expect((await app.call('/user/api/reportOk', { alertId }, dana.token)).status).toBe(404);
    expect((await app.call('/user/api/reportOk', { alertId: 'x' }, alice.token)).status).toBe(400);
    expect((await app.call('/user/api/reportOk', { alertId, extra: 1 }, alice.token)).status).toBe(400);
    expect((await app.call('/user/api/reportOk', {}, undefined)).status).toBe(401);

    const ok = await app.call('/user/api/reportOk', {}, alice.token);
    expect(ok.status).toBe(200);
    expect(ok.body.res).toMatchObject({ id: alertId, okAt: expect.any(String), closedAt: null });
    expect(await desk.next('emergencyOk')).toMatchObject({ id: alertId, display_name: 'Alice Field' });
    expect(await boss.next('emergencyOk')).toMatchObject({ id: alertId });
    await elsewhere.flush();
    expect(elsewhere.all('emergencyOk')).toEqual([]);
    // Its phone and the console read it back on the alert.
    expect((await mine(alice)).okAt).toBe(ok.body.res.okAt);
    const page = await app.call('/user/api/getEmergencyAlerts', {}, dana.token);
    expect(page.body.res.alerts[0]).toMatchObject({ id: alertId, okAt: ok.body.res.okAt });

    const entries = (await app.call('/user/api/getAuditLog', {}, admin.token)).body.res.entries;
    expect(entries.find((e: { action: string }) => e.action === 'alert.ok')).toMatchObject({
      actor: { id: alice.id },
      targetType: 'alert',
      targetId: alertId,
    });

    await app.call('/user/api/closeEmergencyAlert', { alertId, outcome: 'false' }, dana.token);
    expect((await app.call('/user/api/reportOk', { alertId }, alice.token)).status).toBe(409);
    expect((await app.call('/user/api/reportOk', {}, alice.token)).status).toBe(404);
  });

  it('says why the microphone it opened is on, and for how long', async () => {
    const { app, alice, quai } = w;
    const phone = await w.open(alice);
    phone.socket.emit('join_room', { room: quai.rtcSession });
    await phone.next('all_users');
    expect((await app.call('/user/api/sendEmergencyAlert', { channelId: quai.id }, alice.token)).status).toBe(200);
    expect(await phone.next('floor_granted')).toMatchObject({
      room: quai.rtcSession,
      reason: 'emergency',
      holdMs: 10_000,
      alert: { reason: 'sos', raisedBy: null },
    });
  });

  it('hears the "Je vais bien" of a lone worker whose missed checks raised the SOS, and starts its round again', async () => {
    const { app, admin, dana, alice } = w;
    const set = await app.call(
      '/user/api/setSafetySettings',
      { loneWorker: { intervalSeconds: 1, graceSeconds: 1 } },
      admin.token,
    );
    expect(set.status).toBe(200);
    const desk = await w.open(dana);
    const phone = await w.open(alice);
    expect((await app.call('/user/api/startLoneWorker', {}, alice.token)).status).toBe(200);
    const alert = await phone.next('emergencyAlert', (raised) => raised.reason === 'lone_worker');
    await eventually(async () => (await mine(alice))?.id === alert.id, 'the SOS read back');
    // The prompt's "Je vais bien" (checkIn) tells the dispatchers too.
    const answered = await app.call('/user/api/checkIn', {}, alice.token);
    expect(answered.status).toBe(200);
    expect(answered.body.res.state).toBe('ok');
    expect(await desk.next('emergencyOk')).toMatchObject({ id: alert.id, reason: 'lone_worker' });
  });
});
