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
import { beforeEach, describe, expect, it } from 'vitest';
import type { ChannelSummary } from '../src/channels/store.ts';
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
import { decrypt, subscriber, verifyVapid } from './push-harness.ts';
import { pushRequests, pushWorld } from './push-world.ts';
import { connect, eventually } from './realtime-harness.ts';
import { createWithRole } from './role-fixtures.ts';

describe.each(databases)('Web Push on %s', (dialect: Dialect) => {
  const world = pushWorld(dialect);
  const { subscribe, pushed } = pushRequests(world);
  const { service, clients, silent } = world;
  let storage: ReturnType<typeof testStorage>;
  let app: TestApp;
  let url: string;
  let admin: Account;
  let alice: Account;
  let bob: Account;
  let channel: ChannelSummary;
  let publicKey: string;
  beforeEach(() => {
    ({ storage, app, url, admin, alice, bob, channel, publicKey } = world);
  });

  it('gives a VAPID key made once and kept in the database', async () => {
    expect(Buffer.from(publicKey, 'base64url')).toHaveLength(65);
    expect(Buffer.from(publicKey, 'base64url')[0]).toBe(4);
    await app.fastify.close();
    app = world.app = await buildTestApp(storage, { pushEndpointAllow: [service.origin] });
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
