/**
 * Lone-worker check-ins (issue 60) with LONE_WORKER_MIN_SECONDS lowered to a second: a check answered by "I'm
 * OK" or by a press of the talk button, one missed through the reminder, the alert to the dispatchers and the
 * SOS (reason lone_worker); a restart between two steps; two instances that take each step once; who may list
 * lone workers; the safety settings; and a dispatcher's SOS for a member of its channels.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type Cluster, startCluster } from './cluster-harness.ts';
import { type Account, buildTestApp, databases, signUpAdmin, startApp, type TestApp, testStorage } from './harness.ts';
import { connect, eventually, type TestClient } from './realtime-harness.ts';
import { cast, defineCast, world } from './world.ts';

const FAST = { loneWorkerMinSeconds: 1 };

/** An administrator, a dispatcher and a member of one channel, a dispatcher of another, a member elsewhere. */
const CAST = defineCast({
  people: {
    dana: { role: 'dispatcher', firstName: 'Dana', lastName: 'Desk' },
    other: { role: 'dispatcher', firstName: 'Olga', lastName: 'Other' },
    alice: { role: 'member', firstName: 'Alice', lastName: 'Field' },
    bob: { role: 'member', firstName: 'Bob', lastName: 'Far' },
  },
  channels: {
    quai: { name: 'Quai', members: ['dana', 'alice'] },
    depot: { name: 'Dépôt', members: ['other', 'bob'] },
  },
});

async function safety(app: TestApp, admin: Account, loneWorker: Record<string, unknown>) {
  const set = await app.call('/user/api/setSafetySettings', { loneWorker }, admin.token);
  expect(set.status).toBe(200);
  return set.body.res;
}

const stateOf = async (app: TestApp, reader: Account, userId: number) =>
  (await app.call('/user/api/getLoneWorkers', { userId }, reader.token)).body.res?.[0]?.state as string | undefined;

const loneWorkerAlerts = async (app: TestApp, admin: Account) =>
  (await app.call('/user/api/getEmergencyAlerts', {}, admin.token)).body.res.alerts.filter(
    (alert: { reason: string }) => alert.reason === 'lone_worker',
  );

describe.each(databases)('lone-worker check-ins on %s', (dialect) => {
  const w = world(dialect, { config: FAST, ...CAST });

  it('asks every interval and an "I’m OK" (checkIn) answers the check', async () => {
    const { app, admin, alice } = w;
    await safety(app, admin, { intervalSeconds: 1, graceSeconds: 60 });
    const phone = await w.open(alice);
    const started = await app.call('/user/api/startLoneWorker', {}, alice.token);
    expect(started.status).toBe(200);
    expect(started.body.res).toMatchObject({ userId: alice.id, state: 'ok', intervalSeconds: 1, graceSeconds: 60 });
    expect(started.body.required).toBe(false);

    const check = await phone.next('lone_worker_check');
    expect(Date.parse(check.dueAt)).toBeGreaterThan(Date.now());
    expect(check.reminder).toBeUndefined();
    expect(await stateOf(app, admin, alice.id)).toBe('due');

    const answered = await app.call('/user/api/checkIn', {}, alice.token);
    expect(answered.status).toBe(200);
    expect(answered.body.res.state).toBe('ok');
    expect(Date.parse(answered.body.res.lastCheckIn)).toBeGreaterThan(Date.parse(started.body.res.lastCheckIn) - 1);

    expect((await app.call('/user/api/stopLoneWorker', {}, alice.token)).body).toMatchObject({ res: null });
    expect((await app.call('/user/api/getLoneWorkers', {}, admin.token)).body.res).toEqual([]);
    expect((await app.call('/user/api/checkIn', {}, alice.token)).status).toBe(409);
  });

  it('a granted press of the talk button answers the check', async () => {
    const { app, admin, alice, quai } = w;
    await safety(app, admin, { intervalSeconds: 1, graceSeconds: 60 });
    const phone = await w.open(alice);
    phone.socket.emit('join_room', { room: quai.rtcSession });
    await phone.next('all_users');
    await app.call('/user/api/startLoneWorker', {}, alice.token);
    await phone.next('lone_worker_check');
    expect(await stateOf(app, admin, alice.id)).toBe('due');
    expect(await phone.emitAck('floor_request', { room: quai.rtcSession })).toMatchObject({ granted: true });
    await eventually(async () => (await stateOf(app, admin, alice.id)) === 'ok', 'the press answered the check');
  });

  it('unanswered: a reminder, then the alert to its dispatchers and administrators, then an SOS (lone_worker)', async () => {
    const { app, admin, dana, other, alice } = w;
    await app.services.positions.add(alice.id, { lat: 45.76, lng: 4.83, accuracy: 9 });
    await safety(app, admin, { intervalSeconds: 1, graceSeconds: 1 });
    const phone = await w.open(alice);
    const desk = await w.open(dana);
    const elsewhere = await w.open(other);
    const boss = await w.open(admin);
    await app.call('/user/api/startLoneWorker', {}, alice.token);

    expect((await phone.next('lone_worker_check')).reminder).toBeUndefined();
    expect(await phone.next('lone_worker_check')).toMatchObject({ reminder: true });
    const alert = await desk.next('loneWorkerAlert');
    expect(alert).toMatchObject({
      userId: alice.id,
      name: 'Alice Field',
      position: { lat: 45.76, lng: 4.83, accuracy: 9 },
    });
    expect(typeof alert.lastCheckIn).toBe('string');
    expect(await boss.next('loneWorkerAlert')).toMatchObject({ userId: alice.id });
    expect(await stateOf(app, dana, alice.id)).toMatch(/missed|escalated/);

    const sos = await boss.next('emergencyAlert');
    expect(sos).toMatchObject({ userId: alice.id, reason: 'lone_worker', lat: 45.76, lng: 4.83 });
    expect(await desk.next('emergencyAlert')).toMatchObject({ reason: 'lone_worker' });
    expect(await stateOf(app, admin, alice.id)).toBe('escalated');
    await eventually(async () => (await loneWorkerAlerts(app, admin)).length === 1, 'the SOS written');
    // Nothing further once escalated, and the other channel's dispatcher heard nothing.
    expect(await app.services.loneWorkers.stepDue()).toBe(0);
    await elsewhere.flush();
    expect(elsewhere.all('loneWorkerAlert')).toEqual([]);
    expect(elsewhere.all('emergencyAlert')).toEqual([]);
    expect(await loneWorkerAlerts(app, admin)).toHaveLength(1);
    // The activity is written after the alert is pushed: wait for it rather than read it once.
    const logged = async () =>
      (await app.call('/user/api/getAllActivities/', { type: 'emergency' }, admin.token)).body.res.activities;
    await eventually(async () => (await logged()).length > 0, 'the SOS in the activity log');
    expect((await logged())[0]).toMatchObject({ alert: { reason: 'lone_worker' } });

    // "I'm OK" after the SOS: lone work goes on; the SOS stays open for the dispatchers to close.
    expect((await app.call('/user/api/checkIn', {}, alice.token)).body.res.state).toBe('ok');
    expect((await loneWorkerAlerts(app, admin))[0].acknowledgedAt).toBeNull();
  });

  it('ends the lone work of an account an administrator disabled, without an alarm', async () => {
    const { app, admin, bob } = w;
    await safety(app, admin, { intervalSeconds: 1, graceSeconds: 1 });
    await app.call('/user/api/startLoneWorker', {}, bob.token);
    expect((await app.call('/user/api/setUserDisabled', { userId: bob.id, disabled: true }, admin.token)).status).toBe(
      200,
    );
    await eventually(async () => (await stateOf(app, admin, bob.id)) === undefined, 'its lone work ended');
    expect(await loneWorkerAlerts(app, admin)).toEqual([]);
  });

  it('lists lone workers to administrators and to the dispatchers of their channels only', async () => {
    const { app, admin, dana, other, alice, bob } = w;
    await app.call('/user/api/startLoneWorker', {}, alice.token);
    await app.call('/user/api/startLoneWorker', { intervalSeconds: 600 }, bob.token);
    const names = async (reader: Account) =>
      (await app.call('/user/api/getLoneWorkers', {}, reader.token)).body.res.map((w: { name: string }) => w.name);
    expect(await names(admin)).toEqual(['Alice Field', 'Bob Far']);
    expect(await names(dana)).toEqual(['Alice Field']);
    expect(await names(other)).toEqual(['Bob Far']);
    expect((await app.call('/user/api/getLoneWorkers', {}, alice.token)).status).toBe(403);
    const [row] = (await app.call('/user/api/getLoneWorkers', { userId: bob.id }, admin.token)).body.res;
    expect(row).toMatchObject({ userId: bob.id, state: 'ok', intervalSeconds: 600, graceSeconds: 120 });
    expect(Date.parse(row.nextCheckAt) - Date.parse(row.lastCheckIn)).toBe(600_000);
    expect((await app.call('/user/api/startLoneWorker', { intervalSeconds: 0.5 }, bob.token)).status).toBe(400);
  });

  it('a role or channel that requires lone work: the member cannot stop it, nor lengthen the interval', async () => {
    const { app, admin, alice, bob, quai } = w;
    await safety(app, admin, { intervalSeconds: 900, graceSeconds: 60, channelIds: [quai.id] });
    expect((await app.call('/user/api/getMyLoneWorker', {}, alice.token)).body).toEqual({
      success: true,
      res: null,
      required: true,
    });
    expect((await app.call('/user/api/startLoneWorker', { intervalSeconds: 1800 }, alice.token)).status).toBe(400);
    expect((await app.call('/user/api/startLoneWorker', {}, alice.token)).body.required).toBe(true);
    const stop = await app.call('/user/api/stopLoneWorker', {}, alice.token);
    expect(stop.status).toBe(403);
    expect(stop.body.result).toMatch(/requires lone-worker protection/);
    // Bob's channel does not require it: he starts and stops as he likes.
    await app.call('/user/api/startLoneWorker', {}, bob.token);
    expect((await app.call('/user/api/stopLoneWorker', {}, bob.token)).status).toBe(200);
    await safety(app, admin, { channelIds: [], roles: ['member'] });
    expect((await app.call('/user/api/stopLoneWorker', {}, bob.token)).status).toBe(403);
  });

  it('required lone work starts on the server with the worker’s first socket, from any client, and cannot be stopped', async () => {
    const { app, admin, alice, bob, quai } = w;
    await safety(app, admin, { intervalSeconds: 1, graceSeconds: 60, channelIds: [quai.id] });
    expect((await app.call('/user/api/getMyLoneWorker', {}, alice.token)).body.res).toBeNull();
    // Bob's are not required; Alice's socket is a console's, not /talk, which starts nothing of its own.
    await w.open(bob);
    const phone = await w.open(alice);
    const started = await eventually(
      async () => (await app.call('/user/api/getMyLoneWorker', {}, alice.token)).body.res,
      'the server started her lone work',
    );
    expect(started).toMatchObject({ userId: alice.id, intervalSeconds: 1, graceSeconds: 60, required: true });
    const stop = await app.call('/user/api/stopLoneWorker', {}, alice.token);
    expect(stop.status).toBe(403);
    expect(stop.body.result).toMatch(/requires lone-worker protection/);
    expect(await stateOf(app, admin, bob.id)).toBeUndefined();

    // Running, it is not started again by her next first socket (that would answer the check she owes).
    await phone.next('lone_worker_check');
    expect(await stateOf(app, admin, alice.id)).toBe('due');
    phone.close();
    await eventually(async () => (await app.services.presence.socketCount(alice.id)) === 0, 'her socket gone');
    await w.open(alice);
    await eventually(async () => (await app.services.presence.socketCount(alice.id)) === 1, 'her socket back');
    expect(await stateOf(app, admin, alice.id)).toBe('due');
  });

  it('safety settings: anyone reads them, an administrator changes any part, validated and audited', async () => {
    const { app, admin, dana, alice } = w;
    const read = await app.call('/user/api/getSafetySettings', {}, alice.token);
    expect(read.body.res).toEqual({
      loneWorker: { intervalSeconds: 1800, graceSeconds: 120, roles: [], channelIds: [] },
      manDown: { stillSeconds: 10, noMotionMinutes: 0, countdownSeconds: 30 },
      ambientListening: 'off',
      emergencyOpenMic: 'own_alert',
    });
    expect((await app.call('/user/api/setSafetySettings', { ambientListening: 'announced' }, dana.token)).status).toBe(
      403,
    );
    const bad = [
      { ambientListening: 'always' },
      { emergencyOpenMic: 'always' },
      { loneWorker: { intervalSeconds: -5 } },
      { loneWorker: { graceSeconds: 'soon' } },
      { manDown: { countdownSeconds: 1 } },
      { loneWorker: { roles: ['pilot'] } },
      { colour: 'red' },
    ];
    for (const body of bad) {
      const answer = await app.call('/user/api/setSafetySettings', body, admin.token);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.success).toBe(false);
    }
    const changed = await app.call(
      '/user/api/setSafetySettings',
      { manDown: { noMotionMinutes: 15 }, ambientListening: 'announced' },
      admin.token,
    );
    expect(changed.body.res).toMatchObject({
      loneWorker: { intervalSeconds: 1800, graceSeconds: 120 },
      manDown: { stillSeconds: 10, noMotionMinutes: 15, countdownSeconds: 30 },
      ambientListening: 'announced',
    });
    const entries = (await app.call('/user/api/getAuditLog', {}, admin.token)).body.res.entries;
    const entry = entries.find((e: { action: string }) => e.action === 'settings.safety');
    expect(entry).toMatchObject({ actor: { id: admin.id }, targetType: 'setting' });
    expect(entry.changes.ambientListening).toEqual({ before: 'off', after: 'announced' });
  });

  it('an interval or grace under LONE_WORKER_MIN_SECONDS is refused with a sentence', async () => {
    const strict = await startApp(dialect, { loneWorkerMinSeconds: 300 });
    try {
      const admin = await signUpAdmin(strict);
      const short = await strict.call('/user/api/setSafetySettings', { loneWorker: { graceSeconds: 60 } }, admin.token);
      expect(short.status).toBe(400);
      expect(short.body.result).toMatch(/graceSeconds: must be at least 300 seconds/);
      // Issue 70: which field, and its bound, for the form to mark it; the bounds are read with the settings.
      expect(short.body.fields).toEqual([{ field: 'loneWorker.graceSeconds', min: 300, unit: 'seconds' }]);
      const read = await strict.call('/user/api/getSafetySettings', {}, admin.token);
      expect(read.body.loneWorkerMinSeconds).toBe(300);
      const quick = await strict.call('/user/api/setSafetySettings', { manDown: { countdownSeconds: 2 } }, admin.token);
      expect(quick.status).toBe(400);
      expect(quick.body.fields).toEqual([{ field: 'manDown.countdownSeconds', min: 5 }]);
      expect((await strict.call('/user/api/startLoneWorker', { intervalSeconds: 120 }, admin.token)).status).toBe(400);
    } finally {
      await strict.close();
    }
  });

  it('a dispatcher raises an SOS for a member of its channels, audited as its own; not for anyone else', async () => {
    const { app, admin, dana, other, alice, bob, quai, depot } = w;
    const boss = await w.open(admin);
    const raised = await app.call('/user/api/sendEmergencyAlert', { userId: alice.id, channelId: quai.id }, dana.token);
    expect(raised.status).toBe(200);
    expect(raised.body.res).toMatchObject({
      userId: alice.id,
      display_name: 'Alice Field',
      reason: 'sos',
      raisedBy: { id: dana.id, display_name: 'Dana Desk' },
    });
    expect(await boss.next('emergencyAlert')).toMatchObject({ userId: alice.id, raisedBy: { id: dana.id } });
    const entries = (await app.call('/user/api/getAuditLog', {}, admin.token)).body.res.entries;
    expect(entries.find((e: { action: string }) => e.action === 'alert.raise')).toMatchObject({
      actor: { id: dana.id },
      targetType: 'alert',
      targetId: raised.body.res.id,
    });
    // Issue 69: in a channel the caller dispatches and the member belongs to (docs/api.md "Emergency alerts").
    const forAlice = (channelId: number, who: Account) =>
      app.call('/user/api/sendEmergencyAlert', { userId: alice.id, channelId }, who.token);
    expect((await forAlice(quai.id, other)).status).toBe(403);
    expect((await forAlice(depot.id, other)).status).toBe(403);
    expect((await forAlice(quai.id, bob)).status).toBe(403);
    expect(
      (await app.call('/user/api/sendEmergencyAlert', { userId: 999_999, channelId: quai.id }, admin.token)).status,
    ).toBe(403);
    // A member's own man-down SOS says so.
    const fall = await app.call('/user/api/sendEmergencyAlert', { reason: 'man_down' }, bob.token);
    expect(fall.body.res).toMatchObject({ userId: bob.id, reason: 'man_down', raisedBy: null });
    expect((await app.call('/user/api/sendEmergencyAlert', { reason: 'lone_worker' }, bob.token)).status).toBe(400);
  });
});

describe.each(databases)('lone work across a restart on %s', (dialect) => {
  it('a step due while the server was down is taken by the next one, and the escalation goes on', async () => {
    const storage = testStorage(dialect);
    const first = await buildTestApp(storage, FAST);
    const { admin, alice } = await cast(first, CAST);
    await safety(first, admin, { intervalSeconds: 1, graceSeconds: 2 });
    await first.call('/user/api/startLoneWorker', {}, alice.token);
    await eventually(async () => (await stateOf(first, admin, alice.id)) === 'due', 'asked on the first server');
    await first.fastify.close();

    const second = await buildTestApp(storage, FAST);
    try {
      await eventually(async () => (await stateOf(second, admin, alice.id)) === 'escalated', 'escalated after it');
      await eventually(async () => (await loneWorkerAlerts(second, admin)).length === 1, 'the SOS raised');
      expect(await loneWorkerAlerts(second, admin)).toHaveLength(1);
      // The alert is listed as soon as it is raised; the row names it just after.
      const row = await eventually(
        () =>
          second.services.db
            .selectFrom('lone_workers')
            .selectAll()
            .where('user_id', '=', alice.id)
            .where('alert_id', 'is not', null)
            .executeTakeFirst(),
        'the row naming its SOS',
      );
      expect(row.reminded_at && row.missed_at && row.escalated_at && row.alert_id).toBeTruthy();
    } finally {
      await second.fastify.close();
      await storage.remove();
    }
  });
});

const shared = process.env.TEST_DATABASE_URL && process.env.TEST_REDIS_URL;

describe.runIf(shared)('lone work on two instances (PostgreSQL and Redis)', () => {
  let cluster: Cluster;
  const clients: TestClient[] = [];
  afterEach(async () => {
    for (const client of clients.splice(0)) client.close();
    await cluster.close();
  });

  it('takes each step once, whichever instance comes first, and its member hears it on the other', async () => {
    cluster = await startCluster('postgres', { overrides: FAST });
    const [one, two] = cluster.apps;
    const { admin, dana, alice } = await cast(one, CAST);
    const phone = await connect(cluster.urls[1], alice.token);
    const desk = await connect(cluster.urls[0], dana.token);
    clients.push(phone, desk);
    await safety(one, admin, { intervalSeconds: 1, graceSeconds: 1 });
    await two.call('/user/api/startLoneWorker', {}, alice.token);
    await eventually(async () => (await stateOf(one, admin, alice.id)) === 'escalated', 'escalated');
    await eventually(async () => (await loneWorkerAlerts(one, admin)).length === 1, 'the SOS written');
    expect(await desk.next('emergencyAlert')).toMatchObject({ userId: alice.id, reason: 'lone_worker' });
    expect(await one.services.loneWorkers.stepDue()).toBe(0);
    expect(await two.services.loneWorkers.stepDue()).toBe(0);
    await phone.flush();
    await desk.flush();
    const checks = phone.all('lone_worker_check');
    expect(checks.filter((check) => !check.reminder)).toHaveLength(1);
    expect(checks.filter((check) => check.reminder)).toHaveLength(1);
    expect(desk.all('loneWorkerAlert')).toHaveLength(1);
    expect(desk.all('emergencyAlert')).toHaveLength(1);
    expect(await loneWorkerAlerts(two, admin)).toHaveLength(1);
  });
});
