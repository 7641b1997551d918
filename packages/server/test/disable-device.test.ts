/**
 * Remote disable of a device (issue 60 item 5): an administrator lists a user's sessions (getUserSessions, the ids
 * of getSessions) and disables one (disableDevice): its sockets get `device_disabled` and are closed, its token is
 * refused on HTTP and on a new socket, its push subscription is gone, the user's other sessions still work, and the
 * audit log says who disabled whose device. Nobody but an administrator may do it. Issue 69: the passkeys registered
 * from that session go too (the answer says how many), and an audit row that cannot be written disables nothing.
 */
import { createECDH, randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Account, createMember, databases, signIn, signUpAdmin, startApp, type TestApp } from './harness.ts';
import { connect, listen, refusalData, type TestClient } from './realtime-harness.ts';
import { createWithRole } from './role-fixtures.ts';
import { softAuthenticator } from './webauthn-authenticator.ts';

const PUSH_ORIGIN = 'https://push.disable.invalid';
/** PUBLIC_URL: passkeys on (issue 69: a disabled device's passkeys go with it). */
const SITE = 'https://talk.example.org';
const ANDROID_CHROME =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';

function subscription(name: string) {
  const keys = createECDH('prime256v1');
  keys.generateKeys();
  return {
    endpoint: `${PUSH_ORIGIN}/send/${name}`,
    expirationTime: null,
    keys: { p256dh: keys.getPublicKey('base64url'), auth: randomBytes(16).toString('base64url') },
  };
}

describe.each(databases)('disabling a device on %s', (dialect) => {
  let app: TestApp;
  let url: string;
  let admin: Account;
  let mia: Account;
  const clients: TestClient[] = [];

  const open = async (token: string) => {
    const client = await connect(url, token);
    clients.push(client);
    return client;
  };
  const phoneSignIn = async () => {
    const login = await app.fastify.inject({
      method: 'POST',
      url: '/user/api/login',
      headers: { 'user-agent': ANDROID_CHROME },
      remoteAddress: '203.0.113.7',
      payload: { user_email: mia.identifier, user_password: mia.password },
    });
    expect(login.statusCode).toBe(200);
    return login.json().user.authToken as string;
  };
  const subscriptionsOf = async (userId: number) =>
    app.services.db
      .selectFrom('push_subscriptions')
      .select(['session_id', 'endpoint'])
      .where('user_id', '=', userId)
      .execute();

  beforeEach(async () => {
    app = await startApp(dialect, { pushEndpointAllow: [PUSH_ORIGIN], publicUrl: SITE });
    url = await listen(app);
    admin = await signUpAdmin(app);
    mia = await createMember(app, admin, { firstName: 'Mia', lastName: 'Field', password: 'memberpw' });
  });
  afterEach(async () => {
    for (const client of clients.splice(0)) client.close();
    await app.close();
  });

  it("lists a user's sessions with the ids of getSessions, newest first", async () => {
    const phone = await phoneSignIn();
    const listed = await app.call('/user/api/getUserSessions', { userId: mia.id }, admin.token);
    expect(listed.status).toBe(200);
    const sessions = listed.body.res as Array<Record<string, unknown>>;
    expect(sessions).toHaveLength(2); // createMember's own sign-in too
    expect(sessions[0]).toMatchObject({ device: 'Chrome · Android', address: '203.0.113.7', method: 'password' });
    expect(Number.isNaN(Date.parse(String(sessions[0].lastSeen)))).toBe(false);
    const own = (await app.call('/user/api/getSessions', {}, phone)).body.res as Array<{ id: number }>;
    expect(sessions.map((s) => s.sessionId).sort()).toEqual(own.map((s) => s.id).sort());
    expect((await app.call('/user/api/getUserSessions', { userId: 999_999 }, admin.token)).status).toBe(404);
    expect((await app.call('/user/api/getUserSessions', { userId: 'x' }, admin.token)).status).toBe(400);
  });

  it('ends the session for good: device_disabled, sockets closed, token refused, push subscription gone, audited', async () => {
    const phone = await phoneSignIn();
    const laptop = await signIn(app, mia.identifier, 'memberpw');
    expect(
      (await app.call('/user/api/savePushSubscription', { subscription: subscription('phone') }, phone)).status,
    ).toBe(200);
    expect(
      (await app.call('/user/api/savePushSubscription', { subscription: subscription('laptop') }, laptop.token)).status,
    ).toBe(200);
    const onPhone = await open(phone);
    const onLaptop = await open(laptop.token);
    const sessions = (await app.call('/user/api/getUserSessions', { userId: mia.id }, admin.token)).body.res;
    const target = sessions.find((s: { address: string }) => s.address === '203.0.113.7');

    const disabled = await app.call('/user/api/disableDevice', { sessionId: target.sessionId }, admin.token);
    expect(disabled.status).toBe(200);
    expect(disabled.body).toMatchObject({
      success: true,
      code: 'device_disabled',
      res: { userId: mia.id, sessionId: target.sessionId, device: 'Chrome · Android' },
    });
    expect(await onPhone.next('device_disabled')).toEqual({
      message: 'This device was disabled by an administrator.',
    });
    expect(await onPhone.next('disconnect')).toBe('io server disconnect');

    // The token never works again, on HTTP or on a socket.
    expect((await app.call('/user/api/getMyChannels', {}, phone)).status).toBe(401);
    expect((await refusalData(url, phone)).code).toBe('bad_token');
    // Its push subscription went with it; the laptop's stays.
    const left = await subscriptionsOf(mia.id);
    expect(left.map((row) => row.endpoint)).toEqual([`${PUSH_ORIGIN}/send/laptop`]);
    // The other sessions still work.
    expect((await app.call('/user/api/getMyChannels', {}, laptop.token)).status).toBe(200);
    await onLaptop.flush();
    expect(onLaptop.socket.connected).toBe(true);
    expect(onLaptop.all('device_disabled')).toEqual([]);
    const after = (await app.call('/user/api/getUserSessions', { userId: mia.id }, admin.token)).body.res;
    expect(after.map((s: { sessionId: number }) => s.sessionId)).not.toContain(target.sessionId);
    // Once gone, it is gone.
    const again = await app.call('/user/api/disableDevice', { sessionId: target.sessionId }, admin.token);
    expect(again.status).toBe(404);
    expect(again.body.code).toBe('session_not_found');

    const entries = (await app.call('/user/api/getAuditLog', {}, admin.token)).body.res.entries;
    const entry = entries.find((e: { action: string }) => e.action === 'session.disable_device');
    expect(entry).toMatchObject({
      actor: { id: admin.id },
      targetType: 'user',
      targetId: mia.id,
      changes: { sessionId: { after: target.sessionId }, device: { after: 'Chrome · Android' } },
    });
  });

  it('removes the passkeys registered from that session and says how many (issue 69)', async () => {
    const phone = await phoneSignIn();
    const laptop = await signIn(app, mia.identifier, 'memberpw');
    const register = async (token: string, name: string) => {
      const start = await app.call('/user/api/startPasskeyRegistration', {}, token);
      expect(start.status).toBe(200);
      const added = await app.call(
        '/user/api/finishPasskeyRegistration',
        { credential: softAuthenticator().register(start.body.res, SITE), name },
        token,
      );
      expect(added.status).toBe(200);
    };
    await register(phone, 'Phone');
    await register(phone, 'Phone, second key');
    await register(laptop.token, 'Laptop');
    // One registered before migration 0047 knows no session: it stays.
    await register(phone, 'Older');
    await app.services.db.updateTable('passkeys').set({ session_id: null }).where('name', '=', 'Older').execute();
    const sessions = (await app.call('/user/api/getUserSessions', { userId: mia.id }, admin.token)).body.res;
    const target = sessions.find((s: { address: string }) => s.address === '203.0.113.7');

    const disabled = await app.call('/user/api/disableDevice', { sessionId: target.sessionId }, admin.token);
    expect(disabled.status).toBe(200);
    expect(disabled.body.res).toMatchObject({ userId: mia.id, sessionId: target.sessionId, passkeysRemoved: 2 });
    const left = (await app.call('/user/api/getPasskeys', {}, laptop.token)).body.res.map(
      (p: { name: string }) => p.name,
    );
    expect(left.sort()).toEqual(['Laptop', 'Older']);
    const entries = (await app.call('/user/api/getAuditLog', {}, admin.token)).body.res.entries;
    expect(entries.find((e: { action: string }) => e.action === 'session.disable_device')).toMatchObject({
      targetId: mia.id,
      changes: { sessionId: { after: target.sessionId }, passkeysRemoved: { after: 2 } },
    });
  });

  it('does not happen when its audit row cannot be written: the device is not told, its session stays', async () => {
    const phone = await phoneSignIn();
    expect(
      (await app.call('/user/api/savePushSubscription', { subscription: subscription('phone') }, phone)).status,
    ).toBe(200);
    const onPhone = await open(phone);
    const sessions = (await app.call('/user/api/getUserSessions', { userId: mia.id }, admin.token)).body.res;
    const target = sessions.find((s: { address: string }) => s.address === '203.0.113.7');

    await sql`alter table audit_log rename to audit_log_away`.execute(app.services.db);
    const failed = await app.call('/user/api/disableDevice', { sessionId: target.sessionId }, admin.token);
    expect(failed.status).toBe(500);
    await onPhone.flush();
    expect(onPhone.all('device_disabled')).toEqual([]);
    expect(onPhone.socket.connected).toBe(true);
    expect((await app.call('/user/api/getMyChannels', {}, phone)).status).toBe(200);
    expect(await subscriptionsOf(mia.id)).toHaveLength(1);

    // Written again: the disable goes through, and only then is the device told.
    await sql`alter table audit_log_away rename to audit_log`.execute(app.services.db);
    expect((await app.call('/user/api/disableDevice', { sessionId: target.sessionId }, admin.token)).status).toBe(200);
    expect(await onPhone.next('device_disabled')).toEqual({ message: 'This device was disabled by an administrator.' });
  });

  it('is for administrators only: a dispatcher or a member gets 403 and the session stays', async () => {
    const phone = await phoneSignIn();
    const dispatcher = await createWithRole(app, admin, 'dispatcher');
    const field = await app.services.channels.create('Field Team');
    await app.services.memberships.add(field.id, [mia.id, dispatcher.id]);
    const own = (await app.call('/user/api/getSessions', {}, phone)).body.res as Array<{
      id: number;
      current: boolean;
    }>;
    const sessionId = own.find((s) => s.current)?.id;
    for (const caller of [dispatcher.token, mia.token, phone]) {
      const refused = await app.call('/user/api/disableDevice', { sessionId }, caller);
      expect(refused.status).toBe(403);
      expect(refused.body.success).toBe(false);
      expect((await app.call('/user/api/getUserSessions', { userId: mia.id }, caller)).status).toBe(403);
    }
    expect((await app.call('/user/api/getMyChannels', {}, phone)).status).toBe(200);
    expect((await app.call('/user/api/disableDevice', { sessionId: 'abc' }, admin.token)).status).toBe(400);
    expect((await app.call('/user/api/disableDevice', { sessionId })).status).toBe(401);
  });
});
