/**
 * Disabled accounts (issue 38): an administrator turns an account off without deleting it. Its sessions and
 * sockets end at once (`session_ended` with reason `disabled`), no password opens a session again (403
 * `account_disabled`, said only to whoever knows the password), the lists show it, the audit log keeps who did it;
 * turned on again, it signs in as before. Passkeys and single sign-on are refused too (passkeys.test.ts,
 * oidc.test.ts).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Account, createMember, databases, signIn, signUpAdmin, startApp, type TestApp } from './harness.ts';
import { connect, listen, refusal, type TestClient } from './realtime-harness.ts';

describe.each(databases)('disabled accounts on %s', (dialect) => {
  let app: TestApp;
  let url: string;
  let admin: Account;
  let mia: Account;
  const clients: TestClient[] = [];

  const setDisabled = (userId: number, disabled: boolean, token = admin.token) =>
    app.call('/user/api/setUserDisabled', { userId, disabled }, token);
  const login = (password: string, language = 'en') =>
    app.fastify.inject({
      method: 'POST',
      url: '/user/api/login',
      headers: { 'accept-language': language },
      payload: { user_email: mia.identifier, user_password: password },
    });
  const listed = async () => {
    const users = (await app.call('/user/api/getAllUsers', {}, admin.token)).body.res as Array<{
      id: number;
      disabled: boolean;
    }>;
    return users.find((user) => user.id === mia.id)?.disabled;
  };

  beforeEach(async () => {
    app = await startApp(dialect);
    url = await listen(app);
    admin = await signUpAdmin(app);
    mia = await createMember(app, admin, { firstName: 'Mia', lastName: 'Field', password: 'mia-password-1' });
  });
  afterEach(async () => {
    for (const client of clients.splice(0)) client.close();
    await app.close();
  });

  it('ends every session and socket at once, and opens none by password until it is enabled again', async () => {
    const phone = await signIn(app, mia.identifier, 'mia-password-1');
    const sockets = [await connect(url, mia.token), await connect(url, phone.token)];
    clients.push(...sockets);
    expect(await listed()).toBe(false);

    const off = await setDisabled(mia.id, true);
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ success: true, code: 'user_disabled' });
    for (const socket of sockets) {
      expect(await socket.next('session_ended')).toEqual({
        reason: 'disabled',
        message: 'Your account was disabled: ask your administrator.',
      });
      expect(await socket.next('disconnect')).toBe('io server disconnect');
    }
    for (const token of [mia.token, phone.token])
      expect((await app.call('/user/api/getMyChannels', {}, token)).status).toBe(401);
    const rows = await app.services.db.selectFrom('sessions').select('id').where('user_id', '=', mia.id).execute();
    expect(rows).toEqual([]);
    expect(await listed()).toBe(true);

    // The right password: refused with a sentence, in the reader's language, and no token.
    const refused = await login('mia-password-1', 'fr');
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({
      success: false,
      code: 'account_disabled',
      result: 'Ce compte est désactivé : contactez votre administrateur.',
    });
    // A wrong one: the same answer as for anyone, nothing said about the account.
    const wrong = await login('not-her-password');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toMatchObject({ code: 'invalid_credentials' });
    // Its old token opens no socket either.
    expect(await refusal(url, mia.token)).toMatch(/\w/);

    const on = await setDisabled(mia.id, false);
    expect(on.body).toMatchObject({ success: true, code: 'user_enabled' });
    expect(await listed()).toBe(false);
    const again = await login('mia-password-1');
    expect(again.statusCode).toBe(200);
    expect((await app.call('/user/api/getMyChannels', {}, again.json().user.authToken)).status).toBe(200);
  });

  it('is an administrator’s act on someone else, audited; nobody disables their own account', async () => {
    expect(await setDisabled(admin.id, true)).toMatchObject({ status: 409, body: { code: 'cannot_disable_self' } });
    expect((await setDisabled(mia.id, true, mia.token)).status).toBe(403);
    expect(await setDisabled(999_999, true)).toMatchObject({ status: 404, body: { code: 'user_not_found' } });
    expect((await setDisabled(mia.id, 'yes' as never)).status).toBe(400);

    expect((await setDisabled(mia.id, true)).status).toBe(200);
    const [entry] = (await app.call('/user/api/getAuditLog', {}, admin.token)).body.res.entries;
    expect(entry).toMatchObject({
      actor: { id: admin.id },
      action: 'user.disable',
      targetType: 'user',
      targetId: mia.id,
      changes: { disabled: { before: false, after: true } },
    });
  });
});
