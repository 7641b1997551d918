/**
 * The organisation's time zone (issue 50, reports' days and hours): the server's until an administrator sets
 * one on /settings; anyone signed in reads it; setting it is audited (settings.timeZone); a name this runtime
 * does not know is 400; a member may not set it; null goes back to the server's.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { serverTimeZone } from '../src/settings/store.ts';
import { type Account, createMember, databases, signUpAdmin, startApp, type TestApp } from './harness.ts';

describe.each(databases)('the organisation’s time zone on %s', (dialect) => {
  let app: TestApp;
  let admin: Account;
  let member: Account;

  beforeEach(async () => {
    app = await startApp(dialect);
    admin = await signUpAdmin(app);
    member = await createMember(app, admin);
  });
  afterEach(() => app.close());

  const get = (who: Account) => app.call('/user/api/getTimeZone', {}, who.token);
  const set = (timeZone: string | null, who: Account) => app.call('/user/api/setTimeZone', { timeZone }, who.token);
  /** A zone other than the server's, so that setting it shows. */
  const chosen = serverTimeZone() === 'Pacific/Auckland' ? 'Europe/Paris' : 'Pacific/Auckland';

  it('is the server’s until set, then the one set for everyone; audited; back to the server’s with null', async () => {
    const server = serverTimeZone();
    expect(server).toEqual(expect.any(String));
    const first = await get(member);
    expect(first.status).toBe(200);
    expect(first.body.res).toEqual({ timeZone: server, serverTimeZone: server, set: false });

    const saved = await set(chosen, admin);
    expect(saved.status).toBe(200);
    expect(saved.body.res).toEqual({ timeZone: chosen, serverTimeZone: server, set: true });
    expect((await get(member)).body.res).toEqual({ timeZone: chosen, serverTimeZone: server, set: true });
    expect(await app.services.settings.timeZone()).toBe(chosen);

    const audit = await app.services.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'settings.timeZone')
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor_id: admin.id, target_type: 'setting' });
    expect(audit[0].changes).toContain(chosen);

    const cleared = await set(null, admin);
    expect(cleared.body.res).toEqual({ timeZone: server, serverTimeZone: server, set: false });
    expect(await app.services.settings.timeZone()).toBeNull();
  });

  it('refuses a name that is no time zone, a member, and no token', async () => {
    for (const bad of ['Mars/Olympus_Mons', '', 'Europe/Paris; drop table settings'])
      expect((await set(bad, admin)).status).toBe(400);
    const bad = await set('Mars/Olympus_Mons', admin);
    expect(bad.body.result).toMatch(/timeZone/);
    expect((await set(chosen, member)).status).toBe(403);
    expect((await app.call('/user/api/getTimeZone', {})).status).toBe(401);
    expect((await get(admin)).body.res.set).toBe(false);
  });
});
