/**
 * Single sign-on (issue 38) against a real OpenID Connect provider (oidc-provider on a free port, see
 * oidc-provider.ts): the whole authorization code flow with PKCE, state and nonce, the account made from the
 * claims, the role from the groups, the link by verified email, a deleted account refused, a wrong or reused
 * state refused, a refusal at the provider and an unreachable provider landing on /signin with their code.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Account, createMember, databases, signUpAdmin, startApp, type TestApp } from './harness.ts';
import {
  callback,
  codeAt,
  finish,
  REDIRECT_URI,
  sessionTrip,
  ssoConfig,
  ssoLanding,
  ssoSignIn,
  start,
  TalkJar,
} from './oidc-flow.ts';
import { startTestProvider, type TestProvider, throughProvider } from './oidc-provider.ts';

let provider: TestProvider;
beforeAll(async () => {
  provider = await startTestProvider(REDIRECT_URI);
});
afterAll(async () => {
  await provider?.close();
});

describe.each(databases)('single sign-on on %s', (dialect) => {
  let app: TestApp;
  let admin: Account;
  beforeEach(async () => {
    app = await startApp(dialect, ssoConfig(provider.issuer));
    admin = await signUpAdmin(app);
  });
  afterEach(async () => {
    await app.close();
  });

  it('offers the provider on /signin and creates the account from the claims, its role from the groups', async () => {
    const options = await app.call('/user/api/getSignInOptions');
    expect(options.body).toMatchObject({ success: true, sso: { name: 'Example ID' }, passwordSignIn: true });

    provider.identities.set(`alice-${dialect}`, {
      email: `Alice.${dialect}@Example.org`,
      email_verified: true,
      given_name: 'Alice',
      family_name: 'Martin',
      groups: ['staff', 'tg-dispatch'],
    });
    const user = await ssoSignIn(app, `alice-${dialect}`);
    expect(user).toMatchObject({
      email: `alice.${dialect}@example.org`,
      firstName: 'Alice',
      lastName: 'Martin',
      role: 'dispatcher',
    });
    // The session is a real one, opened by single sign-on.
    const valid = await app.call('/user/api/isValidToken', { token: user.authToken });
    expect(valid.body.user.id).toBe(user.id);
    const session = await app.services.db
      .selectFrom('sessions')
      .select(['method'])
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(session.method).toBe('sso');

    // The role follows the groups at every sign-in, and the change is audited.
    provider.identities.set(`alice-${dialect}`, {
      ...provider.identities.get(`alice-${dialect}`),
      groups: ['tg-admins'],
    });
    expect((await ssoSignIn(app, `alice-${dialect}`)).role).toBe('admin');
    provider.identities.set(`alice-${dialect}`, { ...provider.identities.get(`alice-${dialect}`), groups: [] });
    const again = await ssoSignIn(app, `alice-${dialect}`);
    expect(again).toMatchObject({ id: user.id, role: 'member' });
    const log = await app.call('/user/api/getAuditLog', { start: 0, limit: 20 }, admin.token);
    const roleChanges = log.body.res.entries.filter((entry: { action: string }) => entry.action === 'user.sso_role');
    expect(roleChanges.map((entry: { changes: unknown }) => entry.changes)).toEqual([
      { role: { before: 'admin', after: 'member' } },
      { role: { before: 'dispatcher', after: 'admin' } },
    ]);
  });

  it('gives a one-time code: used once, only in the browser that started the sign-in, no token in any address', async () => {
    provider.identities.set('once', { email: 'once@example.org', email_verified: true, given_name: 'Otto' });
    const jar = new TalkJar();
    const landing = await ssoLanding(app, 'once', { jar });
    expect(landing).not.toMatch(/token/i);
    // Another browser (an attacker's code opened by a victim, or the victim's code stolen): no binding cookie.
    const elsewhere = await finish(app, landing, new TalkJar());
    expect(elsewhere).toMatchObject({ status: 401, body: { code: 'sso_code_other_browser' } });
    expect(elsewhere.body.result).toBe('This single sign-on was started in another browser: start it again here.');
    // Nor with another sign-in's binding.
    const other = new TalkJar();
    await start(app, other);
    expect((await finish(app, landing, other)).body.code).toBe('sso_code_other_browser');
    expect((await finish(app, landing, jar)).status).toBe(200);
    const replay = await finish(app, landing, jar);
    expect(replay).toMatchObject({ status: 401, body: { code: 'sso_code_invalid' } });
    const forged = await app.call('/user/api/finishOidcSignIn', { code: 'not-a-code' });
    expect(forged.status).toBe(401);
  });

  it('never joins an existing account by its email: the owner links it from /account, signed in', async () => {
    const bob = await createMember(app, admin, { email: 'bob@example.org', password: 'bob-password-1' });
    provider.identities.set('bob-sub', { email: 'bob@example.org', email_verified: true, groups: ['tg-dispatch'] });
    expect(await ssoLanding(app, 'bob-sub')).toBe('/signin?sso_error=link_required');
    // The refused sign-in waits for an administrator, naming both the identity and the account it met.
    const pending = await app.call('/user/api/getIdentityRequests', {}, admin.token);
    expect(pending.body.res).toEqual([
      expect.objectContaining({
        provider: 'Example ID',
        email: 'bob@example.org',
        account: expect.objectContaining({ userId: bob.id, identifier: 'bob@example.org', role: 'member' }),
      }),
    ]);
    expect((await app.call('/user/api/getIdentityRequests', {}, bob.token)).status).toBe(403);

    // Bob, signed in with his own password, links the provider (signing in just now confirmed it is him).
    expect(await sessionTrip(app, bob.token, 'link', 'bob-sub')).toBe('/account#sso_linked');
    const links = await app.call('/user/api/getIdentityLinks', {}, bob.token);
    expect(links.body.res).toEqual([expect.objectContaining({ provider: 'Example ID', email: 'bob@example.org' })]);
    expect((await app.call('/user/api/getIdentityRequests', {}, admin.token)).body.res).toEqual([]);
    const linked = await ssoSignIn(app, 'bob-sub');
    expect(linked).toMatchObject({ id: bob.id, role: 'dispatcher', firstName: 'Mia' });
    // Later the provider's email changes: the link holds by sub.
    provider.identities.set('bob-sub', { email: 'robert@example.org', email_verified: true, groups: [] });
    expect((await ssoSignIn(app, 'bob-sub')).id).toBe(bob.id);
    // A second link from the same account, or another account taking this identity, is refused.
    expect((await app.call('/user/api/startOidcLink', {}, bob.token)).body.code).toBe('sso_link_exists');
    const carol = await createMember(app, admin, { email: 'carol@example.org' });
    expect(await sessionTrip(app, carol.token, 'link', 'bob-sub')).toBe('/account?sso_error=already_linked');

    // A link started by someone else's session is nothing in this browser: no intent cookie, no trip.
    const forged = await app.fastify.inject({ method: 'GET', url: '/auth/oidc/start?for=link' });
    expect(forged.headers.location).toBe('/account?sso_error=session_gone');
    // An unverified or missing email still makes nothing of an account.
    provider.identities.set('nobody', {});
    expect(await ssoLanding(app, 'nobody')).toBe('/signin?sso_error=no_email');

    const log = await app.call('/user/api/getAuditLog', { start: 0, limit: 20 }, admin.token);
    const link = log.body.res.entries.find((entry: { action: string }) => entry.action === 'user.sso_link');
    expect(link.changes).toMatchObject({ via: { after: 'owner' } });
  });

  it('leaves a squatted email to the administrator: the squatter gains nothing, the person gets in', async () => {
    await app.close();
    app = await startApp(dialect, { ...ssoConfig(provider.issuer), allowSignup: true });
    admin = await signUpAdmin(app);
    // Anyone signs up with the boss's email and a password of their own: public sign-up makes a member only.
    const squat = await app.call('/user/api/signUpUser', {
      firstName: 'Not',
      lastName: 'Boss',
      email: 'boss@corp.example',
      password: 'squatter-pass-1',
      role: 'admin',
    });
    expect(squat).toMatchObject({ status: 403, body: { code: 'not_allowed' } });
    const member = await app.call('/user/api/signUpUser', {
      firstName: 'Not',
      lastName: 'Boss',
      email: 'boss@corp.example',
      password: 'squatter-pass-1',
    });
    expect(member.body.user.role).toBe('member');
    // The real boss signs in through the provider, whose groups make them an administrator: refused, nothing joined.
    provider.identities.set('boss', { email: 'boss@corp.example', email_verified: true, groups: ['tg-admins'] });
    expect(await ssoLanding(app, 'boss')).toBe('/signin?sso_error=link_required');
    const squatter = await app.call('/user/api/login', {
      user_email: 'boss@corp.example',
      user_password: 'squatter-pass-1',
    });
    expect(squatter.body.user.role).toBe('member');
    // The administrator sees both, dismisses the request and deletes the squatted account; the boss gets in.
    const [request] = (await app.call('/user/api/getIdentityRequests', {}, admin.token)).body.res;
    expect(request.account.userId).toBe(member.body.user.id);
    const byMember = await app.call(
      '/user/api/dismissIdentityRequest',
      { requestId: request.id },
      squatter.body.user.authToken,
    );
    expect(byMember.status).toBe(403);
    expect((await app.call('/user/api/dismissIdentityRequest', { requestId: request.id }, admin.token)).status).toBe(
      200,
    );
    expect((await app.call('/user/api/deleteUser', { UserId: member.body.user.id }, admin.token)).status).toBe(200);
    const boss = await ssoSignIn(app, 'boss');
    expect(boss).toMatchObject({ role: 'admin', email: 'boss@corp.example' });
    expect(boss.id).not.toBe(member.body.user.id);
    const log = await app.call('/user/api/getAuditLog', { start: 0, limit: 30 }, admin.token);
    expect(log.body.res.entries.map((entry: { action: string }) => entry.action)).toContain('user.sso_dismiss');
  });

  it('an administrator links a pending sign-in to the account it met', async () => {
    const dora = await createMember(app, admin, { email: 'dora@example.org', password: 'dora-password-1' });
    provider.identities.set('dora-sub', { email: 'dora@example.org', email_verified: true });
    expect(await ssoLanding(app, 'dora-sub')).toBe('/signin?sso_error=link_required');
    const [request] = (await app.call('/user/api/getIdentityRequests', {}, admin.token)).body.res;
    expect((await app.call('/user/api/linkIdentityRequest', { requestId: request.id }, dora.token)).status).toBe(403);
    const linked = await app.call('/user/api/linkIdentityRequest', { requestId: request.id }, admin.token);
    expect(linked).toMatchObject({ status: 200, body: { code: 'identity_linked' } });
    expect((await app.call('/user/api/linkIdentityRequest', { requestId: request.id }, admin.token)).status).toBe(404);
    expect((await ssoSignIn(app, 'dora-sub')).id).toBe(dora.id);
    // Dora's password still opens her account: she owns both.
    expect(
      (await app.call('/user/api/login', { user_email: 'dora@example.org', user_password: 'dora-password-1' })).status,
    ).toBe(200);
    const log = await app.call('/user/api/getAuditLog', { start: 0, limit: 20 }, admin.token);
    const link = log.body.res.entries.find((entry: { action: string }) => entry.action === 'user.sso_link');
    expect(link).toMatchObject({ actor: { id: admin.id }, changes: { via: { after: 'administrator' } } });
  });

  it('refuses a deleted account even though the provider says yes', async () => {
    provider.identities.set(`dave-${dialect}`, { email: 'dave@example.org', email_verified: true, given_name: 'Dave' });
    const dave = await ssoSignIn(app, `dave-${dialect}`);
    const deleted = await app.call('/user/api/deleteUser', { UserId: dave.id }, admin.token);
    expect(deleted.status).toBe(200);
    expect(await ssoLanding(app, `dave-${dialect}`)).toBe('/signin?sso_error=account_deleted');
    const users = await app.services.db.selectFrom('users').select('identifier').execute();
    expect(users.map((row) => row.identifier)).not.toContain('dave@example.org');
    // An administrator makes the account again: that alone links nothing, the administrator links the request.
    const remade = await createMember(app, admin, { email: 'dave@example.org' });
    expect(await ssoLanding(app, `dave-${dialect}`)).toBe('/signin?sso_error=link_required');
    const [request] = (await app.call('/user/api/getIdentityRequests', {}, admin.token)).body.res;
    expect((await app.call('/user/api/linkIdentityRequest', { requestId: request.id }, admin.token)).status).toBe(200);
    expect(await ssoSignIn(app, `dave-${dialect}`)).toMatchObject({ id: remade.id });
  });

  it('refuses a disabled account even though the provider says yes, and signs it in again once enabled', async () => {
    provider.identities.set(`erin-${dialect}`, { email: 'erin@example.org', email_verified: true, given_name: 'Erin' });
    const erin = await ssoSignIn(app, `erin-${dialect}`);
    // A code handed out before the account was disabled opens nothing either.
    const jar = new TalkJar();
    const pending = await ssoLanding(app, `erin-${dialect}`, { jar });
    const off = await app.call('/user/api/setUserDisabled', { userId: erin.id, disabled: true }, admin.token);
    expect(off.status).toBe(200);
    expect((await app.call('/user/api/getMyChannels', {}, erin.authToken)).status).toBe(401);
    expect(await finish(app, pending, jar)).toMatchObject({ status: 403, body: { code: 'account_disabled' } });
    expect(await ssoLanding(app, `erin-${dialect}`)).toBe('/signin?sso_error=account_disabled');
    const links = await app.services.db.selectFrom('identity_links').select('user_id').execute();
    expect(links.map((row) => row.user_id)).toContain(erin.id);

    expect(
      (await app.call('/user/api/setUserDisabled', { userId: erin.id, disabled: false }, admin.token)).status,
    ).toBe(200);
    expect(await ssoSignIn(app, `erin-${dialect}`)).toMatchObject({ id: erin.id });
  });

  it('refuses a wrong, a reused or another browser state, and lands a refusal at the provider on /signin', async () => {
    provider.identities.set('erin', { email: 'erin@example.org', email_verified: true });
    const first = await start(app);
    const back = await throughProvider(first.location, REDIRECT_URI, { sub: 'erin' });
    // Another browser (no state cookie) brings the provider's answer.
    expect(await callback(app, back, '')).toBe('/signin?sso_error=state');
    // The state changed on the way: refused, and the sign-in this browser started is over.
    const wrong = new URL(back);
    wrong.searchParams.set('state', 'forged-state');
    expect(await callback(app, wrong.href, first.cookie)).toBe('/signin?sso_error=state');
    expect(await callback(app, back, first.cookie)).toBe('/signin?sso_error=state');

    const second = await start(app);
    const good = await throughProvider(second.location, REDIRECT_URI, { sub: 'erin' });
    const landing = await callback(app, good, second.jar.header());
    expect((await finish(app, landing, second.jar)).status).toBe(200);
    // A state serves once.
    expect(await callback(app, good, second.cookie)).toBe('/signin?sso_error=state');

    expect(await ssoLanding(app, 'erin', { deny: true })).toBe('/signin?sso_error=denied');
  });

  it('asks the local second factor after a provider that does not say one was used, where the role needs one', async () => {
    await app.call('/user/api/setSecurityPolicy', { requireSecondFactor: ['admin', 'dispatcher'] }, admin.token);
    // No factor anywhere: the session reaches only the setup, as after a password.
    provider.identities.set('fay', {
      email: 'fay@example.org',
      email_verified: true,
      groups: ['tg-dispatch'],
      amr: ['pwd'],
    });
    const jar = new TalkJar();
    const first = await finish(app, await ssoLanding(app, 'fay', { jar }), jar);
    expect(first.body).toMatchObject({ success: true, secondFactorSetupRequired: true });
    const fay = first.body.user as { id: number; authToken: string };
    expect((await app.call('/user/api/getMyChannels', {}, fay.authToken)).body.code).toBe(
      'second_factor_setup_required',
    );
    const started = await app.call('/user/api/startTotpSetup', {}, fay.authToken);
    const secret = started.body.res.secret as string;
    const on = await app.call('/user/api/confirmTotpSetup', { code: await codeAt(secret) }, fay.authToken);
    expect(on.status).toBe(200);

    // With TOTP: the code waits for it (a wrong one is refused and counted), then opens the session.
    const again = new TalkJar();
    const landing = await ssoLanding(app, 'fay', { jar: again });
    expect(await finish(app, landing, again)).toMatchObject({ status: 401, body: { code: 'second_factor_required' } });
    expect(await finish(app, landing, again, { otp: '000000' })).toMatchObject({
      status: 401,
      body: { code: 'second_factor_wrong' },
    });
    const opened = await finish(app, landing, again, { otp: await codeAt(secret, 1) });
    expect(opened.status).toBe(200);
    expect(opened.body.secondFactorSetupRequired).toBeUndefined();

    // A provider that says it asked a second factor (amr "mfa", or OIDC_MFA_ACR) is enough.
    provider.identities.set('fay', { ...provider.identities.get('fay'), amr: ['pwd', 'mfa'] });
    const trusted = new TalkJar();
    expect((await finish(app, await ssoLanding(app, 'fay', { jar: trusted }), trusted)).status).toBe(200);
    await app.close();
    app = await startApp(dialect, ssoConfig(provider.issuer, { OIDC_MFA_AMR: 'none', OIDC_MFA_ACR: 'gold' }));
    admin = await signUpAdmin(app);
    await app.call('/user/api/setSecurityPolicy', { requireSecondFactor: ['dispatcher'] }, admin.token);
    provider.identities.set('gil', {
      email: 'gil@example.org',
      email_verified: true,
      groups: ['tg-dispatch'],
      amr: ['mfa'],
    });
    const silver = new TalkJar();
    expect(
      (await finish(app, await ssoLanding(app, 'gil', { jar: silver }), silver)).body.secondFactorSetupRequired,
    ).toBe(true);
    provider.identities.set('gil', { ...provider.identities.get('gil'), acr: 'gold' });
    const gold = new TalkJar();
    const goldAnswer = await finish(app, await ssoLanding(app, 'gil', { jar: gold }), gold);
    expect(goldAnswer).toMatchObject({ status: 200, body: { success: true } });
    expect(goldAnswer.body.secondFactorSetupRequired).toBeUndefined();
  });

  it('lets a single sign-on user confirm it is them through the provider, and remove its link once confirmed', async () => {
    provider.identities.set('hal', { email: 'hal@example.org', email_verified: true });
    const hal = await ssoSignIn(app, 'hal');
    // Signed in long enough ago: a sensitive change asks to confirm it is them first.
    await app.services.db.updateTable('sessions').set({ confirmed_at: null }).where('user_id', '=', hal.id).execute();
    const [link] = (await app.call('/user/api/getIdentityLinks', {}, hal.authToken)).body.res;
    const refused = await app.call('/user/api/unlinkIdentity', { linkId: link.id }, hal.authToken);
    expect(refused).toMatchObject({ status: 403, body: { code: 'confirm_identity' } });
    // Someone else's link is no link at all for a member.
    const other = await createMember(app, admin);
    expect((await app.call('/user/api/unlinkIdentity', { linkId: link.id }, other.token)).status).toBe(404);
    // Another identity at the provider proves nothing about Hal.
    provider.identities.set('ian', { email: 'ian@example.org', email_verified: true });
    expect(await sessionTrip(app, hal.authToken, 'confirm', 'ian', '/account')).toBe('/account?sso_error=not_linked');
    expect(await sessionTrip(app, hal.authToken, 'confirm', 'hal', '/account?tab=1')).toBe('/account?tab=1#confirmed');
    const unlinked = await app.call('/user/api/unlinkIdentity', { linkId: link.id }, hal.authToken);
    expect(unlinked).toMatchObject({ status: 200, body: { code: 'identity_unlinked' } });
    expect((await app.call('/user/api/getIdentityLinks', {}, hal.authToken)).body.res).toEqual([]);
    // Only a path of this site to come back to.
    const away = await app.call('/user/api/startOidcConfirm', { returnTo: '//evil.example' }, hal.authToken);
    expect(away.status).toBe(400);
  });

  it('with OIDC_LINK_BY_EMAIL links a member’s account by a verified email, and its other ways in end', async () => {
    await app.close();
    app = await startApp(dialect, ssoConfig(provider.issuer, { OIDC_LINK_BY_EMAIL: 'true' }));
    admin = await signUpAdmin(app);
    const joe = await createMember(app, admin, { email: 'joe@example.org', password: 'joe-password-1' });
    provider.identities.set('joe', { email: 'joe@example.org', email_verified: true });
    expect((await ssoSignIn(app, 'joe')).id).toBe(joe.id);
    // Whoever set the password (maybe not Joe) is out: the old session and the password no longer open it.
    expect((await app.call('/user/api/getMyChannels', {}, joe.token)).status).toBe(401);
    const old = await app.call('/user/api/login', { user_email: 'joe@example.org', user_password: 'joe-password-1' });
    expect(old.status).toBe(401);
    // Never for an administrator's account, nor for an identity the groups make an administrator.
    provider.identities.set('admin-twin', { email: 'admin@example.org', email_verified: true });
    expect(await ssoLanding(app, 'admin-twin')).toBe('/signin?sso_error=link_required');
    await createMember(app, admin, { email: 'kim@example.org' });
    provider.identities.set('kim', { email: 'kim@example.org', email_verified: true, groups: ['tg-admins'] });
    expect(await ssoLanding(app, 'kim')).toBe('/signin?sso_error=link_required');
    // Nor on an email the provider does not vouch for.
    await createMember(app, admin, { email: 'lea@example.org' });
    provider.identities.set('lea', { email: 'lea@example.org', email_verified: false });
    expect(await ssoLanding(app, 'lea')).toBe('/signin?sso_error=link_required');
  });

  it('with OIDC_ONLY hides the password form and answers a member’s right password as a wrong one', async () => {
    await app.close();
    app = await startApp(dialect, ssoConfig(provider.issuer, { OIDC_ONLY: 'true' }));
    admin = await signUpAdmin(app);
    const options = await app.call('/user/api/getSignInOptions');
    expect(options.body).toMatchObject({ sso: { name: 'Example ID' }, passwordSignIn: false });
    await expect(createMember(app, admin, { email: 'pat@example.org', password: 'pat-password-1' })).rejects.toThrow(
      /invalid_credentials/,
    );
    const right = await app.call('/user/api/login', { user_email: 'pat@example.org', user_password: 'pat-password-1' });
    const wrong = await app.call('/user/api/login', { user_email: 'pat@example.org', user_password: 'wrong-one' });
    expect(right).toMatchObject({ status: 401, body: { code: 'invalid_credentials' } });
    expect(right).toEqual(wrong);
  });
});
