/**
 * Passwords and sessions: the rule for new passwords (length, common ones), today's scrypt figures with old
 * hashes upgraded at sign-in, a change of one's own password asking the current one and ending the other
 * sessions, and sessions that end when idle or too old.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes, scrypt } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { needsRehash, OWASP_FIGURES, setScryptFiguresForTests, verifyPassword } from '../src/auth/passwords.ts';
import { ConfigError, loadConfig } from '../src/config/config.ts';
import { type Account, createMember, databases, signIn, signUpAdmin, startApp, type TestApp } from './harness.ts';
import { TEST_FIGURES } from './setup-figures.ts';

// The other tests hash with cheap figures (setup-figures.ts); the two that check the figures use OWASP's.

it("hashes with OWASP's figures in a server process, where nothing changes them", () => {
  const module = new URL('../src/auth/passwords.ts', import.meta.url).pathname;
  const hash = execFileSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `const m = await import(${JSON.stringify(module)}); console.log(await m.hashPassword('x'));`,
    ],
    { encoding: 'utf8' },
  ).trim();
  expect(hash).toMatch(/^scrypt\$16384\$8\$5\$/);
  expect(OWASP_FIGURES).toEqual({ N: 16384, r: 8, p: 5 });
});

/** A hash as the previous release wrote it (scrypt N=16384, r=8, p=1). */
function oldHash(password: string): Promise<string> {
  const salt = randomBytes(16);
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, 32, { N: 16384, r: 8, p: 1 }, (error, key) =>
      error
        ? reject(error)
        : resolve(['scrypt', 16384, 8, 1, salt.toString('base64'), key.toString('base64')].join('$')),
    ),
  );
}

describe.each(databases)('passwords and sessions on %s', (dialect) => {
  let app: TestApp;
  let admin: Account;

  beforeEach(async () => {
    app = await startApp(dialect);
    admin = await signUpAdmin(app);
  });
  afterEach(async () => {
    await app.close();
  });

  const hashOf = async (id: number) =>
    (await app.services.db.selectFrom('users').select('password_hash').where('id', '=', id).executeTakeFirstOrThrow())
      .password_hash;

  it.each([
    ['a', /at least 8 characters/],
    ['        ', /too common/],
    ['Password1', /too common/],
    ['azerty123', /too common/],
    ['aaaaaaaaaaaa', /too common/],
  ])('refuses the new password %j with a clear 400', async (password, message) => {
    const created = await app.call(
      '/user/api/signUpUser',
      { firstName: 'Weak', lastName: 'Pw', email: `weak-${randomBytes(3).toString('hex')}@example.org`, password },
      admin.token,
    );
    expect(created.status).toBe(400);
    expect(created.body).toMatchObject({ success: false, result: expect.stringMatching(message) });
    const french = await app.fastify.inject({
      method: 'POST',
      url: '/user/api/signUpUser',
      headers: { 'x-access-token': admin.token, 'accept-language': 'fr' },
      payload: { firstName: 'Weak', lastName: 'Pw', email: 'weak-fr@example.org', password },
    });
    expect(french.json().result).toMatch(/mot de passe/i);
  });

  it('accepts a long passphrase (no maximum below 64) and applies the rule to new passwords only', async () => {
    const passphrase = 'correct horse battery staple '.repeat(4);
    const mia = await createMember(app, admin, { password: passphrase });
    expect(mia.token).toBeTruthy();
    // An existing weak password still signs in: the rule is for new ones.
    await app.services.users.setPasswordHash(mia.id, await oldHash('pw'));
    expect((await signIn(app, mia.identifier, 'pw')).token).toBeTruthy();
    const edit = await app.call(
      '/user/api/updateUserData',
      { id: mia.id, firstName: 'Mia', lastName: 'M', password: 'short' },
      admin.token,
    );
    expect(edit.status).toBe(400);
    const imported = await app.call(
      '/user/api/createMultipleUsers',
      {
        userData: [
          {
            firstName: 'A',
            lastName: 'B',
            identifier: 'weak-import@example.org',
            pseudo: 'w',
            password: '12345678',
            mapRight: 'vrai',
          },
          {
            firstName: 'C',
            lastName: 'D',
            identifier: 'good-import@example.org',
            pseudo: 'g',
            password: 'a-good-one-42',
            mapRight: 'faux',
          },
        ],
      },
      admin.token,
    );
    expect(imported.status).toBe(200);
    expect(imported.body.createdUsers.added.map((u: { identifier: string }) => u.identifier)).toEqual([
      'good-import@example.org',
    ]);
    expect(imported.body.createdUsers.notAdded.map((u: { identifier: string }) => u.identifier)).toEqual([
      'weak-import@example.org',
    ]);
  });

  it("hashes with today's scrypt figures and upgrades an old hash at the next successful sign-in", async () => {
    setScryptFiguresForTests(OWASP_FIGURES);
    onTestFinished(() => setScryptFiguresForTests(TEST_FIGURES));
    const mia = await createMember(app, admin, { password: 'mia-password-1' });
    expect(needsRehash(await hashOf(mia.id))).toBe(false);
    expect(await hashOf(mia.id)).toMatch(/^scrypt\$16384\$8\$5\$/);
    // An account hashed with other figures (the suite's cheap ones, here) is due for a new hash.
    expect(needsRehash(await hashOf(admin.id))).toBe(true);
    await app.services.users.setPasswordHash(mia.id, await oldHash('mia-password-1'));
    expect((await app.call('/user/api/login', { user_email: mia.identifier, user_password: 'wrong-one' })).status).toBe(
      401,
    );
    expect(needsRehash(await hashOf(mia.id))).toBe(true);
    await signIn(app, mia.identifier, 'mia-password-1');
    const upgraded = await hashOf(mia.id);
    expect(upgraded).toMatch(/^scrypt\$16384\$8\$5\$/);
    expect(await verifyPassword('mia-password-1', upgraded)).toBe(true);
    expect((await signIn(app, mia.identifier, 'mia-password-1')).token).toBeTruthy();
  });

  it('asks the current password to change one’s own, and ends the other sessions only', async () => {
    const mia = await createMember(app, admin, { password: 'mia-password-1' });
    const phone = await signIn(app, mia.identifier, 'mia-password-1');
    const change = (body: object) => app.call('/user/api/updatePasswordUser', { id: mia.id, ...body }, mia.token);

    const without = await change({ password: 'a-new-secret-7' });
    expect(without).toMatchObject({ status: 400, body: { result: expect.stringMatching(/current password/) } });
    const wrong = await change({ password: 'a-new-secret-7', currentPassword: 'not-mine-at-all' });
    expect(wrong).toMatchObject({ status: 400, body: { result: expect.stringMatching(/current password is wrong/) } });
    expect((await change({ password: 'short', currentPassword: 'mia-password-1' })).status).toBe(400);

    const done = await change({ password: 'a-new-secret-7', currentPassword: 'mia-password-1' });
    expect(done.status).toBe(200);
    expect((await app.call('/user/api/isValidToken', { token: mia.token })).status).toBe(200);
    expect((await app.call('/user/api/isValidToken', { token: phone.token })).status).toBe(401);
    await signIn(app, mia.identifier, 'a-new-secret-7');

    // The administrator changing its own password through the edit form gives its current one too.
    const own = { id: admin.id, firstName: 'Ada', lastName: 'Admin', password: 'admin-secret-2' };
    expect((await app.call('/user/api/updateUserData', own, admin.token)).status).toBe(400);
    const ok = await app.call('/user/api/updateUserData', { ...own, currentPassword: admin.password }, admin.token);
    expect(ok.status).toBe(200);
    // ...and needs none for someone else's, which ends all of that user's sessions.
    const reset = await app.call(
      '/user/api/updatePasswordUser',
      { id: mia.id, password: 'reset-by-admin-3' },
      admin.token,
    );
    expect(reset.status).toBe(200);
    expect((await app.call('/user/api/isValidToken', { token: mia.token })).status).toBe(401);
  });

  it('ends a session left idle longer than SESSION_IDLE_HOURS, and one older than its lifetime', async () => {
    const mia = await createMember(app, admin);
    const other = await signIn(app, mia.identifier, mia.password);
    const longAgo = new Date(Date.now() - app.config.sessionIdleMs - 60_000).toISOString();
    await app.services.db
      .updateTable('sessions')
      .set({ last_seen_at: longAgo, created_at: longAgo })
      .where('user_id', '=', mia.id)
      .where('id', '=', (await app.services.sessions.resolve(mia.token))?.sessionId ?? -1)
      .execute();
    expect((await app.call('/user/api/isValidToken', { token: mia.token })).status).toBe(401);
    expect((await app.call('/user/api/isValidToken', { token: other.token })).status).toBe(200);

    await app.services.db
      .updateTable('sessions')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('user_id', '=', mia.id)
      .execute();
    expect((await app.call('/user/api/isValidToken', { token: other.token })).status).toBe(401);
  });

  it('keeps a session in use alive past the idle timeout', async () => {
    const mia = await createMember(app, admin);
    const owner = await app.services.sessions.resolve(mia.token);
    const nearlyIdle = new Date(Date.now() - app.config.sessionIdleMs + 120_000).toISOString();
    await app.services.db
      .updateTable('sessions')
      .set({ last_seen_at: nearlyIdle })
      .where('id', '=', owner?.sessionId ?? -1)
      .execute();
    expect((await app.call('/user/api/isValidToken', { token: mia.token })).status).toBe(200);
    const row = await app.services.db
      .selectFrom('sessions')
      .select('last_seen_at')
      .where('id', '=', owner?.sessionId ?? -1)
      .executeTakeFirstOrThrow();
    expect(Date.parse(String(row.last_seen_at))).toBeGreaterThan(Date.parse(nearlyIdle));
  });
});

describe('password and session settings', () => {
  it('reads PASSWORD_MIN_LENGTH (8 to 64) and SESSION_IDLE_HOURS', () => {
    expect(loadConfig({}).passwordMinLength).toBe(8);
    expect(loadConfig({ PASSWORD_MIN_LENGTH: '12' }).passwordMinLength).toBe(12);
    expect(() => loadConfig({ PASSWORD_MIN_LENGTH: '4' })).toThrow(ConfigError);
    expect(loadConfig({ SESSION_IDLE_HOURS: '2' }).sessionIdleMs).toBe(2 * 3600_000);
    expect(() => loadConfig({ SESSION_IDLE_HOURS: 'soon' })).toThrow(/SESSION_IDLE_HOURS/);
  });
});
