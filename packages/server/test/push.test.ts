/**
 * Web Push (issues 34 and 47): a local HTTPS push service (push-harness.ts; a certificate made with openssl,
 * trusted by the app through config.pushExtraCa) receives what the server sends; the test decrypts each payload
 * with the subscription's keys as RFC 8291 says (aes128gcm), checks it, and verifies the VAPID JWT (RFC 8292)
 * with the public key getClientConfig gives. Then the refusals (endpoint, keys, another user's endpoint), the
 * limits (one subscription per session, five per user), the decline of a call from its notification with the
 * call's key alone, the 404/410 clean-up, the retries, the subscriptions that go with a logout, a revocation, a
 * deleted user and a session that ended or idled out, and an SOS that a push service that never answers does
 * not hold up. The sender's own rules (lanes, push services on probation) are push-queue.test.ts.
 */
import { createECDH, randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSessionSweep } from '../src/auth/session-sweep.ts';
import type { ChannelSummary } from '../src/channels/store.ts';
import { migration as migration0027 } from '../src/db/migrations/0027_push_limits.ts';
import type { Dialect } from '../src/db/open.ts';
import {
  type Account,
  buildTestApp,
  createMember,
  databases,
  signUpAdmin,
  type TestApp,
  testStorage,
} from './harness.ts';
import { decrypt, PushService, subscriber, verifyVapid } from './push-harness.ts';
import { connect, eventually, listen, type TestClient } from './realtime-harness.ts';
import { createWithRole } from './role-fixtures.ts';

describe.each(databases)('Web Push on %s', (dialect: Dialect) => {
  const service = new PushService();
  /** A push service that reads every request and never answers (its certificate is the other one's). */
  const silent = new PushService();
  let storage: ReturnType<typeof testStorage>;
  let app: TestApp;
  let url: string;
  let admin: Account;
  let alice: Account;
  let bob: Account;
  let channel: ChannelSummary;
  let publicKey: string;
  const clients: TestClient[] = [];

  beforeAll(async () => {
    await service.start();
    silent.mode = 'hold';
    await silent.start({ key: service.key, cert: service.cert });
  });
  afterAll(async () => {
    await silent.stop();
    await service.stop();
  });

  /** A JSON POST with Accept-Language. */
  const callIn = async (language: string, route: string, body: object, token: string) => {
    const response = await app.fastify.inject({
      method: 'POST',
      url: route,
      headers: { 'x-access-token': token, 'accept-language': language },
      payload: body,
    });
    return { status: response.statusCode, body: response.json() };
  };
  const subscribe = async (account: Account, language = 'en') => {
    const sub = subscriber(service.origin);
    const saved = await callIn(language, '/user/api/savePushSubscription', { subscription: sub.json }, account.token);
    expect(saved).toMatchObject({ status: 200, body: { success: true, code: 'push_saved' } });
    return sub;
  };
  const rows = (userId: number) =>
    app.services.db.selectFrom('push_subscriptions').selectAll().where('user_id', '=', userId).execute();
  const pushed = (outcome: string) => async () => {
    const metric = await app.metrics.registry?.getSingleMetric('talkgroup_push_total')?.get();
    return metric?.values.find((v) => v.labels.outcome === outcome)?.value ?? 0;
  };

  beforeEach(async () => {
    storage = testStorage(dialect);
    // The sends are counted in /metrics, which is there with METRICS_TOKEN.
    app = await buildTestApp(storage, {
      pushEndpointAllow: [service.origin, silent.origin],
      pushExtraCa: service.cert,
      metricsToken: 'push-metrics-token',
    });
    url = await listen(app);
    admin = await signUpAdmin(app);
    alice = await createMember(app, admin, { firstName: 'Alice', lastName: 'Field' });
    bob = await createMember(app, admin, { firstName: 'Bob', lastName: 'Field' });
    channel = await app.services.channels.create('Atelier');
    await app.services.memberships.add(channel.id, [alice.id, bob.id]);
    const config = await app.call('/user/api/getClientConfig', {}, alice.token);
    publicKey = config.body.res.pushPublicKey;
  });
  afterEach(async () => {
    for (const client of clients.splice(0)) client.close();
    await app.fastify.close();
    await storage.remove();
  });

  it('gives a VAPID key made once and kept in the database', async () => {
    expect(Buffer.from(publicKey, 'base64url')).toHaveLength(65);
    expect(Buffer.from(publicKey, 'base64url')[0]).toBe(4);
    await app.fastify.close();
    app = await buildTestApp(storage, { pushEndpointAllow: [service.origin] });
    const again = await app.call('/user/api/getClientConfig', {}, alice.token);
    expect(again.body.res.pushPublicKey).toBe(publicKey);
  });

  it('pushes an SOS to those who see it, sender excluded, urgent, in each device’s language', async () => {
    const aliceDevice = await subscribe(alice, 'fr-FR,fr;q=0.9');
    const adminDevice = await subscribe(admin, 'de');
    const bobDevice = await subscribe(bob);
    const sent = await app.call('/user/api/sendEmergencyAlert', { channelId: channel.id }, bob.token);
    expect(sent.status).toBe(200);
    const alertId = sent.body.res.id;

    const toAlice = await service.next(aliceDevice.path);
    expect(decrypt(aliceDevice, toAlice)).toEqual({
      kind: 'sos',
      title: 'SOS : Bob Field',
      body: 'Bob Field a envoyé une alerte d’urgence dans Atelier.',
      url: `/talk/${channel.id}`,
      tag: `sos-${alertId}`,
    });
    expect(toAlice.headers.urgency).toBe('high');
    const claims = verifyVapid(toAlice, service.origin, publicKey);
    expect(claims.sub).toBe('mailto:admin@example.org');

    const toAdmin = await service.next(adminDevice.path);
    expect(decrypt(adminDevice, toAdmin)).toMatchObject({
      kind: 'sos',
      title: 'SOS: Bob Field',
      body: 'Bob Field hat in Atelier einen Notruf gesendet.',
    });
    await app.push.sender?.idle();
    expect(service.to(bobDevice.path)).toEqual([]);
  });

  it('pushes a ringing private call to the callee, urgent, kept no longer than it rings', async () => {
    const aliceDevice = await subscribe(alice);
    const started = await app.call('/user/api/startPrivateCall', { userId: alice.id }, admin.token);
    expect(started.status).toBe(200);
    const delivery = await service.next(aliceDevice.path);
    expect(decrypt(aliceDevice, delivery)).toEqual({
      kind: 'call',
      title: 'Ada Admin is calling you',
      body: 'Private call: answer or decline.',
      url: `/talk?call=${started.body.res.callId}`,
      tag: `call-${started.body.res.callId}`,
      callId: started.body.res.callId,
      declineKey: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    });
    expect(delivery.headers.urgency).toBe('high');
    expect(delivery.headers.ttl).toBe(String(app.config.privateCallRingMs / 1000));
    verifyVapid(delivery, service.origin, publicKey);
  });

  it('declines a ringing call with the decline key of its push alone, once, and nothing else with it', async () => {
    const aliceDevice = await subscribe(alice, 'fr');
    const first = await app.call('/user/api/startPrivateCall', { userId: alice.id }, admin.token);
    const callId = first.body.res.callId;
    const { declineKey } = decrypt(aliceDevice, await service.next(aliceDevice.path));
    const decline = (body: object) =>
      app.fastify.inject({
        method: 'POST',
        url: '/user/api/declinePushedCall',
        payload: body,
        headers: { 'accept-language': 'fr' },
      });

    // Not another call's key, not a key of the right length made up, not an unknown call: one answer for all.
    const refusals = [
      { callId, key: `${declineKey.slice(0, -1)}${declineKey.endsWith('A') ? 'B' : 'A'}` },
      { callId: callId + 1, key: declineKey },
      { callId, key: 'short' },
    ];
    for (const body of refusals) {
      const refused = await decline(body);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({
        success: false,
        code: 'push_decline_refused',
        result: 'Cet appel ne peut pas être refusé avec cette clé.',
      });
    }
    const calls = async () => (await app.call('/user/api/getPrivateCalls', {}, admin.token)).body.res;
    expect((await calls())[0]).toMatchObject({ callId, state: 'ringing' });

    // No token: the key is enough, and the caller hears that the call was declined.
    const declined = await decline({ callId, key: declineKey });
    expect(declined.statusCode).toBe(200);
    expect(declined.json()).toMatchObject({ success: true, code: 'call_declined' });
    expect((await calls())[0]).toMatchObject({ callId, state: 'declined' });
    // Once: the call no longer rings.
    const again = await decline({ callId, key: declineKey });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ success: false, code: 'call_not_ringing' });

    // The next call has a key of its own; the first call's key does not decline it.
    const second = await app.call('/user/api/startPrivateCall', { userId: alice.id }, admin.token);
    const next = decrypt(aliceDevice, await service.next(aliceDevice.path));
    expect(next.callId).toBe(second.body.res.callId);
    expect(next.declineKey).not.toBe(declineKey);
    expect((await decline({ callId: next.callId, key: declineKey })).statusCode).toBe(403);
    expect((await calls())[0]).toMatchObject({ callId: next.callId, state: 'ringing' });
  });

  it('turns the ringing notification into a missed call when the caller gives up, in the device’s language', async () => {
    const aliceDevice = await subscribe(alice, 'fr');
    const started = await app.call('/user/api/startPrivateCall', { userId: alice.id }, admin.token);
    const callId = started.body.res.callId;
    expect(decrypt(aliceDevice, await service.next(aliceDevice.path))).toMatchObject({ kind: 'call' });
    expect((await app.call('/user/api/endPrivateCall', { callId }, admin.token)).status).toBe(200);
    const missed = await service.next(aliceDevice.path);
    expect(decrypt(aliceDevice, missed)).toEqual({
      kind: 'missed_call',
      title: 'Appel manqué',
      body: 'Ada Admin vous a appelé.',
      url: '/talk',
      tag: `call-${callId}`,
      callId,
    });
    expect(missed.headers.urgency).toBe('normal');
  });

  it('pushes a transmission to the members who are not in the channel, one topic per channel', async () => {
    const carol = await createMember(app, admin, { firstName: 'Carol', lastName: 'Away' });
    await app.services.memberships.add(channel.id, [carol.id]);
    const carolDevice = await subscribe(carol);
    const bobDevice = await subscribe(bob);
    const aliceDevice = await subscribe(alice);
    // Dan is away too, but busy: his transmissions go to his missed list without a notification.
    const dan = await createMember(app, admin, { firstName: 'Dan', lastName: 'Busy' });
    await app.services.memberships.add(channel.id, [dan.id]);
    const danDevice = await subscribe(dan);
    expect((await app.call('/user/api/setAvailability', { busy: true }, dan.token)).status).toBe(200);
    // Alice talks; Bob is in the channel (his page), Carol is not.
    const joined = async (account: Account) => {
      const client = await connect(url, account.token);
      clients.push(client);
      client.socket.emit('join_room', { room: channel.rtcSession });
      await client.next('all_users');
      return client;
    };
    const talker = await joined(alice);
    await joined(bob);
    expect(await talker.emitAck('floor_request', { room: channel.rtcSession })).toMatchObject({ granted: true });

    const delivery = await service.next(carolDevice.path);
    expect(decrypt(carolDevice, delivery)).toEqual({
      kind: 'transmission',
      title: 'Atelier',
      body: 'Alice Field is talking in Atelier.',
      url: `/talk/${channel.id}`,
      tag: `channel-${channel.id}`,
    });
    expect(delivery.headers.topic).toBe(`channel-${channel.id}`);
    expect(delivery.headers.urgency).toBe('normal');
    verifyVapid(delivery, service.origin, publicKey);
    await app.push.sender?.idle();
    expect(service.to(bobDevice.path)).toEqual([]);
    expect(service.to(aliceDevice.path)).toEqual([]);
    expect(service.to(danDevice.path)).toEqual([]);
  });

  it('pushes a geofence crossing to administrators and the channel’s dispatchers', async () => {
    const dispatcher = await createWithRole(app, admin, 'dispatcher', { firstName: 'Dora', lastName: 'Desk' });
    await app.services.memberships.add(channel.id, [dispatcher.id]);
    const deskDevice = await subscribe(dispatcher, 'fr');
    const bobDevice = await subscribe(bob);
    const created = await app.call(
      '/user/api/createGeofence',
      { name: 'Dépôt', channelId: channel.id, shape: { type: 'circle', lat: 48.8566, lng: 2.3522, radiusM: 200 } },
      admin.token,
    );
    expect(created.status).toBe(200);
    const phone = await connect(url, alice.token);
    clients.push(phone);
    expect(await phone.emitAck('onLocationChanged', { lat: 48.8666, lng: 2.3522, accuracy: 10 })).toMatchObject({
      success: true,
    });
    expect(await phone.emitAck('onLocationChanged', { lat: 48.8566, lng: 2.3522, accuracy: 10 })).toMatchObject({
      success: true,
    });
    const delivery = await service.next(deskDevice.path);
    expect(decrypt(deskDevice, delivery)).toEqual({
      kind: 'geofence',
      title: 'Zone Dépôt',
      body: 'Alice Field est entré dans Dépôt.',
      url: '/dispatch',
      tag: `geofence-${created.body.res.id}-${alice.id}`,
    });
    verifyVapid(delivery, service.origin, publicKey);
    await app.push.sender?.idle();
    expect(service.to(bobDevice.path)).toEqual([]);
  });

  it('refuses an endpoint that is not https or leads to a private address, and bad keys, in the caller’s language', async () => {
    const good = subscriber(service.origin).json;
    const refusals: Array<[object, string, string]> = [
      [{ ...good, endpoint: 'http://push.example.org/x' }, 'push_endpoint_https', 'https://'],
      [{ ...good, endpoint: 'https://127.0.0.1:9/x' }, 'push_endpoint_private', 'réseau privé'],
      [{ ...good, endpoint: 'https://10.1.2.3/x' }, 'push_endpoint_private', 'réseau privé'],
      [{ ...good, endpoint: 'https://[::1]:8443/x' }, 'push_endpoint_private', 'réseau privé'],
      [{ ...good, endpoint: 'https://localhost:8443/x' }, 'push_endpoint_private', 'réseau privé'],
      [{ ...good, endpoint: 'https://169.254.169.254/latest' }, 'push_endpoint_private', 'réseau privé'],
      [
        {
          ...good,
          keys: { ...good.keys, p256dh: Buffer.concat([Buffer.from([4]), randomBytes(64)]).toString('base64url') },
        },
        'push_key_invalid',
        'P-256',
      ],
      [{ ...good, keys: { ...good.keys, p256dh: randomBytes(33).toString('base64url') } }, 'push_key_invalid', 'P-256'],
      [
        { ...good, keys: { ...good.keys, auth: randomBytes(8).toString('base64url') } },
        'push_auth_invalid',
        '16 octets',
      ],
    ];
    for (const [subscription, code, words] of refusals) {
      const answer = await callIn('fr', '/user/api/savePushSubscription', { subscription }, alice.token);
      expect(answer.status, code).toBe(400);
      expect(answer.body.code).toBe(code);
      expect(answer.body.result).toContain(words);
    }
    const inGerman = await callIn(
      'de',
      '/user/api/savePushSubscription',
      { subscription: { ...good, endpoint: 'http://push.example.org/x' } },
      alice.token,
    );
    expect(inGerman.body.result).toBe('Die Adresse des Push-Dienstes muss mit https:// beginnen.');
    expect(await rows(alice.id)).toEqual([]);
  });

  it('keeps one row per endpoint, updated when saved again; deletePushSubscription removes it', async () => {
    const device = await subscribe(alice);
    const fresh = createECDH('prime256v1');
    fresh.generateKeys();
    const again = await app.call(
      '/user/api/savePushSubscription',
      { subscription: { ...device.json, keys: { ...device.json.keys, p256dh: fresh.getPublicKey('base64url') } } },
      alice.token,
    );
    expect(again.status).toBe(200);
    const saved = await rows(alice.id);
    expect(saved).toHaveLength(1);
    expect(saved[0]?.p256dh).toBe(fresh.getPublicKey('base64url'));
    // Another user cannot remove it.
    await app.call('/user/api/deletePushSubscription', { endpoint: device.endpoint }, bob.token);
    expect(await rows(alice.id)).toHaveLength(1);
    const removed = await app.call('/user/api/deletePushSubscription', { endpoint: device.endpoint }, alice.token);
    expect(removed.body).toMatchObject({ success: true, code: 'push_deleted' });
    expect(await rows(alice.id)).toEqual([]);
  });

  it('removes a subscription whose push service answers 404 or 410, and retries a 503', async () => {
    const gone = await subscribe(alice);
    const missing = await subscribe(admin);
    const flaky = await subscribe(bob);
    const dora = await createMember(app, admin);
    await app.services.memberships.add(channel.id, [dora.id]);
    service.answers.set(gone.path, [410]);
    service.answers.set(missing.path, [404]);
    service.answers.set(flaky.path, [503]);
    expect((await app.call('/user/api/sendEmergencyAlert', { channelId: channel.id }, dora.token)).status).toBe(200);
    await service.next(gone.path);
    await service.next(missing.path);
    await service.next(flaky.path);
    const retried = await service.next(flaky.path);
    expect(decrypt(flaky, retried)).toMatchObject({ kind: 'sos' });
    await eventually(async () => (await rows(alice.id)).length === 0 && (await rows(admin.id)).length === 0, 'gone');
    expect(await rows(bob.id)).toHaveLength(1);
    await app.push.sender?.idle();
    expect(await pushed('gone')()).toBe(2);
    expect(await pushed('retried')()).toBe(1);
    expect(await pushed('sent')()).toBe(1);
  });

  it('removes the subscriptions of a session that logs out or is revoked, and of a deleted user', async () => {
    await subscribe(alice);
    const otherSession = await app.call('/user/api/login', {
      user_email: alice.identifier,
      user_password: alice.password,
    });
    const otherToken = otherSession.body.user.authToken;
    const second = subscriber(service.origin);
    expect((await app.call('/user/api/savePushSubscription', { subscription: second.json }, otherToken)).status).toBe(
      200,
    );
    expect(await rows(alice.id)).toHaveLength(2);

    expect((await app.call('/user/api/logout', {}, alice.token)).status).toBe(200);
    const left = await rows(alice.id);
    expect(left.map((row) => row.endpoint)).toEqual([second.endpoint]);

    await subscribe(bob);
    expect((await app.call('/user/api/deleteUserTokens/', { userId: bob.id }, admin.token)).status).toBe(200);
    expect(await rows(bob.id)).toEqual([]);

    expect((await app.call('/user/api/deleteUser', { UserId: alice.id }, admin.token)).status).toBe(200);
    expect(await rows(alice.id)).toEqual([]);
  });

  /** Another session of this account (a sign-in on another device), without a password check. */
  const newSession = (account: Account) => app.services.sessions.create(account.id);
  const saveWith = (token: string, sub: { json: object }) =>
    app.call('/user/api/savePushSubscription', { subscription: sub.json }, token);

  it('keeps one subscription per session and five per user, the least recently saved going; never six at once', async () => {
    // One per session: a new one from the same session replaces the previous one.
    const first = await subscribe(alice);
    const replacing = await subscribe(alice);
    expect((await rows(alice.id)).map((row) => row.endpoint)).toEqual([replacing.endpoint]);
    expect(first.endpoint).not.toBe(replacing.endpoint);

    // Five per user: each new session's subscription past five puts out the least recently saved.
    const devices = [replacing];
    for (let i = 0; i < 5; i++) {
      const device = subscriber(service.origin);
      expect((await saveWith(await newSession(alice), device)).status).toBe(200);
      devices.push(device);
    }
    const kept = (await rows(alice.id)).map((row) => row.endpoint).sort();
    expect(kept).toEqual(
      devices
        .slice(1)
        .map((device) => device.endpoint)
        .sort(),
    );

    // Seven sessions saving at once: still five, whichever wins.
    const tokens = await Promise.all(Array.from({ length: 7 }, () => newSession(alice)));
    const racing = tokens.map(() => subscriber(service.origin));
    const answers = await Promise.all(tokens.map((token, i) => saveWith(token, racing[i] as { json: object })));
    expect(answers.map((answer) => answer.status)).toEqual(tokens.map(() => 200));
    const after = await rows(alice.id);
    expect(after).toHaveLength(5);
    expect(new Set(after.map((row) => row.session_id)).size).toBe(5);
    // Bob's are his own: Alice's saves never touched them.
    await subscribe(bob);
    expect(await rows(bob.id)).toHaveLength(1);

    // The unique index holds even for a write that skips the store.
    const [one] = after;
    const now = new Date().toISOString();
    await expect(
      app.services.db
        .insertInto('push_subscriptions')
        .values({
          user_id: alice.id,
          session_id: one?.session_id as number,
          endpoint: `${service.origin}/push/direct`,
          p256dh: one?.p256dh as string,
          auth: one?.auth as string,
          language: 'en',
          created_at: now,
          updated_at: now,
        })
        .execute(),
    ).rejects.toThrow();
  });

  it('refuses another user’s endpoint (409) without touching its row; its own user moves it to a new session', async () => {
    const device = await subscribe(alice);
    const [before] = await rows(alice.id);
    // Bob presents Alice's endpoint with keys of his own.
    const bobKeys = subscriber(service.origin).json.keys;
    const taken = await callIn(
      'de',
      '/user/api/savePushSubscription',
      { subscription: { ...device.json, keys: bobKeys } },
      bob.token,
    );
    expect(taken.status).toBe(409);
    expect(taken.body).toMatchObject({
      success: false,
      code: 'push_endpoint_taken',
      result:
        'Diese Push-Adresse ist für ein anderes Konto gespeichert: Abonnieren Sie auf diesem Gerät erneut, um eine neue zu erhalten.',
    });
    expect(await rows(alice.id)).toEqual([before]);
    expect(await rows(bob.id)).toEqual([]);
    // Her SOS still reaches her device, with her keys.
    expect((await app.call('/user/api/sendEmergencyAlert', { channelId: channel.id }, bob.token)).status).toBe(200);
    expect(decrypt(device, await service.next(device.path))).toMatchObject({ kind: 'sos' });

    // Alice signs in again on the same device: the same endpoint moves to the new session, still one row.
    const again = await newSession(alice);
    expect((await saveWith(again, device)).status).toBe(200);
    const moved = await rows(alice.id);
    expect(moved).toHaveLength(1);
    expect(moved[0]?.id).toBe(before?.id);
    expect(moved[0]?.session_id).not.toBe(before?.session_id);
  });

  it('pushes only to live sessions; the sweep deletes the sessions that ended or idled out, and their subscriptions', async () => {
    const carol = await createMember(app, admin, { firstName: 'Carol', lastName: 'Idle' });
    await app.services.memberships.add(channel.id, [carol.id]);
    const aliceDevice = await subscribe(alice);
    const carolDevice = await subscribe(carol);
    const adminDevice = await subscribe(admin);
    const sessionOf = async (userId: number) => (await rows(userId))[0]?.session_id as number;
    // Alice's session is past its lifetime; Carol's unused for longer than SESSION_IDLE_HOURS.
    const past = (ms: number) => new Date(Date.now() - ms).toISOString();
    await app.services.db
      .updateTable('sessions')
      .set({ expires_at: past(1000) })
      .where('id', '=', await sessionOf(alice.id))
      .execute();
    await app.services.db
      .updateTable('sessions')
      .set({ last_seen_at: past(app.config.sessionIdleMs + 60_000) })
      .where('id', '=', await sessionOf(carol.id))
      .execute();

    expect((await app.call('/user/api/sendEmergencyAlert', { channelId: channel.id }, bob.token)).status).toBe(200);
    expect(decrypt(adminDevice, await service.next(adminDevice.path))).toMatchObject({ kind: 'sos' });
    await app.push.sender?.idle();
    expect(service.to(aliceDevice.path)).toEqual([]);
    expect(service.to(carolDevice.path)).toEqual([]);
    // The rows are there until the sweep.
    expect(await rows(alice.id)).toHaveLength(1);
    expect(await rows(carol.id)).toHaveLength(1);

    // The sweep the app starts runs on a schedule (here every 50 ms instead of 10 minutes).
    const errors: unknown[] = [];
    const stop = startSessionSweep(app.services.sessions, (error) => errors.push(error), 50);
    try {
      await eventually(async () => (await rows(alice.id)).length === 0 && (await rows(carol.id)).length === 0, 'swept');
    } finally {
      await stop();
    }
    const sessions = await app.services.db.selectFrom('sessions').select('user_id').execute();
    expect(sessions.map((row) => row.user_id)).not.toContain(alice.id);
    expect(sessions.map((row) => row.user_id)).not.toContain(carol.id);
    expect(await rows(admin.id)).toHaveLength(1);
    expect(errors).toEqual([]);
  });

  it('migration 0027 keeps, of existing rows, the most recently saved per session and five per user', async () => {
    const db = app.services.db;
    // The table as 0017 left it: no unique index on session_id.
    await db.schema.dropIndex('push_subscriptions_one_per_session').execute();
    await db.schema.createIndex('push_subscriptions_session').on('push_subscriptions').column('session_id').execute();
    const keys = subscriber(service.origin).json.keys;
    const row = (userId: number, sessionId: number, name: string, minutesAgo: number) => {
      const at = new Date(Date.now() - minutesAgo * 60_000).toISOString();
      return {
        user_id: userId,
        session_id: sessionId,
        endpoint: `${service.origin}/push/${name}`,
        p256dh: keys.p256dh,
        auth: keys.auth,
        language: 'en' as const,
        created_at: at,
        updated_at: at,
      };
    };
    // Bob: three rows in one session (the one saved a minute ago stays).
    const bobSession = (
      await db.selectFrom('sessions').select('id').where('user_id', '=', bob.id).executeTakeFirstOrThrow()
    ).id;
    // Alice: seven sessions, one row each (the five most recently saved stay).
    const aliceSessions: number[] = [];
    for (let i = 0; i < 7; i++) await app.services.sessions.create(alice.id);
    for (const session of await db.selectFrom('sessions').select('id').where('user_id', '=', alice.id).execute())
      aliceSessions.push(session.id);
    await db
      .insertInto('push_subscriptions')
      .values([
        row(bob.id, bobSession, 'bob-old', 30),
        row(bob.id, bobSession, 'bob-new', 1),
        row(bob.id, bobSession, 'bob-mid', 10),
        ...aliceSessions.map((sessionId, i) => row(alice.id, sessionId, `alice-${i}`, 100 - i)),
      ])
      .execute();

    await migration0027(dialect).up(db as never);

    expect((await rows(bob.id)).map((r) => r.endpoint)).toEqual([`${service.origin}/push/bob-new`]);
    const kept = (await rows(alice.id)).map((r) => r.endpoint.split('/').pop()).sort();
    const newest = aliceSessions.map((_, i) => `alice-${i}`).slice(-5);
    expect(kept).toEqual(newest.sort());
    await expect(
      db
        .insertInto('push_subscriptions')
        .values(row(bob.id, bobSession, 'bob-again', 0))
        .execute(),
    ).rejects.toThrow();
  });

  it('delivers an SOS while a push service that never answers still holds the sends of 300 subscriptions', async () => {
    // 300 members whose subscriptions lead to a push service that reads each request and never answers
    // (written straight into the database: one user may keep five at most).
    const at = new Date().toISOString();
    const silentIds = (
      await app.services.db
        .insertInto('users')
        .values(
          Array.from({ length: 300 }, (_, i) => ({
            first_name: 'Silent',
            last_name: String(i),
            identifier: `silent${i}@example.org`,
            pseudo: '',
            display_name: `Silent ${i}`,
            phone_number: '',
            password_hash: 'none',
            map_right: 0,
            role: 'member' as const,
            created_at: at,
          })),
        )
        .returning('id')
        .execute()
    ).map((row) => row.id);
    await app.services.memberships.add(channel.id, silentIds);
    const keys = subscriber(silent.origin).json.keys;
    for (const userId of silentIds) await app.services.sessions.create(userId);
    const sessions = await app.services.db
      .selectFrom('sessions')
      .select(['id', 'user_id'])
      .where('user_id', 'in', silentIds)
      .execute();
    const values = sessions.map((session) => ({
      user_id: session.user_id,
      session_id: session.id,
      endpoint: `${silent.origin}/push/silent-${session.user_id}`,
      p256dh: keys.p256dh,
      auth: keys.auth,
      language: 'en' as const,
      created_at: at,
      updated_at: at,
    }));
    await app.services.db.insertInto('push_subscriptions').values(values).execute();
    // Dora joins after them: in one first-in first-out queue, her push would wait behind all 300.
    const dora = await createMember(app, admin, { firstName: 'Dora', lastName: 'Late' });
    await app.services.memberships.add(channel.id, [dora.id]);
    const doraDevice = await subscribe(dora);

    const heldBefore = silent.holding;
    expect((await app.call('/user/api/sendEmergencyAlert', { channelId: channel.id }, bob.token)).status).toBe(200);
    expect(decrypt(doraDevice, await service.next(doraDevice.path))).toMatchObject({ kind: 'sos' });
    // Dora's push went while the silent push service still held sends and had the rest waiting (in one queue,
    // it would have come after every one of them had timed out).
    const pending = app.push.sender?.state().services[silent.origin];
    expect((pending?.inFlight ?? 0) + (pending?.waiting ?? 0)).toBeGreaterThan(0);
    await silent.until(() => silent.holding > heldBefore, 'the SOS pushes it holds');
    await eventually(async () => (await pushed('sent')()) === 1, 'the SOS to Dora counted as sent');
  });
});

describe.each(databases)('Web Push turned off on %s', (dialect: Dialect) => {
  it('gives no key and refuses subscriptions (PUSH=off)', async () => {
    const storage = testStorage(dialect);
    const app = await buildTestApp(storage, { push: false });
    try {
      const admin = await signUpAdmin(app);
      const config = await app.call('/user/api/getClientConfig', {}, admin.token);
      expect(config.body.res.pushPublicKey).toBeNull();
      const refused = await app.call(
        '/user/api/savePushSubscription',
        { subscription: subscriber('https://push.example.org').json },
        admin.token,
      );
      expect(refused).toMatchObject({ status: 400, body: { code: 'push_off' } });
    } finally {
      await app.fastify.close();
      await storage.remove();
    }
  });
});
