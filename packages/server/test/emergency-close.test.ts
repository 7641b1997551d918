/**
 * Closing an SOS with its outcome (issue 50): by an administrator or a dispatcher of the alert's channel (an
 * alert without channel: administrators only); an open alert is taken by the same step; a closed one is 409.
 * The close is in the activity log (emergency_close, with how long the alert was open), in the audit log, in
 * the alerts read back, and pushed like an acknowledgement to those who see the alert.
 */
import { describe, expect, it } from 'vitest';
import { type Account, databases } from './harness.ts';
import { world } from './world.ts';

describe.each(databases)('closing an emergency alert on %s', (dialect) => {
  const w = world(dialect, {
    people: {
      alice: { role: 'member', firstName: 'Alice', lastName: 'Field' },
      desk: { role: 'dispatcher', firstName: 'Dana', lastName: 'Desk' },
      otherDesk: { role: 'dispatcher', firstName: 'Olly', lastName: 'Other' },
    },
    channels: {
      channel: { name: 'Net', members: ['alice', 'desk'] },
      elsewhere: { name: 'Elsewhere', members: ['otherDesk'] },
    },
  });

  const close = (alertId: unknown, outcome: unknown, who: Account) =>
    w.app.call('/user/api/closeEmergencyAlert', { alertId, outcome }, who.token);
  /** An alert of Alice's, in `channel` or (null) without channel; straight through the service: no 30 s wait. */
  const raised = (channelId: number | null) =>
    w.app.services.emergency.raise(
      { userId: w.alice.id, role: 'member', mapRight: false },
      channelId !== null ? { channelId } : {},
    );

  it('lets a dispatcher of the channel close an open alert: taken and closed at once, logged, pushed and read back', async () => {
    const { app, admin, desk, channel } = w;
    const console = await w.open(admin);
    const deskSocket = await w.open(desk);
    const alert = await raised(channel.id);
    await console.next('emergencyAlert', (a) => a.id === alert.id);

    const closed = await close(alert.id, 'false', desk);
    expect(closed.status).toBe(200);
    expect(closed.body.res).toMatchObject({
      id: alert.id,
      acknowledgedBy: { id: desk.id, display_name: 'Dana Desk' },
      closedBy: { id: desk.id, display_name: 'Dana Desk' },
      outcome: 'false',
    });
    expect(closed.body.res.closedAt).toEqual(closed.body.res.acknowledgedAt);
    expect(Date.parse(closed.body.res.closedAt)).toBeGreaterThanOrEqual(Date.parse(alert.createdAt));

    // Pushed as acknowledging is, to the administrators and to the channel's dispatchers.
    for (const socket of [console, deskSocket])
      expect(await socket.next('emergencyAcknowledged', (a) => a.id === alert.id)).toMatchObject({
        outcome: 'false',
        closedBy: { id: desk.id, display_name: 'Dana Desk' },
      });

    const activity = await console.next('onActivity', (a) => a.type === 'emergency_close');
    expect(activity).toMatchObject({
      user: { id: desk.id, display_name: 'Dana Desk' },
      channel: { id: channel.id, name: 'Net' },
      emergency: { alertId: alert.id, outcome: 'false', sender: 'Alice Field', openMs: expect.any(Number) },
    });
    expect(activity.emergency?.openMs).toBe(Date.parse(closed.body.res.closedAt) - Date.parse(alert.createdAt));
    const log = await app.call('/user/api/getAllActivities/', { start: 0, limit: 20 }, admin.token);
    expect(log.body.res.activities).toContainEqual(
      expect.objectContaining({ type: 'emergency_close', emergency: activity.emergency }),
    );

    const listed = await app.call('/user/api/getEmergencyAlerts', { start: 0, limit: 10 }, admin.token);
    expect(listed.body.res.open).toBe(0);
    expect(listed.body.res.alerts[0]).toMatchObject({
      id: alert.id,
      outcome: 'false',
      closedBy: { id: desk.id },
      closedAt: closed.body.res.closedAt,
    });
    const audit = await app.services.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'alert.close')
      .executeTakeFirst();
    expect(audit).toMatchObject({ actor_id: desk.id, target_id: alert.id });

    // Closed once: a second close says so, whoever tries.
    const again = await close(alert.id, 'real', admin);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ success: false, result: expect.stringContaining('already closed') });
    expect(again.body.result).toContain('Dana Desk');
  });

  it('keeps an earlier acknowledgement and refuses members, other channels’ dispatchers, unknown alerts and bad outcomes', async () => {
    const { app, admin, alice, desk, otherDesk, channel } = w;
    const alert = await raised(channel.id);
    expect((await app.call('/user/api/acknowledgeEmergencyAlert', { alertId: alert.id }, admin.token)).status).toBe(
      200,
    );
    expect((await close(alert.id, 'real', alice)).status).toBe(403);
    expect((await close(alert.id, 'real', otherDesk)).status).toBe(403);
    expect((await close(999999, 'real', admin)).status).toBe(404);
    const badOutcome = await close(alert.id, 'maybe', desk);
    expect(badOutcome.status).toBe(400);
    expect(badOutcome.body.result).toMatch(/outcome/);
    expect((await close('x', 'real', desk)).status).toBe(400);
    expect((await app.call('/user/api/closeEmergencyAlert', { alertId: alert.id, outcome: 'real' })).status).toBe(401);

    const closed = await close(alert.id, 'real', desk);
    expect(closed.status).toBe(200);
    // Taken earlier by the administrator: that stays; the close is the dispatcher's.
    expect(closed.body.res).toMatchObject({
      acknowledgedBy: { id: admin.id },
      closedBy: { id: desk.id },
      outcome: 'real',
    });
    expect(Date.parse(closed.body.res.closedAt)).toBeGreaterThanOrEqual(Date.parse(closed.body.res.acknowledgedAt));
  });

  it('leaves an alert without channel to the administrators', async () => {
    const { app, admin, desk } = w;
    const alert = await raised(null);
    expect(alert.channelId).toBeNull();
    // The dispatcher shares a channel with the sender, and may take the alert, but closing it is an administrator's.
    expect((await close(alert.id, 'real', desk)).status).toBe(403);
    const closed = await close(alert.id, 'real', admin);
    expect(closed.status).toBe(200);
    expect(closed.body.res).toMatchObject({ channelId: null, closedBy: { id: admin.id }, outcome: 'real' });
    const log = await app.call('/user/api/getAllActivities/', { start: 0, limit: 20 }, admin.token);
    expect(log.body.res.activities).toContainEqual(
      expect.objectContaining({
        type: 'emergency_close',
        channel: null,
        user: expect.objectContaining({ id: admin.id }),
        emergency: expect.objectContaining({ alertId: alert.id, outcome: 'real' }),
      }),
    );
  });
});
