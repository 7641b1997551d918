/**
 * Ambient listening across instances (issue 60 item 6, PostgreSQL and Redis): the member's page on one instance,
 * the listener's page on another, the calls made on either. The listening lives in Redis, so a start, its
 * signalling, a stop and its time running out work whichever instance each piece lands on, and an end is told
 * and audited once: its time running out is seen by every instance (timers and sweeps), one of them ends it.
 * Issue 69: a change of the setting on any instance reaches the listenings every instance started.
 */
import { createClient } from 'redis';
import { afterEach, describe, expect, it } from 'vitest';
import { type Cluster, startCluster } from './cluster-harness.ts';
import { type Account, signIn, type TestApp } from './harness.ts';
import { connect, eventually, type TestClient } from './realtime-harness.ts';
import { cast } from './world.ts';

const OFFER = { sdp: 'v=0 offer' };
const ANSWER = { sdp: 'v=0 answer' };
const CANDIDATE = { candidate: 'candidate:1 1 udp 2122260223 192.0.2.1 54400 typ host', sdpMid: '0', sdpMLineIndex: 0 };

const shared = process.env.TEST_DATABASE_URL && process.env.TEST_REDIS_URL;

describe.runIf(shared)('ambient listening on two instances (PostgreSQL and Redis)', { timeout: 60_000 }, () => {
  let cluster: Cluster;
  const clients: TestClient[] = [];
  afterEach(async () => {
    for (const client of clients.splice(0)) client.close();
    await cluster.close();
  });

  /** Mia (a member) and Dana (a dispatcher) share a channel; listening is allowed. */
  const arrange = async (maxSeconds: number) => {
    cluster = await startCluster('postgres', { overrides: { ambientMaxSeconds: maxSeconds } });
    const [one, two] = cluster.apps;
    const { admin, mia, dana } = await cast(one, {
      people: {
        mia: { role: 'member', firstName: 'Mia', lastName: 'Field' },
        dana: { role: 'dispatcher', firstName: 'Dana', lastName: 'Desk' },
      },
      channels: { field: { name: 'Field Team', members: ['mia', 'dana'] } },
    });
    expect((await one.call('/user/api/setSafetySettings', { ambientListening: 'announced' }, admin.token)).status).toBe(
      200,
    );
    return { one, two, admin, mia, dana };
  };
  /** `talkPage`: the member's /talk (the app whose being open a start asks). */
  const open = async (url: string, account: Account, talkPage = false) => {
    const client = await connect(url, account.token, { talkPage });
    clients.push(client);
    return client;
  };
  const auditRows = async (app: TestApp) =>
    (await app.services.audit.page({ start: 0, limit: 100 })).entries.filter((e) => e.action.startsWith('ambient.'));
  /** What this deployment keeps of its listenings in Redis. */
  const ambientKeys = async (app: TestApp) => {
    const redis = createClient({ url: process.env.TEST_REDIS_URL });
    await redis.connect();
    try {
      return await redis.keys(`${app.config.redisKeyPrefix}ambient:*`);
    } finally {
      redis.destroy();
    }
  };

  it("relays the signalling between a member's page on one instance and the listener's on another, and stops on a third call's instance", async () => {
    const { one, two, mia, dana } = await arrange(300);
    const phone = await open(cluster.urls[0], mia, true);
    const desk = await open(cluster.urls[1], dana);

    // Started through the listener's instance: the member's page on the other one is told.
    const started = await two.call('/user/api/startAmbientListening', { userId: mia.id }, dana.token);
    expect(started.status).toBe(200);
    const { listeningId } = started.body.res;
    expect(await phone.next('ambient_start')).toMatchObject({ listeningId, listener: { userId: dana.id } });

    // The member's offer reaches the listener's session on the other instance, its answer comes back.
    expect(await phone.emitAck('ambient_offer', { listeningId, ...OFFER })).toEqual({ success: true });
    expect(await desk.next('ambient_offer')).toEqual({ listeningId, ...OFFER });
    expect(await desk.emitAck('ambient_answer', { listeningId, ...ANSWER })).toEqual({ success: true });
    expect(await phone.next('ambient_answer')).toEqual({ listeningId, ...ANSWER });
    expect(await phone.emitAck('ambient_candidate', { listeningId, candidate: CANDIDATE })).toEqual({ success: true });
    expect(await desk.next('ambient_candidate')).toEqual({ listeningId, candidate: CANDIDATE });
    expect(await desk.emitAck('ambient_candidate', { listeningId, candidate: null })).toEqual({ success: true });
    expect(await phone.next('ambient_candidate')).toEqual({ listeningId, candidate: null });

    // The sockets are bound for every instance: the member's second page, on the listener's instance, is refused.
    const secondPhone = await open(cluster.urls[1], mia, true);
    const refused = await secondPhone.emitAck('ambient_candidate', { listeningId, candidate: CANDIDATE });
    expect(refused).toMatchObject({ success: false, result: expect.stringMatching(/no such ambient listening/) });

    // A start again through the other instance renews the same listening.
    const again = await one.call('/user/api/startAmbientListening', { userId: mia.id }, dana.token);
    expect(again.body.res).toMatchObject({ listeningId, renewed: true });

    // Stopped through the member's instance, which did not start it.
    const stopped = await one.call('/user/api/stopAmbientListening', { listeningId }, dana.token);
    expect(stopped.status).toBe(200);
    expect(await phone.next('ambient_end')).toEqual({ listeningId, reason: 'stopped' });
    expect(await desk.next('ambient_end')).toEqual({ listeningId, reason: 'stopped' });
    expect((await two.call('/user/api/stopAmbientListening', { listeningId }, dana.token)).status).toBe(404);
    expect((await phone.emitAck('ambient_candidate', { listeningId, candidate: null })).success).toBe(false);
    expect(await ambientKeys(one)).toEqual([]);
    // The end's audit is written after the answer: waited for.
    await expect
      .poll(async () => (await auditRows(two)).map((row) => row.action), { timeout: 15_000 })
      .toEqual(['ambient.stop', 'ambient.renew', 'ambient.start']);
  });

  it('ends once when its time runs out, though both instances look: one ambient_end to each party, one audit row', async () => {
    const { one, two, mia, dana } = await arrange(1);
    const phone = await open(cluster.urls[0], mia, true);
    const desk = await open(cluster.urls[1], dana);
    const started = await one.call('/user/api/startAmbientListening', { userId: mia.id }, dana.token);
    const { listeningId } = started.body.res;
    await phone.next('ambient_start');
    expect(await phone.emitAck('ambient_offer', { listeningId, ...OFFER })).toEqual({ success: true });
    await desk.next('ambient_offer');
    // Renewed on the other instance: both hold a timer for it, and both sweep.
    expect((await two.call('/user/api/startAmbientListening', { userId: mia.id }, dana.token)).body.res).toMatchObject({
      listeningId,
      renewed: true,
    });

    expect(await phone.next('ambient_end')).toEqual({ listeningId, reason: 'expired' });
    expect(await desk.next('ambient_end')).toEqual({ listeningId, reason: 'expired' });
    // Nothing is left to end: no instance can end it again.
    await eventually(async () => (await ambientKeys(one)).length === 0, 'the listening gone from Redis');
    const ends = async () => (await auditRows(one)).filter((row) => row.action === 'ambient.stop');
    await eventually(async () => (await ends()).length > 0, 'the end audited');
    await phone.flush();
    await desk.flush();
    expect(phone.all('ambient_end')).toHaveLength(1);
    expect(desk.all('ambient_end')).toHaveLength(1);
    const [ended] = await ends();
    expect(await ends()).toHaveLength(1);
    expect(ended.changes).toMatchObject({ reason: { after: 'expired' }, listener: { after: expect.any(String) } });
  });

  it('follows the setting across instances: a renewal announces, a change announces or ends what another started', async () => {
    const { one, two, admin, mia } = await arrange(300);
    const setting = async (app: TestApp, ambientListening: string) =>
      expect((await app.call('/user/api/setSafetySettings', { ambientListening }, admin.token)).status).toBe(200);
    await setting(one, 'discreet');
    const phone = await open(cluster.urls[0], mia, true);
    const desk = await open(cluster.urls[1], admin);
    const start = (app: TestApp, token: string) =>
      app.call('/user/api/startAmbientListening', { userId: mia.id }, token);
    const first = (await start(two, admin.token)).body.res;
    expect(first.announced).toBe(false);
    expect(await phone.next('ambient_start')).toMatchObject({ listeningId: first.listeningId, announced: false });

    // Written as an instance whose sweep never ran would leave it: the renewal, on the other instance, announces it.
    const safety = await one.services.settings.safety();
    await one.services.settings.setSafety({ ...safety, ambientListening: 'announced' });
    const renewed = (await start(one, admin.token)).body.res;
    expect(renewed).toMatchObject({ listeningId: first.listeningId, renewed: true, announced: true });
    expect(await phone.next('ambient_start')).toMatchObject({ listeningId: first.listeningId, announced: true });
    await one.services.settings.setSafety({ ...safety, ambientListening: 'discreet' });
    expect((await start(two, admin.token)).body.res).toMatchObject({ renewed: true, announced: true });

    // Another session of the administrator's listens discreetly; the setting changed on the other instance announces it.
    const secondDesk = await signIn(one, admin.identifier, admin.password);
    const second = (await start(two, secondDesk.token)).body.res;
    expect(second).toMatchObject({ renewed: false, announced: false });
    await phone.next('ambient_start', (told) => told.listeningId === second.listeningId);
    await setting(one, 'announced');
    expect(await phone.next('ambient_start', (told) => told.listeningId === second.listeningId)).toMatchObject({
      announced: true,
    });

    // 'off', on the instance that started neither: both end, told to both parties.
    await setting(two, 'off');
    const ended = [await phone.next('ambient_end'), await phone.next('ambient_end')];
    expect(ended.map((end) => end.listeningId).sort()).toEqual([first.listeningId, second.listeningId].sort());
    expect(ended.every((end) => end.reason === 'off')).toBe(true);
    expect(await desk.next('ambient_end')).toEqual({ listeningId: first.listeningId, reason: 'off' });
    await eventually(async () => (await ambientKeys(one)).length === 0, 'the listenings gone from Redis');
  });

  it("ends when a party's page goes, told to the other party on the other instance", async () => {
    const { two, mia, dana } = await arrange(300);
    const phone = await open(cluster.urls[0], mia, true);
    const desk = await open(cluster.urls[1], dana);
    const { listeningId } = (await two.call('/user/api/startAmbientListening', { userId: mia.id }, dana.token)).body
      .res;
    await phone.next('ambient_start');
    expect(await phone.emitAck('ambient_offer', { listeningId, ...OFFER })).toEqual({ success: true });
    await desk.next('ambient_offer');
    phone.close();
    expect(await desk.next('ambient_end')).toEqual({ listeningId, reason: 'closed' });
    await eventually(async () => (await ambientKeys(two)).length === 0, 'the listening gone from Redis');
  });
});
