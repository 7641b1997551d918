/**
 * Web Push subscriptions (issues 34 and 47): the refusals (an endpoint that is not https or leads to a private
 * address, bad keys, another user's endpoint), one row per endpoint, one subscription per session and five per
 * user (and migration 0027 that brought existing rows to it), the 404/410 clean-up and the retries, and the
 * subscriptions that go with a logout, a revocation, a deleted user and a session that ended or idled out.
 */
import { createECDH, randomBytes } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { startSessionSweep } from '../src/auth/session-sweep.ts';
import type { ChannelSummary } from '../src/channels/store.ts';
import { migration as migration0027 } from '../src/db/migrations/0027_push_limits.ts';
import type { Dialect } from '../src/db/open.ts';
import { type Account, createMember, databases, type TestApp } from './harness.ts';
import { decrypt, subscriber } from './push-harness.ts';
import { pushRequests, pushWorld } from './push-world.ts';
import { eventually } from './realtime-harness.ts';

describe.each(databases)('Web Push subscriptions on %s', (dialect: Dialect) => {
  const world = pushWorld(dialect);
  const { callIn, subscribe, rows, pushed } = pushRequests(world);
  const { service } = world;
  let app: TestApp;
  let admin: Account;
  let alice: Account;
  let bob: Account;
  let channel: ChannelSummary;
  beforeEach(() => {
    ({ app, admin, alice, bob, channel } = world);
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
});
