import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type Account,
  createMember,
  databases,
  expectNoSecrets,
  signIn,
  signUpAdmin,
  startApp,
  type TestApp,
} from './harness.ts';

describe.each(databases)('accounts on %s', (dialect) => {
  let app: TestApp;
  beforeEach(async () => {
    app = await startApp(dialect);
  });
  afterEach(async () => {
    await app.close();
  });

  it('makes the first sign-up the administrator and refuses public sign-up afterwards', async () => {
    const first = await app.call('/user/api/signUpUser', {
      firstName: 'Ada',
      lastName: 'Admin',
      email: 'Ada@Example.org',
      password: 'admin-secret-1',
      phone_number: '',
    });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ success: true, result: 'Register successfully', user: { role: 'admin' } });
    expect(first.body.user.id).toEqual(expect.any(Number));
    expect(first.body.user.identifier).toBe('ada@example.org');
    expectNoSecrets(first.body);

    const second = await app.call('/user/api/signUpUser', {
      firstName: 'Eve',
      lastName: 'Outsider',
      email: 'eve@example.org',
      password: 'second-secret-2',
    });
    expect(second.status).toBe(403);
    expect(second.body).toEqual({
      success: false,
      result: expect.stringMatching(/sign-up is closed/i),
      code: 'signup_closed',
    });
  });

  it('lets public sign-up create members when ALLOW_SIGNUP is true', async () => {
    await app.close();
    app = await startApp(dialect, { allowSignup: true });
    await signUpAdmin(app);
    const member = await app.call('/user/api/signUpUser', {
      firstName: 'Eve',
      lastName: 'Member',
      email: 'eve@example.org',
      password: 'second-secret-2',
    });
    expect(member.status).toBe(200);
    expect(member.body.user.role).toBe('member');
  });

  it('limits the public sign-ups of one address (issue 47), not an administrator’s creations', async () => {
    await app.close();
    app = await startApp(dialect, { allowSignup: true });
    const admin = await signUpAdmin(app);
    const signUp = (address: string, token?: string) =>
      app.fastify.inject({
        method: 'POST',
        url: '/user/api/signUpUser',
        remoteAddress: address,
        headers: { 'accept-language': 'en', ...(token ? { 'x-access-token': token } : {}) },
        // An existing login: each try is counted without hashing a password.
        payload: { firstName: 'Eve', lastName: 'Again', email: 'admin@example.org', password: 'second-secret-2' },
      });
    for (let i = 0; i < 30; i++) expect((await signUp('198.51.100.7')).statusCode).toBe(409);
    const refused = await signUp('198.51.100.7');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: 'too_many_sign_ups', params: { seconds: expect.any(Number) } });
    expect((await signUp('198.51.100.8')).statusCode).toBe(409);
    expect((await signUp('198.51.100.7', admin.token)).statusCode).toBe(409);
  });

  it('creates a member with pseudo and mapRight when an administrator signs the user up', async () => {
    const admin = await signUpAdmin(app);
    const created = await app.call(
      '/user/api/signUpUser',
      {
        firstName: 'Bob',
        lastName: 'Radio',
        email: 'bob@example.org',
        password: 'member-password-1',
        pseudo: 'bobby',
        mapRight: true,
      },
      admin.token,
    );
    expect(created.status).toBe(200);
    expect(created.body.user).toMatchObject({
      role: 'member',
      pseudo: 'bobby',
      mapRight: true,
      identifier: 'bob@example.org',
    });
    const defaults = await app.call(
      '/user/api/signUpUser',
      { firstName: 'Cy', lastName: 'Radio', email: 'cy@example.org', password: 'member-password-1' },
      admin.token,
    );
    expect(defaults.body.user.mapRight).toBe(false);
    const duplicate = await app.call(
      '/user/api/signUpUser',
      { firstName: 'Bob', lastName: 'Again', email: 'BOB@example.org', password: 'member-password-1' },
      admin.token,
    );
    expect(duplicate.status).toBe(409);
  });

  it('rejects a sign-up with a login that is not an e-mail, naming the field', async () => {
    const response = await app.call('/user/api/signUpUser', {
      firstName: 'A',
      lastName: 'B',
      email: 'nope',
      password: 'x',
    });
    expect(response.status).toBe(400);
    expect(response.body.success).toBe(false);
    expect(response.body.result).toMatch(/email/);
  });

  it('signs in with the right password and answers the same for an unknown login and a wrong password', async () => {
    await signUpAdmin(app, 'admin@example.org', 'admin-secret-1');
    const ok = await app.call('/user/api/login', { user_email: 'admin@example.org', user_password: 'admin-secret-1' });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({
      success: true,
      user: { identifier: 'admin@example.org', firstName: 'Ada', lastName: 'Admin' },
    });
    expect(ok.body.user.authToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expectNoSecrets(ok.body);

    const wrong = await app.call('/user/api/login', { user_email: 'admin@example.org', user_password: 'nope' });
    const unknown = await app.call('/user/api/login', { user_email: 'ghost@example.org', user_password: 'nope' });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(wrong.status);
    expect(unknown.body).toEqual(wrong.body);
  });

  it('limits sign-in attempts per address and login with 429', async () => {
    await signUpAdmin(app);
    const statuses: number[] = [];
    for (let i = 0; i < 12; i += 1) {
      statuses.push(
        (await app.call('/user/api/login', { user_email: 'admin@example.org', user_password: 'bad' })).status,
      );
    }
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    const limited = await app.call('/user/api/login', {
      user_email: 'admin@example.org',
      user_password: 'admin-secret-1',
    });
    expect(limited.status).toBe(429);
    expect(limited.body.result).toMatch(/too many/i);
  });

  it('records login and logout activities and revokes the token used at logout', async () => {
    const admin = await signUpAdmin(app);
    const other = await signIn(app, admin.identifier, admin.password);
    expect((await app.call('/user/api/isValidToken', { token: admin.token })).body.success).toBe(true);

    const logout = await app.call('/user/api/logout', { userId: admin.id }, admin.token);
    expect(logout.status).toBe(200);
    const check = await app.call('/user/api/isValidToken', { token: admin.token });
    expect(check.status).toBe(401);
    expect(check.body.success).toBe(false);
    expect((await app.call('/user/api/getAllUsers', {}, admin.token)).status).toBe(401);
    // The other device keeps its session.
    expect((await app.call('/user/api/getAllUsers', {}, other.token)).status).toBe(200);

    const types = (await app.services.activities.latest(10)).map((a) => a.type);
    expect(types.filter((t) => t === 'login')).toHaveLength(2);
    expect(types).toContain('logout');
  });

  it('disconnects a user from all devices with deleteUserTokens/', async () => {
    const admin = await signUpAdmin(app);
    const member = await createMember(app, admin);
    const memberPhone = await signIn(app, member.identifier, member.password);
    const response = await app.call('/user/api/deleteUserTokens/', { userId: member.id }, admin.token);
    expect(response.body).toMatchObject({ success: true });
    for (const token of [member.token, memberPhone.token]) {
      expect((await app.call('/user/api/isValidToken', { token })).status).toBe(401);
    }
    expect((await app.call('/user/api/isValidToken', { token: admin.token })).status).toBe(200);
  });

  it('stores tokens and passwords only as hashes', async () => {
    const admin = await signUpAdmin(app, 'admin@example.org', 'admin-secret-1');
    const session = await app.services.db.selectFrom('sessions').selectAll().executeTakeFirstOrThrow();
    expect(session.token_hash).not.toContain(admin.token);
    expect(session.token_hash).toMatch(/^[0-9a-f]{64}$/);
    const user = await app.services.db.selectFrom('users').selectAll().executeTakeFirstOrThrow();
    expect(user.password_hash).toMatch(/^scrypt\$/);
    expect(user.password_hash).not.toContain('admin-secret-1');
  });

  it('refuses an expired token', async () => {
    const admin = await signUpAdmin(app);
    await app.services.db
      .updateTable('sessions')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .execute();
    expect((await app.call('/user/api/getAllUsers', {}, admin.token)).status).toBe(401);
  });

  it('answers /health with the database state', async () => {
    const response = await app.fastify.inject({ method: 'GET', url: '/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true, database: { dialect, ok: true } });
  });

  it('answers 400 to malformed JSON and wrong types, never 5xx', async () => {
    const malformed = await app.fastify.inject({
      method: 'POST',
      url: '/user/api/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"user_email": ',
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual({ success: false, result: 'The body is not valid JSON.', code: 'invalid_json' });
    const wrongType = await app.call('/user/api/login', { user_email: 42, user_password: ['x'] });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.result).toMatch(/user_email/);
    const admin: Account = await signUpAdmin(app);
    const badId = await app.call('/user/api/getUserById/', { userId: 'abc' }, admin.token);
    expect(badId.status).toBe(400);
    expect(badId.body.result).toMatch(/userId/);
  });

  it('answers 413 to a body over the limit', async () => {
    const response = await app.fastify.inject({
      method: 'POST',
      url: '/user/api/login',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ user_email: 'a@b.co', user_password: 'x'.repeat(9 * 1024 * 1024) }),
    });
    expect(response.statusCode).toBe(413);
    expect(response.json().success).toBe(false);
  });
});
