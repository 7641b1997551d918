/**
 * Who takes a functional alias (issue 69 item 7): each alias names the roles that may take it by themselves
 * (`takeRoles`, dispatchers and administrators unless the administrator says otherwise), set by createAlias and
 * updateAlias and given by getAliases. A take by another role is refused (403 `alias_role_not_allowed`), giving
 * it to oneself with assignAlias too; taking and giving back are audited (`alias.take`, `alias.release`); a field
 * updateAlias does not know is a 400 naming it.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Account, databases, type TestApp } from './harness.ts';
import { privateCallCast } from './private-call-cast.ts';

describe.each(databases)('who takes an alias on %s', (dialect) => {
  let app: TestApp;
  let admin: Account;
  let desk: Account;
  let mia: Account;

  const create = (body: unknown) => app.call('/user/api/createAlias', body, admin.token);
  const update = (body: unknown) => app.call('/user/api/updateAlias', body, admin.token);
  const take = (aliasId: number, by: Account) => app.call('/user/api/takeAlias', { aliasId }, by.token);
  const release = (aliasId: number, by: Account) => app.call('/user/api/releaseAlias', { aliasId }, by.token);
  const auditOf = async (aliasId: number) =>
    (await app.call('/user/api/getAuditLog', { targetType: 'alias' }, admin.token)).body.res.entries.filter(
      (entry: { targetId: number; action: string }) => entry.targetId === aliasId && entry.action !== 'alias.create',
    );

  beforeEach(async () => {
    ({ app, admin, desk, mia } = await privateCallCast(dialect));
  });
  afterEach(async () => {
    await app.close();
  });

  it('lets the desk take a new alias, and refuses a member with a sentence of its own', async () => {
    const created = await create({ name: 'Chef de quart' });
    expect(created.body.res.takeRoles).toEqual(['dispatcher', 'admin']);
    const aliasId = created.body.res.id;

    const refused = await take(aliasId, mia);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ success: false, code: 'alias_role_not_allowed' });
    expect(refused.body.result).toBe('Your role may not take "Chef de quart": an administrator chooses who may.');
    // Giving it to oneself is a take: the same rule.
    const assigned = await app.call('/user/api/assignAlias', { aliasId, userId: desk.id }, desk.token);
    expect(assigned.status).toBe(200);
    const [listed] = (await app.call('/user/api/getAliases', {}, mia.token)).body.res;
    expect(listed).toMatchObject({ takeRoles: ['dispatcher', 'admin'], holders: [{ userId: desk.id }] });
    expect((await take(9999, mia)).status).toBe(404);

    // The administrator lets members take it; an assignment by a dispatcher is not bound by the roles.
    const widened = await update({ aliasId, takeRoles: ['member', 'dispatcher'], maxHolders: 3 });
    expect(widened.status).toBe(200);
    expect(widened.body.res.takeRoles).toEqual(['member', 'dispatcher']);
    expect((await take(aliasId, mia)).status).toBe(200);
    expect((await take(aliasId, admin)).body.code).toBe('alias_role_not_allowed');
    const narrowed = await update({ aliasId, takeRoles: [] });
    expect(narrowed.body.res).toMatchObject({ takeRoles: [], holders: [{ userId: desk.id }, { userId: mia.id }] });
    // Those who hold it keep it, and give it back when they wish; taking it again is a take like any other.
    expect((await take(aliasId, desk)).body.code).toBe('alias_role_not_allowed');
    const deskGone = await release(aliasId, desk);
    expect(deskGone.status).toBe(200);
    expect(deskGone.body.res.holders).toEqual([expect.objectContaining({ userId: mia.id })]);
  });

  it('audits a take and a give back, with who holds it before and after', async () => {
    const aliasId = (await create({ name: 'Secouriste', maxHolders: 2, takeRoles: ['member'] })).body.res.id;
    expect((await take(aliasId, mia)).status).toBe(200);
    expect((await release(aliasId, mia)).status).toBe(200);
    expect((await take(aliasId, desk)).status).toBe(403);
    const log = await auditOf(aliasId);
    expect(log).toEqual([
      expect.objectContaining({
        action: 'alias.release',
        actor: expect.objectContaining({ id: mia.id }),
        targetName: 'Secouriste',
        changes: { holders: { before: [mia.id], after: [] } },
      }),
      expect.objectContaining({
        action: 'alias.take',
        actor: expect.objectContaining({ id: mia.id }),
        changes: { holders: { before: [], after: [mia.id] } },
      }),
    ]);
  });

  it('refuses a bad takeRoles and a field updateAlias does not know with a 400 naming it', async () => {
    const aliasId = (await create({ name: 'Logisticien' })).body.res.id;
    for (const body of [
      { aliasId, colour: 'red' },
      { aliasId, name: 'Logistique', holders: [] },
      { aliasId, takeRoles: ['member', 'member'] },
      { aliasId, takeRoles: ['auditor'] },
      { aliasId, takeRoles: 'member' },
    ]) {
      const answer = await update(body);
      expect({ body, status: answer.status }).toEqual({ body, status: 400 });
      expect(answer.body.success).toBe(false);
    }
    expect((await update({ aliasId, colour: 'red' })).body.result).toMatch(/colour/);
    expect((await update({ aliasId, takeRoles: ['member', 'member'] })).body.result).toMatch(/^takeRoles/);
    expect((await create({ name: 'Bad', takeRoles: ['root'] })).status).toBe(400);
    // Nothing to change is no change, not an error.
    const nothing = await update({ aliasId });
    expect(nothing.status).toBe(200);
    expect(nothing.body.res).toMatchObject({ name: 'Logisticien', maxHolders: 1, takeRoles: ['dispatcher', 'admin'] });
    expect(await auditOf(aliasId)).toEqual([expect.objectContaining({ action: 'alias.update', changes: null })]);
  });
});
