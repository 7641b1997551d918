/**
 * Where an account is signed in (issue 38): the list of one's sessions (browser and system read from the user
 * agent, address, how, when), this one marked; ending another one closes its sockets at once; an
 * administrator sees and ends a user's sessions; nobody else does; every end is audited.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeUserAgent } from '../src/auth/user-agent.ts';
import { type Account, createMember, databases, signUpAdmin, startApp, type TestApp } from './harness.ts';
import { connect, listen, type TestClient } from './realtime-harness.ts';

const ANDROID_CHROME =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';
const MAC_SAFARI =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15';

describe('describeUserAgent', () => {
  it('names the common browsers and systems, and nothing it does not know', () => {
    expect(describeUserAgent(ANDROID_CHROME)).toEqual({ browser: 'Chrome', system: 'Android' });
    expect(describeUserAgent(MAC_SAFARI)).toEqual({ browser: 'Safari', system: 'macOS' });
    expect(
      describeUserAgent(
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/131.0 Safari/537.36 Edg/131.0',
      ),
    ).toEqual({ browser: 'Edge', system: 'Windows' });
    expect(
      describeUserAgent('Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) FxiOS/128.0 Mobile/15E148'),
    ).toEqual({
      browser: 'Firefox',
      system: 'iOS',
    });
    expect(describeUserAgent('curl/8.5.0')).toEqual({ browser: '', system: '' });
    expect(describeUserAgent(null)).toEqual({ browser: '', system: '' });
  });
});

describe.each(databases)('sessions on %s', (dialect) => {
  let app: TestApp;
  let url: string;
  let admin: Account;
  let mia: Account;
  const clients: TestClient[] = [];

  const signInFrom = async (account: Account, userAgent: string, address: string) => {
    const login = await app.fastify.inject({
      method: 'POST',
      url: '/user/api/login',
      headers: { 'user-agent': userAgent },
      remoteAddress: address,
      payload: { user_email: account.identifier, user_password: account.password },
    });
    expect(login.statusCode).toBe(200);
    return login.json().user.authToken as string;
  };
  const sessionsOf = async (token: string, body: object = {}) => {
    const answer = await app.call('/user/api/getSessions', body, token);
    expect(answer.status).toBe(200);
    return answer.body.res as Array<Record<string, any>>;
  };

  beforeEach(async () => {
    app = await startApp(dialect);
    url = await listen(app);
    admin = await signUpAdmin(app);
    mia = await createMember(app, admin, { firstName: 'Mia', lastName: 'Field', password: 'memberpw' });
  });
  afterEach(async () => {
    for (const client of clients.splice(0)) client.close();
    await app.close();
  });

  it('lists where one is signed in, newest first, marking this session', async () => {
    const phone = await signInFrom(mia, ANDROID_CHROME, '203.0.113.7');
    const laptop = await signInFrom(mia, MAC_SAFARI, '198.51.100.4');
    const listed = await sessionsOf(laptop);
    expect(listed).toHaveLength(3); // createMember's own sign-in too
    expect(listed[0]).toMatchObject({
      browser: 'Safari',
      system: 'macOS',
      address: '198.51.100.4',
      method: 'password',
      current: true,
      userAgent: MAC_SAFARI,
    });
    expect(listed[1]).toMatchObject({ browser: 'Chrome', system: 'Android', address: '203.0.113.7', current: false });
    expect(Date.parse(listed[1].createdAt)).toBeLessThanOrEqual(Date.parse(listed[0].createdAt));
    expect((await sessionsOf(phone)).filter((s) => s.current).map((s) => s.address)).toEqual(['203.0.113.7']);
  });

  it('ends another session: its token stops working and its sockets hear it at once', async () => {
    const phone = await signInFrom(mia, ANDROID_CHROME, '203.0.113.7');
    const laptop = await signInFrom(mia, MAC_SAFARI, '198.51.100.4');
    const onPhone = await connect(url, phone);
    const onLaptop = await connect(url, laptop);
    clients.push(onPhone, onLaptop);
    const phoneSession = (await sessionsOf(laptop)).find((s) => s.address === '203.0.113.7');
    const ended = await app.call('/user/api/endSession', { sessionId: phoneSession?.id }, laptop);
    expect(ended.status).toBe(200);
    expect(ended.body.code).toBe('session_ended');
    expect(await onPhone.next('session_ended')).toMatchObject({ reason: 'ended' });
    expect((await app.call('/user/api/getMyChannels', {}, phone)).status).toBe(401);
    await onLaptop.flush();
    expect(onLaptop.socket.connected).toBe(true);
    expect((await sessionsOf(laptop)).map((s) => s.address)).not.toContain('203.0.113.7');
  });

  it('lets an administrator see and end a user’s sessions, and nobody else', async () => {
    const phone = await signInFrom(mia, ANDROID_CHROME, '203.0.113.7');
    const other = await createMember(app, admin, { firstName: 'Olaf' });
    const forbidden = await app.call('/user/api/getSessions', { userId: mia.id }, other.token);
    expect(forbidden.status).toBe(403);
    const miaSessions = await sessionsOf(admin.token, { userId: mia.id });
    expect(miaSessions.every((s) => !s.current)).toBe(true);
    const target = miaSessions.find((s) => s.address === '203.0.113.7');
    // Another member's session is as unknown as one that never existed.
    const refused = await app.call('/user/api/endSession', { sessionId: target?.id }, other.token);
    expect(refused.status).toBe(404);
    expect(refused.body.code).toBe('session_not_found');
    expect((await app.call('/user/api/getMyChannels', {}, phone)).status).toBe(200);

    expect((await app.call('/user/api/endSession', { sessionId: target?.id }, admin.token)).status).toBe(200);
    expect((await app.call('/user/api/getMyChannels', {}, phone)).status).toBe(401);
    expect((await app.call('/user/api/endSession', { sessionId: target?.id }, admin.token)).status).toBe(404);

    const entries = (await app.call('/user/api/getAuditLog', {}, admin.token)).body.res.entries;
    const end = entries.find((e: { action: string }) => e.action === 'session.end');
    expect(end).toMatchObject({ actor: { id: admin.id }, targetId: mia.id });
    expect(end.changes.sessions.after).toBe(end.changes.sessions.before - 1);
  });
});
