/**
 * Issue 38, a second factor: TOTP set up and confirmed, sign-in with a code (one step either side, each code
 * once) or a recovery code (each once), five wrong codes wait, turning it off; the security policy forcing
 * the setup (403 and a refused socket until it is done); an administrator's reset; their audit rows.
 * Issue 47: "confirm it's you" (confirmIdentity) before turning TOTP on or changing one's own email, and an
 * enrolment that frees only its own session.
 */
import { generate } from 'otplib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_SIGN_IN_POLICY } from '../src/auth/sign-in-limits.ts';
import {
  type Account,
  ageConfirmation,
  createMember,
  databases,
  signUpAdmin,
  startApp,
  type TestApp,
} from './harness.ts';
import { connect, listen, refusalData } from './realtime-harness.ts';

const now = () => Math.floor(Date.now() / 1000);
/** The code of the secret `offsetSteps` 30-second steps from now. */
const codeAt = (secret: string, offsetSteps = 0) => generate({ secret, epoch: now() + offsetSteps * 30 });

async function login(app: TestApp, account: Account, otp?: string, address = '192.0.2.10') {
  const response = await app.fastify.inject({
    method: 'POST',
    url: '/user/api/login',
    remoteAddress: address,
    headers: { 'accept-language': 'en' },
    payload: { user_email: account.identifier, user_password: account.password, ...(otp ? { otp } : {}) },
  });
  return { status: response.statusCode, body: response.json() };
}

/** TOTP set up and confirmed for the account: its secret and recovery codes. */
async function setUpTotp(app: TestApp, account: Account) {
  const started = await app.call('/user/api/startTotpSetup', {}, account.token);
  expect(started.status).toBe(200);
  const { secret } = started.body.res;
  const confirmed = await app.call('/user/api/confirmTotpSetup', { code: await codeAt(secret) }, account.token);
  expect(confirmed.status).toBe(200);
  return { secret, recoveryCodes: confirmed.body.res.recoveryCodes as string[] };
}

describe.each(databases)('second factor on %s', (dialect) => {
  let app: TestApp;
  let admin: Account;
  let mia: Account;

  beforeEach(async () => {
    app = await startApp(dialect);
    admin = await signUpAdmin(app);
    mia = await createMember(app, admin, { email: 'mia@example.org', password: 'mia-password-1' });
  });
  afterEach(async () => {
    await app.close();
  });

  it('sets TOTP up: a secret, its otpauth URL, a code confirms it and gives 10 recovery codes once', async () => {
    const started = await app.call('/user/api/startTotpSetup', {}, mia.token);
    expect(started.status).toBe(200);
    const { secret, otpauthUrl } = started.body.res;
    expect(secret).toMatch(/^[A-Z2-7]{26,}$/);
    expect(otpauthUrl).toBe(`otpauth://totp/Talkgroup:mia%40example.org?secret=${secret}&issuer=Talkgroup`);
    // Not on until confirmed: the password alone still signs in.
    expect((await login(app, mia)).status).toBe(200);
    const wrong = await app.call('/user/api/confirmTotpSetup', { code: '000000' }, mia.token);
    expect(wrong).toMatchObject({ status: 400, body: { code: 'totp_code_wrong' } });
    const confirmed = await app.call('/user/api/confirmTotpSetup', { code: await codeAt(secret) }, mia.token);
    expect(confirmed.status).toBe(200);
    const codes = confirmed.body.res.recoveryCodes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    // Stored sealed and hashed: neither the secret nor a recovery code is in the database as written.
    const stored = await app.services.db.selectFrom('totp_secrets').selectAll().execute();
    expect(JSON.stringify(stored)).not.toContain(secret);
    const hashes = await app.services.db.selectFrom('recovery_codes').select('code_hash').execute();
    expect(hashes).toHaveLength(10);
    expect(JSON.stringify(hashes)).not.toContain(codes[0]);
    const state = await app.call('/user/api/getSecondFactorState', {}, mia.token);
    expect(state.body.res).toEqual({ totp: true, recoveryCodesLeft: 10, required: false, setupPending: false });
    // Once on, setting up again is refused with a sentence.
    expect(await app.call('/user/api/startTotpSetup', {}, mia.token)).toMatchObject({
      status: 409,
      body: { code: 'totp_already_on' },
    });
  });

  it('asks for the code after the password, signs in with it, refuses its replay, takes one step either side', async () => {
    const { secret } = await setUpTotp(app, mia);
    const asked = await login(app, mia);
    expect(asked).toMatchObject({ status: 401, body: { success: false, code: 'second_factor_required' } });
    expect(asked.body.result).toMatch(/6-digit code/);
    expect(asked.body.user).toBeUndefined();
    // The wrong password is still the wrong password, code or not.
    expect((await login(app, { ...mia, password: 'nope' }, await codeAt(secret))).body.code).toBe(
      'invalid_credentials',
    );
    // The code of the previous step was used by the confirmation's step or not: take the next step's.
    const next = await codeAt(secret, 1);
    const signedIn = await login(app, mia, next);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.user.authToken).toEqual(expect.any(String));
    expect(signedIn.body.secondFactorSetupRequired).toBeUndefined();
    const replay = await login(app, mia, next);
    expect(replay).toMatchObject({ status: 401, body: { code: 'second_factor_wrong' } });
    expect(replay.body.result).toMatch(/wrong or was already used/);
    // An earlier step than the last used one is refused too (a code works once, and in order).
    expect((await login(app, mia, await codeAt(secret, 0))).status).toBe(401);
    expect((await login(app, mia, await codeAt(secret, -1))).status).toBe(401);
    // Two steps away is refused on any account.
    const { secret: adminSecret } = await setUpTotp(app, admin);
    expect((await login(app, admin, await codeAt(adminSecret, -3))).status).toBe(401);
    expect((await login(app, admin, await codeAt(adminSecret, 3))).status).toBe(401);
  });

  it('takes a code one step behind (a slow phone)', async () => {
    const started = await app.call('/user/api/startTotpSetup', {}, mia.token);
    const { secret } = started.body.res;
    // Confirmed with the code one step behind: the step before is still free for nothing, the current is free.
    expect((await app.call('/user/api/confirmTotpSetup', { code: await codeAt(secret, -1) }, mia.token)).status).toBe(
      200,
    );
    expect((await login(app, mia, await codeAt(secret, 0))).status).toBe(200);
  });

  it('signs in with each recovery code once, dashes, spaces and case ignored', async () => {
    const { recoveryCodes } = await setUpTotp(app, mia);
    const [first, second] = recoveryCodes;
    expect((await login(app, mia, first)).status).toBe(200);
    expect(await login(app, mia, first)).toMatchObject({ status: 401, body: { code: 'second_factor_wrong' } });
    expect((await login(app, mia, ` ${second.toUpperCase().replace('-', ' ')} `)).status).toBe(200);
    const state = await app.call('/user/api/getSecondFactorState', {}, mia.token);
    expect(state.body.res.recoveryCodesLeft).toBe(8);
  });

  it('makes the account wait after five wrong codes in a row, as wrong passwords do', async () => {
    const { secret } = await setUpTotp(app, mia);
    const statuses: number[] = [];
    for (let i = 0; i < DEFAULT_SIGN_IN_POLICY.freeFailures; i += 1) {
      statuses.push((await login(app, mia, String(100000 + i), '198.51.100.20')).status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401]);
    const waiting = await login(app, mia, await codeAt(secret, 1), '198.51.100.20');
    expect(waiting).toMatchObject({ status: 429, body: { code: 'sign_in_wait_account' } });
    expect(waiting.body.result).toMatch(/wait \d+ (seconds|minutes)/);
    // The password's own count is not the code's: a wrong password is still checked (401, not 429).
    expect((await login(app, { ...mia, password: 'wrong' }, undefined, '198.51.100.20')).status).toBe(401);
  });

  it('turns TOTP off with a current code or a recovery code, not with a wrong one', async () => {
    const { secret, recoveryCodes } = await setUpTotp(app, mia);
    expect(await app.call('/user/api/disableTotp', { code: '123456' }, mia.token)).toMatchObject({
      status: 400,
      body: { code: 'second_factor_wrong' },
    });
    const off = await app.call('/user/api/disableTotp', { code: await codeAt(secret, 1) }, mia.token);
    expect(off).toMatchObject({ status: 200, body: { code: 'totp_off' } });
    expect((await login(app, mia)).status).toBe(200);
    expect(await app.services.db.selectFrom('recovery_codes').selectAll().execute()).toHaveLength(0);
    expect(await app.call('/user/api/disableTotp', { code: recoveryCodes[0] }, mia.token)).toMatchObject({
      status: 409,
      body: { code: 'totp_not_on' },
    });
    const again = await setUpTotp(app, mia);
    expect((await app.call('/user/api/disableTotp', { code: again.recoveryCodes[3] }, mia.token)).status).toBe(200);
  });

  it('the policy takes a user without a second factor to the setup: 403 elsewhere, no socket, until it is set', async () => {
    const set = await app.call(
      '/user/api/setSecurityPolicy',
      { requireSecondFactor: ['dispatcher', 'member'] },
      admin.token,
    );
    expect(set).toMatchObject({ status: 200, body: { res: { requireSecondFactor: ['dispatcher', 'member'] } } });
    expect((await app.call('/user/api/getSecurityPolicy', {}, admin.token)).body.res).toEqual({
      requireSecondFactor: ['dispatcher', 'member'],
    });
    // The administrator's role is not required: it signs in as before.
    expect((await login(app, admin)).body.secondFactorSetupRequired).toBeUndefined();

    const signedIn = await login(app, mia);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.secondFactorSetupRequired).toBe(true);
    const token = signedIn.body.user.authToken;
    const refused = await app.call('/user/api/getUserById/', { userId: mia.id }, token);
    expect(refused).toMatchObject({ status: 403, body: { code: 'second_factor_setup_required' } });
    expect(refused.body.result).toMatch(/requires a second factor/);
    expect((await app.call('/user/api/getAllChannels', {}, token)).status).toBe(403);
    // What the setup needs passes.
    expect((await app.call('/user/api/isValidToken', {}, token)).body).toMatchObject({
      success: true,
      secondFactorSetupRequired: true,
    });
    expect((await app.call('/user/api/getClientConfig', {}, token)).status).toBe(200);
    expect((await app.call('/user/api/getSecondFactorState', {}, token)).body.res).toMatchObject({
      required: true,
      setupPending: true,
    });
    // No real time for that session; the earlier session (opened before the policy) still connects.
    const url = await listen(app);
    expect(await refusalData(url, token)).toMatchObject({ code: 'second_factor_setup_required' });
    (await connect(url, mia.token)).close();

    const started = await app.call('/user/api/startTotpSetup', {}, token);
    const confirmed = await app.call(
      '/user/api/confirmTotpSetup',
      { code: await codeAt(started.body.res.secret) },
      token,
    );
    expect(confirmed.status).toBe(200);
    // Set: the same session reaches everything at once, sockets included.
    expect((await app.call('/user/api/getUserById/', { userId: mia.id }, token)).status).toBe(200);
    expect((await app.call('/user/api/isValidToken', {}, token)).body.secondFactorSetupRequired).toBeUndefined();
    (await connect(url, token)).close();
    // A required factor cannot be turned off by its user.
    expect(await app.call('/user/api/disableTotp', { code: confirmed.body.res.recoveryCodes[0] }, token)).toMatchObject(
      { status: 403, body: { code: 'totp_required_by_policy' } },
    );
  });

  it('a session with setup pending may sign out', async () => {
    await app.call('/user/api/setSecurityPolicy', { requireSecondFactor: ['member'] }, admin.token);
    const token = (await login(app, mia)).body.user.authToken;
    expect((await app.call('/user/api/logout', {}, token)).status).toBe(200);
    expect((await app.call('/user/api/isValidToken', {}, token)).status).toBe(401);
  });

  it('an administrator resets a user’s second factor; both changes are in the audit log', async () => {
    await app.call('/user/api/setSecurityPolicy', { requireSecondFactor: ['admin'] }, admin.token);
    await setUpTotp(app, mia);
    expect(await app.call('/user/api/resetSecondFactor', { userId: mia.id }, mia.token)).toMatchObject({
      status: 403,
      body: { code: 'admin_only' },
    });
    const reset = await app.call('/user/api/resetSecondFactor', { userId: mia.id }, admin.token);
    expect(reset).toMatchObject({ status: 200, body: { code: 'second_factor_reset' } });
    expect((await login(app, mia)).status).toBe(200);
    expect(await app.services.db.selectFrom('recovery_codes').selectAll().execute()).toHaveLength(0);
    expect((await app.call('/user/api/resetSecondFactor', { userId: 999999 }, admin.token)).status).toBe(404);

    const log = await app.call('/user/api/getAuditLog', {}, admin.token);
    const actions = log.body.res.entries.map((e: { action: string }) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['settings.security', 'user.totp_on', 'user.second_factor_reset']));
    const resetRow = log.body.res.entries.find((e: { action: string }) => e.action === 'user.second_factor_reset');
    expect(resetRow).toMatchObject({ actor: { id: admin.id }, targetType: 'user', targetId: mia.id });
    const policyRow = log.body.res.entries.find((e: { action: string }) => e.action === 'settings.security');
    expect(policyRow.changes).toEqual({ requireSecondFactor: { before: null, after: ['admin'] } });
    const onRow = log.body.res.entries.find((e: { action: string }) => e.action === 'user.totp_on');
    expect(onRow).toMatchObject({ actor: { id: mia.id }, targetId: mia.id });
    // No secret in the log.
    expect(JSON.stringify(log.body)).not.toMatch(/recoveryCodes|secret/);
  });

  const confirmIdentity = (account: Account, body: object, address = '192.0.2.10') =>
    app.fastify
      .inject({
        method: 'POST',
        url: '/user/api/confirmIdentity',
        remoteAddress: address,
        headers: { 'x-access-token': account.token, 'accept-language': 'en' },
        payload: body,
      })
      .then((response) => ({ status: response.statusCode, body: response.json() }));

  it('confirms it is you with the password, a current code or a recovery code; wrong ones are limited 400s', async () => {
    const { secret, recoveryCodes } = await setUpTotp(app, mia);
    const wrong = await confirmIdentity(mia, { password: 'not-the-password' });
    expect(wrong).toMatchObject({ status: 400, body: { success: false, code: 'identity_password_wrong' } });
    expect(wrong.body.result).toMatch(/password is wrong/);
    expect((await confirmIdentity(mia, { code: '000000' })).body.code).toBe('second_factor_wrong');
    // The session itself is fine after a wrong one (a 401 would sign the page out).
    expect((await app.call('/user/api/getSecondFactorState', {}, mia.token)).status).toBe(200);
    expect((await confirmIdentity(mia, {})).body.code).toBe('invalid_input');
    expect((await confirmIdentity(mia, { password: mia.password, code: '123456' })).body.code).toBe('invalid_input');

    for (const body of [{ password: mia.password }, { code: await codeAt(secret, 1) }, { code: recoveryCodes[0] }]) {
      await ageConfirmation(app, mia.id);
      expect((await app.call('/user/api/startTotpSetup', {}, mia.token)).body.code).toBe('confirm_identity');
      const confirmed = await confirmIdentity(mia, body);
      expect(confirmed).toMatchObject({ status: 200, body: { success: true, code: 'identity_confirmed' } });
      expect(confirmed.body.result).toMatch(/5 minutes/);
      const until = Date.parse(confirmed.body.res.confirmedUntil) - Date.now();
      expect(until).toBeGreaterThan(4 * 60_000);
      expect(until).toBeLessThanOrEqual(5 * 60_000);
      // Past the confirmation: the call now says what it would have said (TOTP is already on).
      expect((await app.call('/user/api/startTotpSetup', {}, mia.token)).body.code).toBe('totp_already_on');
    }
    // A recovery code serves once, here as anywhere.
    expect((await confirmIdentity(mia, { code: recoveryCodes[0] })).body.code).toBe('second_factor_wrong');

    // Guessing the password through a stolen session waits as sign-ins do (five, then 429), on its own address too.
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1)
      statuses.push((await confirmIdentity(mia, { password: `guess-${i}` }, '198.51.100.30')).status);
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
  });

  it('turns TOTP on only within 5 minutes of a confirmation, at the start and at the completion; off with its code', async () => {
    await ageConfirmation(app, mia.id);
    const refused = await app.call('/user/api/startTotpSetup', {}, mia.token);
    expect(refused).toMatchObject({ status: 403, body: { success: false, code: 'confirm_identity' } });
    expect((await confirmIdentity(mia, { password: mia.password })).status).toBe(200);
    const started = await app.call('/user/api/startTotpSetup', {}, mia.token);
    expect(started.status).toBe(200);
    await ageConfirmation(app, mia.id);
    const code = await codeAt(started.body.res.secret);
    expect((await app.call('/user/api/confirmTotpSetup', { code }, mia.token)).body.code).toBe('confirm_identity');
    expect((await login(app, mia)).status).toBe(200);
    expect((await confirmIdentity(mia, { password: mia.password })).status).toBe(200);
    expect((await app.call('/user/api/confirmTotpSetup', { code }, mia.token)).status).toBe(200);
    // Turning it off: the current code it asks for is the factor given now.
    await ageConfirmation(app, mia.id);
    const off = await app.call('/user/api/disableTotp', { code: await codeAt(started.body.res.secret, 1) }, mia.token);
    expect(off).toMatchObject({ status: 200, body: { code: 'totp_off' } });
  });

  it('a waiting session confirms it is you; its enrolment ends the user’s other waiting sessions', async () => {
    await app.call('/user/api/setSecurityPolicy', { requireSecondFactor: ['member'] }, admin.token);
    const intruder = (await login(app, mia)).body.user.authToken;
    const owner = (await login(app, mia)).body.user.authToken;
    await ageConfirmation(app, mia.id);
    const asOwner = { ...mia, token: owner };
    expect((await app.call('/user/api/startTotpSetup', {}, owner)).body.code).toBe('confirm_identity');
    expect((await confirmIdentity(asOwner, { password: mia.password })).status).toBe(200);
    await setUpTotp(app, asOwner);
    expect((await app.call('/user/api/getMyChannels', {}, owner)).status).toBe(200);
    expect((await app.call('/user/api/getMyChannels', {}, intruder)).status).toBe(401);
    // Opened before the policy: never held, never ended.
    expect((await app.call('/user/api/getMyChannels', {}, mia.token)).status).toBe(200);
  });

  it('changes one’s own email only within 5 minutes of a confirmation; another user’s as before', async () => {
    await ageConfirmation(app, admin.id);
    const own = { id: admin.id, firstName: 'Ada', lastName: 'Admin', email: 'ada@example.org' };
    const refused = await app.call('/user/api/updateUserData', own, admin.token);
    expect(refused).toMatchObject({ status: 403, body: { code: 'confirm_identity' } });
    // The same email, or another field: nothing to confirm.
    const same = { ...own, email: admin.identifier, lastName: 'Lovelace' };
    expect((await app.call('/user/api/updateUserData', same, admin.token)).status).toBe(200);
    const other = { id: mia.id, firstName: 'Mia', lastName: 'Field', email: 'mia.field@example.org' };
    expect((await app.call('/user/api/updateUserData', other, admin.token)).status).toBe(200);
    expect((await confirmIdentity(admin, { password: admin.password })).status).toBe(200);
    const changed = await app.call('/user/api/updateUserData', own, admin.token);
    expect(changed).toMatchObject({ status: 200, body: { res: { email: 'ada@example.org' } } });
  });

  it('only an administrator reads and sets the policy; a wrong role is a clear 400', async () => {
    expect((await app.call('/user/api/getSecurityPolicy', {}, mia.token)).status).toBe(403);
    expect((await app.call('/user/api/setSecurityPolicy', { requireSecondFactor: [] }, mia.token)).status).toBe(403);
    const bad = await app.call('/user/api/setSecurityPolicy', { requireSecondFactor: ['chef'] }, admin.token);
    expect(bad).toMatchObject({ status: 400, body: { code: 'invalid_input' } });
    expect(bad.body.result).toMatch(/requireSecondFactor/);
    expect((await app.call('/user/api/getSecurityPolicy', {}, admin.token)).body.res).toEqual({
      requireSecondFactor: [],
    });
  });
});
