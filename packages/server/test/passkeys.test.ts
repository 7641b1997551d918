/**
 * Passkeys (issue 38) with a software authenticator (webauthn-authenticator.ts) answering the server's real
 * options: registration, sign-in without a login, single-use and expiring challenges, the relying party (the
 * host of PUBLIC_URL; none, and passkeys off, without it), a cloned authenticator, deletion, and the audit rows.
 * Issue 47: a passkey is both factors only when it verified its user, enrolling frees only the enrolling session,
 * adding or deleting one needs "confirm it's you", starting a sign-in is limited per address, challenges are swept.
 */

import { generate } from 'otplib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PASSKEY_SIGN_IN_START_LIMIT } from '../src/auth/rate-limit.ts';
import { runAdminCommand } from '../src/ops/admin.ts';
import {
  type Account,
  ageConfirmation as ageConfirmationOf,
  createMember,
  databases,
  signUpAdmin,
  startApp,
  type TestApp,
} from './harness.ts';
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
    expect(added.body).toMatchObject({
      code: 'passkey_added',
      res: { name: 'Work phone', lastUsedAt: null, userVerified: true },
    });

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

  const ageConfirmation = (account: Account) => ageConfirmationOf(app, account.id);
  const passwordSignIn = async (account: Account) => {
    const answer = await app.call('/user/api/login', {
      user_email: account.identifier,
      user_password: account.password,
    });
    expect(answer.status).toBe(200);
    return answer.body as { user: { authToken: string }; secondFactorSetupRequired?: boolean };
  };

  it('is a second factor only when it verifies its user: required at registration and sign-in where two are', async () => {
    await app.call('/user/api/setSecurityPolicy', { requireSecondFactor: ['member'] }, admin.token);
    const waiting = await passwordSignIn(mia);
    expect(waiting.secondFactorSetupRequired).toBe(true);
    const token = waiting.user.authToken;
    // A security key without a PIN: the options ask for user verification, its answer without it is refused.
    const start = await app.call('/user/api/startPasskeyRegistration', {}, token);
    expect(start.body.res.authenticatorSelection).toMatchObject({ userVerification: 'required' });
    const noPin = softAuthenticator({ userVerified: false });
    const refused = await app.call(
      '/user/api/finishPasskeyRegistration',
      { credential: noPin.register(start.body.res, SITE) },
      token,
    );
    expect(refused).toMatchObject({ status: 400, body: { success: false, code: 'passkey_verification_required' } });
    expect(refused.body.result).toMatch(/did not verify you/);
    expect((await app.call('/user/api/getPasskeys', {}, token)).body.res).toEqual([]);
    expect((await app.call('/user/api/getMyChannels', {}, token)).body.code).toBe('second_factor_setup_required');

    const key = softAuthenticator();
    expect((await register({ ...mia, token }, key)).body.res).toMatchObject({ userVerified: true });
    expect((await app.call('/user/api/getMyChannels', {}, token)).status).toBe(200);
    // The same passkey answering without verifying its user (the PIN skipped) is possession alone: one factor.
    key.userVerified = false;
    const unverified = await signInWith(await assertion(key));
    expect(unverified).toMatchObject({ status: 401, body: { success: false, code: 'passkey_unverified' } });
    expect(unverified.body.user).toBeUndefined();
    key.userVerified = true;
    expect((await signInWith(await assertion(key))).status).toBe(200);
  });

  it('without user verification signs in an account that needs one factor, not one with two-step verification', async () => {
    const key = softAuthenticator({ userVerified: false });
    const start = await app.call('/user/api/startPasskeyRegistration', {}, mia.token);
    expect(start.body.res.authenticatorSelection).toMatchObject({ userVerification: 'preferred' });
    const added = await app.call(
      '/user/api/finishPasskeyRegistration',
      { credential: key.register(start.body.res, SITE) },
      mia.token,
    );
    expect(added.body.res).toMatchObject({ userVerified: false });
    // A password alone is all this account needs: the passkey alone is as much.
    expect((await signInWith(await assertion(key))).status).toBe(200);

    const totp = await app.call('/user/api/startTotpSetup', {}, mia.token);
    const code = await generate({ secret: totp.body.res.secret });
    expect((await app.call('/user/api/confirmTotpSetup', { code }, mia.token)).status).toBe(200);
    // Two-step verification on: every sign-in needs two factors, a passkey that does not verify its user is one.
    expect((await signInWith(await assertion(key))).body.code).toBe('passkey_unverified');
    // A PIN set on the key since: it verifies its user, signs in, and is a second factor from now on.
    key.userVerified = true;
    expect((await signInWith(await assertion(key))).status).toBe(200);
    expect((await app.call('/user/api/getPasskeys', {}, mia.token)).body.res).toMatchObject([{ userVerified: true }]);
    expect((await app.call('/user/api/startPasskeyRegistration', {}, mia.token)).body.res).toMatchObject({
      authenticatorSelection: { userVerification: 'required' },
    });
  });

  it('keeps the last passkey that verifies its user where the role must have one; one that does not may go', async () => {
    const noPin = softAuthenticator({ userVerified: false });
    const unverifiedId = (await register(mia, noPin)).body.res.id;
    await app.call('/user/api/setSecurityPolicy', { requireSecondFactor: ['member'] }, admin.token);
    // The passkey without verification is no factor: the password opens only the setup.
    expect((await passwordSignIn(mia)).secondFactorSetupRequired).toBe(true);
    const key = softAuthenticator();
    const verifiedId = (await register(mia, key)).body.res.id;
    const kept = await app.call('/user/api/deletePasskey', { id: verifiedId }, mia.token);
    expect(kept).toMatchObject({ status: 403, body: { code: 'passkey_required_by_policy' } });
    expect((await app.call('/user/api/deletePasskey', { id: unverifiedId }, mia.token)).status).toBe(200);
    // Now a factor: the password alone sends to the passkey.
    const alone = await app.call('/user/api/login', { user_email: mia.identifier, user_password: mia.password });
    expect(alone.body.code).toBe('second_factor_passkey');
  });

  it('frees only the session that enrolled: the user’s other waiting sessions end', async () => {
    await app.call('/user/api/setSecurityPolicy', { requireSecondFactor: ['member'] }, admin.token);
    const ended: unknown[] = [];
    app.services.events.on('sessionsEnded', (event) => ended.push(event));
    // Someone who has the password waits in a session of its own while the real user enrols.
    const intruder = (await passwordSignIn(mia)).user.authToken;
    const owner = (await passwordSignIn(mia)).user.authToken;
    expect((await register({ ...mia, token: owner }, softAuthenticator())).status).toBe(200);
    expect((await app.call('/user/api/getMyChannels', {}, owner)).status).toBe(200);
    const out = await app.call('/user/api/getMyChannels', {}, intruder);
    expect(out).toMatchObject({ status: 401, body: { code: 'session_expired' } });
    // A session that did not wait (opened before the policy) is left alone.
    expect((await app.call('/user/api/getMyChannels', {}, mia.token)).status).toBe(200);
    expect(ended).toEqual([{ userId: mia.id, sessionId: expect.any(Number), reason: 'ended' }]);
  });

  it('adds or deletes a passkey only within 5 minutes of a confirmation, at the start and at the finish', async () => {
    const key = softAuthenticator();
    const start = await app.call('/user/api/startPasskeyRegistration', {}, mia.token);
    expect(start.status).toBe(200);
    await ageConfirmation(mia);
    const credential = key.register(start.body.res, SITE);
    const finish = () => app.call('/user/api/finishPasskeyRegistration', { credential }, mia.token);
    const refused = await finish();
    expect(refused).toMatchObject({ status: 403, body: { success: false, code: 'confirm_identity' } });
    expect(refused.body.result).toMatch(/Confirm it’s you/);
    expect((await app.call('/user/api/startPasskeyRegistration', {}, mia.token)).body.code).toBe('confirm_identity');
    const confirmed = await app.call('/user/api/confirmIdentity', { password: mia.password }, mia.token);
    expect(confirmed).toMatchObject({ status: 200, body: { code: 'identity_confirmed' } });
    expect(Date.parse(confirmed.body.res.confirmedUntil) - Date.now()).toBeGreaterThan(4 * 60_000);
    // The same answer again: the refusal did not spend its challenge.
    const added = await finish();
    expect(added.status).toBe(200);

    await ageConfirmation(mia);
    const remove = () => app.call('/user/api/deletePasskey', { id: added.body.res.id }, mia.token);
    expect((await remove()).body.code).toBe('confirm_identity');
    expect((await app.call('/user/api/getPasskeys', {}, mia.token)).body.res).toHaveLength(1);
    expect((await app.call('/user/api/confirmIdentity', { password: mia.password }, mia.token)).status).toBe(200);
    expect((await remove()).body.code).toBe('passkey_deleted');
  });

  it('limits the passkey sign-ins one address starts, with a sentence', async () => {
    const start = (address: string) =>
      app.fastify.inject({
        method: 'POST',
        url: '/user/api/startPasskeySignIn',
        remoteAddress: address,
        headers: { 'accept-language': 'en' },
        payload: {},
      });
    const statuses: number[] = [];
    for (let i = 0; i < PASSKEY_SIGN_IN_START_LIMIT.max; i += 1)
      statuses.push((await start('198.51.100.7')).statusCode);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    const refused = await start('198.51.100.7');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ success: false, code: 'too_many_passkey_sign_ins' });
    expect(refused.json().result).toMatch(/wait \d+ seconds/);
    // Another address is not held by this one's starts.
    expect((await start('198.51.100.8')).statusCode).toBe(200);
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
