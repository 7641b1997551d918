/**
 * Passkeys (issue 38) with a software authenticator (webauthn-authenticator.ts) answering the server's real
 * options: registration, sign-in without a login, single-use and expiring challenges, the relying party (the
 * host of PUBLIC_URL, else the request's), a cloned authenticator, deletion, and the audit rows.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runAdminCommand } from '../src/ops/admin.ts';
import { type Account, createMember, databases, signUpAdmin, startApp, type TestApp } from './harness.ts';
import { type SoftAuthenticator, softAuthenticator } from './webauthn-authenticator.ts';

const SITE = 'https://talk.example.org';

describe.each(databases)('passkeys on %s', (dialect) => {
  let app: TestApp;
  let admin: Account;
  let mia: Account;

  beforeEach(async () => {
    app = await startApp(dialect, { publicUrl: SITE });
    admin = await signUpAdmin(app);
    mia = await createMember(app, admin, { firstName: 'Mia', lastName: 'Field' });
  });
  afterEach(async () => {
    await app.close();
  });

  const register = async (account: Account, key: SoftAuthenticator, origin = SITE, name?: string) => {
    const start = await app.call('/user/api/startPasskeyRegistration', {}, account.token);
    expect(start.status).toBe(200);
    return app.call(
      '/user/api/finishPasskeyRegistration',
      { credential: key.register(start.body.res, origin), ...(name ? { name } : {}) },
      account.token,
    );
  };
  const assertion = async (key: SoftAuthenticator, origin = SITE) => {
    const start = await app.call('/user/api/startPasskeySignIn', {});
    expect(start.status).toBe(200);
    return key.authenticate(start.body.res, origin);
  };
  const signInWith = async (credential: object) => app.call('/user/api/finishPasskeySignIn', { credential });

  it('registers a discoverable passkey, lists it, and signs in with it without a login', async () => {
    const key = softAuthenticator();
    const start = await app.call('/user/api/startPasskeyRegistration', {}, mia.token);
    expect(start.body.res).toMatchObject({
      rp: { id: 'talk.example.org', name: 'Talkgroup' },
      user: { name: mia.identifier },
      authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
    });
    expect(start.body.res.pubKeyCredParams.map((param: { alg: number }) => param.alg)).toEqual([-8, -7, -257]);
    const added = await app.call(
      '/user/api/finishPasskeyRegistration',
      { credential: key.register(start.body.res, SITE), name: 'Work phone' },
      mia.token,
    );
    expect(added.status).toBe(200);
    expect(added.body).toMatchObject({ code: 'passkey_added', res: { name: 'Work phone', lastUsedAt: null } });

    const options = (await app.call('/user/api/startPasskeySignIn', {})).body.res;
    expect(options.rpId).toBe('talk.example.org');
    // No login typed: the options list no credential, the browser offers the site's passkeys.
    expect(options.allowCredentials ?? []).toEqual([]);
    const signedIn = await signInWith(key.authenticate(options, SITE));
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.user).toMatchObject({ id: mia.id, email: mia.identifier });
    const token = signedIn.body.user.authToken;
    expect((await app.call('/user/api/getMyChannels', {}, token)).status).toBe(200);

    const [listed] = (await app.call('/user/api/getPasskeys', {}, mia.token)).body.res;
    expect(listed).toMatchObject({ name: 'Work phone' });
    expect(Date.parse(listed.lastUsedAt)).toBeGreaterThan(0);
    const sessions = (await app.call('/user/api/getSessions', {}, token)).body.res;
    expect(sessions.find((s: { current: boolean }) => s.current)).toMatchObject({ method: 'passkey' });
  });

  it('offers the same passkey never twice, and refuses it registered again', async () => {
    const key = softAuthenticator();
    expect((await register(mia, key)).status).toBe(200);
    const start = await app.call('/user/api/startPasskeyRegistration', {}, mia.token);
    expect(start.body.res.excludeCredentials).toEqual([
      { id: key.credentialId, type: 'public-key', transports: ['internal'] },
    ]);
    const again = await app.call(
      '/user/api/finishPasskeyRegistration',
      { credential: key.register(start.body.res, SITE) },
      mia.token,
    );
    expect(again.status).toBe(400);
    expect(again.body.code).toBe('passkey_exists');
  });

  it('uses each challenge once, for 5 minutes, and for the account it was made for', async () => {
    const key = softAuthenticator();
    // A registration answered with another account's challenge.
    const adminStart = await app.call('/user/api/startPasskeyRegistration', {}, admin.token);
    const stolen = await app.call(
      '/user/api/finishPasskeyRegistration',
      { credential: key.register(adminStart.body.res, SITE) },
      mia.token,
    );
    expect(stolen.status).toBe(400);
    expect(stolen.body.code).toBe('passkey_invalid');
    expect((await register(mia, key)).status).toBe(200);

    const answer = await assertion(key);
    expect((await signInWith(answer)).status).toBe(200);
    // The same answer again: its challenge is spent.
    const replayed = await signInWith(answer);
    expect(replayed.status).toBe(400);
    expect(replayed.body.code).toBe('passkey_invalid');
    expect(replayed.body.result).toMatch(/expired or already used/);

    const late = await assertion(key);
    await app.services.db
      .updateTable('webauthn_challenges')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .execute();
    expect((await signInWith(late)).body.code).toBe('passkey_invalid');
  });

  it('refuses another site, a cloned authenticator and a passkey nobody has here', async () => {
    const key = softAuthenticator();
    expect((await register(mia, key)).status).toBe(200);
    expect((await signInWith(await assertion(key, 'https://evil.example.net'))).body.code).toBe('passkey_invalid');
    // Signed for another relying party's id.
    const start = await app.call('/user/api/startPasskeySignIn', {});
    expect((await signInWith(key.authenticate(start.body.res, SITE, 'evil.example.net'))).body.code).toBe(
      'passkey_invalid',
    );

    expect((await signInWith(await assertion(key))).status).toBe(200);
    key.counter = 1; // a copy of the key, whose counter is behind the one the server saw
    expect((await signInWith(await assertion(key))).body.code).toBe('passkey_invalid');

    const stranger = softAuthenticator();
    const unknown = await signInWith(await assertion(stranger));
    expect(unknown.status).toBe(401);
    expect(unknown.body.code).toBe('passkey_unknown');
  });

  it('deletes only one’s own passkey, which then signs nobody in; both are audited', async () => {
    const key = softAuthenticator();
    const added = await register(mia, key, SITE, 'Yubikey');
    const { id } = added.body.res;
    const byAdmin = await app.call('/user/api/deletePasskey', { id }, admin.token);
    expect(byAdmin.status).toBe(404);
    expect(byAdmin.body.code).toBe('passkey_not_found');
    expect((await app.call('/user/api/deletePasskey', { id }, mia.token)).body.code).toBe('passkey_deleted');
    expect((await app.call('/user/api/getPasskeys', {}, mia.token)).body.res).toEqual([]);
    expect((await signInWith(await assertion(key))).status).toBe(401);

    const entries = (await app.call('/user/api/getAuditLog', {}, admin.token)).body.res.entries;
    const actions = entries.filter((e: { action: string }) => e.action.startsWith('passkey.'));
    expect(actions.map((e: { action: string }) => e.action)).toEqual(['passkey.delete', 'passkey.add']);
    expect(actions[1]).toMatchObject({
      actor: { id: mia.id },
      targetId: mia.id,
      changes: { passkey: { after: 'Yubikey' } },
    });
  });

  it('is a second factor for the security policy: set up from a waiting session, required at sign-in, kept, reset', async () => {
    expect(
      (await app.call('/user/api/setSecurityPolicy', { requireSecondFactor: ['member'] }, admin.token)).status,
    ).toBe(200);
    // No factor yet: the password signs in to the setup only, and a passkey is a way to set it up.
    const waiting = await app.call('/user/api/login', { user_email: mia.identifier, user_password: mia.password });
    expect(waiting.body.secondFactorSetupRequired).toBe(true);
    const token = waiting.body.user.authToken;
    expect((await app.call('/user/api/getMyChannels', {}, token)).body.code).toBe('second_factor_setup_required');
    const key = softAuthenticator();
    expect((await register({ ...mia, token }, key)).status).toBe(200);
    expect((await app.call('/user/api/getMyChannels', {}, token)).status).toBe(200);

    // From now on the password alone is one factor: the passkey signs in.
    const alone = await app.call('/user/api/login', { user_email: mia.identifier, user_password: mia.password });
    expect(alone.status).toBe(401);
    expect(alone.body.code).toBe('second_factor_passkey');
    const signedIn = await signInWith(await assertion(key));
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.secondFactorSetupRequired).toBeUndefined();
    expect((await app.call('/user/api/getMyChannels', {}, signedIn.body.user.authToken)).status).toBe(200);

    // The last factor of a role that must have one stays; an administrator's reset removes it (a lost phone).
    const [{ id }] = (await app.call('/user/api/getPasskeys', {}, token)).body.res;
    const kept = await app.call('/user/api/deletePasskey', { id }, token);
    expect(kept.status).toBe(403);
    expect(kept.body.code).toBe('passkey_required_by_policy');
    expect((await app.call('/user/api/resetSecondFactor', { userId: mia.id }, admin.token)).status).toBe(200);
    expect((await app.call('/user/api/getPasskeys', {}, token)).body.res).toEqual([]);
    expect((await signInWith(await assertion(key))).status).toBe(401);
  });

  // `npm run admin` opens the database of DATA_DIR (not this test's PostgreSQL schema): SQLite only here.
  it.runIf(dialect === 'sqlite')(
    'are removed by `npm run admin -- reset-second-factor`, with the sessions',
    async () => {
      const key = softAuthenticator();
      expect((await register(mia, key)).status).toBe(200);
      const said = await runAdminCommand(['reset-second-factor', mia.identifier], { DATA_DIR: app.config.dataDir });
      expect(said).toMatch(/second factors of .* are removed/);
      expect((await app.call('/user/api/getMyChannels', {}, mia.token)).status).toBe(401);
      expect((await signInWith(await assertion(key))).status).toBe(401);
      const entries = (await app.call('/user/api/getAuditLog', {}, admin.token)).body.res.entries;
      expect(entries[0]).toMatchObject({ action: 'user.second_factor_reset', targetId: mia.id });
    },
  );

  it('signs in no disabled account, though its passkey is good', async () => {
    const key = softAuthenticator();
    expect((await register(mia, key)).status).toBe(200);
    expect((await app.call('/user/api/setUserDisabled', { userId: mia.id, disabled: true }, admin.token)).status).toBe(
      200,
    );
    const refused = await signInWith(await assertion(key));
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ success: false, code: 'account_disabled' });
    expect(refused.body.user).toBeUndefined();
    await app.call('/user/api/setUserDisabled', { userId: mia.id, disabled: false }, admin.token);
    expect((await signInWith(await assertion(key))).body.user).toMatchObject({ id: mia.id });
  });

  it('asks for a token to register, and checks what the browser sent', async () => {
    expect((await app.call('/user/api/startPasskeyRegistration', {})).status).toBe(401);
    const malformed = await app.call('/user/api/finishPasskeySignIn', {
      credential: { id: 'not base64url!', rawId: 'x', type: 'public-key', response: {} },
    });
    expect(malformed.status).toBe(400);
  });
});

describe.each(databases)('passkeys without PUBLIC_URL on %s', (dialect) => {
  it('belong to the host the request names', async () => {
    const app = await startApp(dialect);
    try {
      const admin = await signUpAdmin(app);
      const key = softAuthenticator();
      const headers = { 'x-access-token': admin.token, host: 'radio.example.com:8443' };
      const post = (url: string, payload: object, extra: object = {}) =>
        app.fastify.inject({ method: 'POST', url, headers: { ...headers, ...extra }, payload });
      const start = (await post('/user/api/startPasskeyRegistration', {})).json();
      expect(start.res.rp.id).toBe('radio.example.com');
      const origin = 'http://radio.example.com:8443';
      expect(
        (await post('/user/api/finishPasskeyRegistration', { credential: key.register(start.res, origin) })).statusCode,
      ).toBe(200);
      const options = (await post('/user/api/startPasskeySignIn', {})).json().res;
      expect(
        (await post('/user/api/finishPasskeySignIn', { credential: key.authenticate(options, origin) })).statusCode,
      ).toBe(200);
    } finally {
      await app.close();
    }
  });
});
