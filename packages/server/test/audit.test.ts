/**
 * The audit log: every privileged change, whoever makes it (an administrator, a member changing its own
 * password), writes one row in the change's transaction (actor, action, target, changed fields, never a
 * password, address, request id); a refused change writes none; deleteOldActivities never prunes it;
 * getAuditLog filters and is for administrators only.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Account, createMember, databases, signUpAdmin, startApp, type TestApp } from './harness.ts';

describe.each(databases)('audit log on %s', (dialect) => {
  let app: TestApp;
  let admin: Account;

  beforeEach(async () => {
    app = await startApp(dialect);
    admin = await signUpAdmin(app);
  });
  afterEach(async () => {
    await app.close();
  });

  const log = async (body: object = {}) => {
    const answer = await app.call('/user/api/getAuditLog', body, admin.token);
    expect(answer.status).toBe(200);
    return answer.body.res as { entries: any[]; totalRecords: number; names: any };
  };

  it('records who changed what on a user, with the changed fields before and after and never a password', async () => {
    const mia = await createMember(app, admin, { firstName: 'Mia', password: 'mia-password-1' });
    const edit = await app.fastify.inject({
      method: 'POST',
      url: '/user/api/updateUserData',
      headers: { 'x-access-token': admin.token },
      remoteAddress: '198.51.100.23',
      payload: { id: mia.id, firstName: 'Mina', lastName: 'M', password: 'another-secret-9', mapRight: true },
    });
    expect(edit.statusCode).toBe(200);
    const [update, create] = (await log()).entries;
    expect(create).toMatchObject({
      actor: { id: admin.id, name: 'Ada Admin' },
      action: 'user.create',
      targetType: 'user',
      targetId: mia.id,
    });
    expect(update).toMatchObject({
      action: 'user.update',
      targetId: mia.id,
      targetName: expect.any(String),
      address: '198.51.100.23',
      requestId: expect.stringMatching(/\w/),
      changes: {
        firstName: { before: 'Mia', after: 'Mina' },
        mapRight: { before: false, after: true },
        passwordChanged: { before: null, after: true },
      },
    });
    const text = JSON.stringify(await log());
    expect(text).not.toMatch(/scrypt|another-secret-9|mia-password-1/);
  });

  it('writes the row in the transaction of the change: a refused change leaves neither', async () => {
    const mia = await createMember(app, admin);
    const before = (await log()).totalRecords;
    const refused = await app.call(
      '/user/api/updateUserData',
      { id: mia.id, firstName: 'X', lastName: 'Y', password: 'short' },
      admin.token,
    );
    expect(refused.status).toBe(400);
    const taken = await app.call('/user/api/createChannel', { channelName: 'Alpha' }, admin.token);
    expect(taken.status).toBe(200);
    expect((await app.call('/user/api/createChannel', { channelName: 'Alpha' }, admin.token)).status).toBe(409);
    const after = await log();
    expect(after.totalRecords).toBe(before + 1);
    expect(after.entries[0]).toMatchObject({ action: 'channel.create', targetName: 'Alpha' });
  });

  it('records channels, memberships, disconnections, deletions and activity deletion; filters by actor and target', async () => {
    const mia = await createMember(app, admin);
    const channel = (await app.call('/user/api/createChannel', { channelName: 'Ops' }, admin.token)).body.res;
    await app.call('/user/api/updateChannel', { channelId: channel.id, channelName: 'Ops 2' }, admin.token);
    await app.call('/user/api/addUserToChannel', { userId: mia.id, channelId: channel.id }, admin.token);
    await app.call('/user/api/deleteUserTokens/', { userId: mia.id }, admin.token);
    await app.call('/user/api/deleteOldActivities', { timeFrame: '1w' }, admin.token);
    await app.call('/user/api/deleteUser', { UserId: mia.id }, admin.token);
    await app.call('/user/api/deleteChannel', { channelId: channel.id }, admin.token);

    const actions = (await log()).entries.map((e) => e.action);
    expect(actions).toEqual([
      'channel.delete',
      'user.delete',
      'activity.delete',
      'user.disconnect',
      'membership.add',
      'channel.update',
      'channel.create',
      'user.create',
    ]);
    const entries = (await log()).entries;
    expect(entries.find((e) => e.action === 'channel.update').changes).toEqual({
      name: { before: 'Ops', after: 'Ops 2' },
    });
    expect(entries.find((e) => e.action === 'membership.add').changes).toEqual({
      members: { before: [], after: [mia.id] },
    });
    expect(entries.find((e) => e.action === 'user.delete')).toMatchObject({
      targetId: mia.id,
      targetName: expect.any(String),
    });

    const channelsOnly = await log({ targetType: 'channel' });
    expect(channelsOnly.entries.every((e) => e.targetType === 'channel')).toBe(true);
    expect(channelsOnly.totalRecords).toBe(4);
    expect((await log({ actorId: admin.id, limit: 2 })).entries).toHaveLength(2);
    expect((await log({ actorId: mia.id })).totalRecords).toBe(0);
  });

  it('names the users and channels whose ids its changes hold (issue 70), a gone one left out', async () => {
    const mia = await createMember(app, admin, { firstName: 'Mia', lastName: 'Roux' });
    const leo = await createMember(app, admin, { firstName: 'Léo', lastName: 'Garnier' });
    const channel = (await app.call('/user/api/createChannel', { channelName: 'Chantier Nord' }, admin.token)).body.res;
    await app.call('/user/api/addUserToChannel', { userId: mia.id, channelId: channel.id }, admin.token);
    await app.call('/user/api/addUserToChannel', { userId: leo.id, channelId: channel.id }, admin.token);
    await app.call('/user/api/deleteUser', { UserId: leo.id }, admin.token);
    const { entries, names } = await log();
    expect(entries.find((e) => e.action === 'membership.add').changes.members.after).toEqual([mia.id, leo.id]);
    expect(names.users).toEqual({ [String(mia.id)]: expect.stringMatching(/Mia/) });
    expect(names.channels).toEqual({ [String(channel.id)]: 'Chantier Nord' });
  });

  it('is never pruned by deleteOldActivities, is written for a member acting on itself, and is read by administrators only', async () => {
    const mia = await createMember(app, admin, { password: 'mia-password-1' });
    const count = (await log()).totalRecords;
    await app.services.db
      .updateTable('audit_log')
      .set({ created_at: new Date(Date.now() - 400 * 24 * 3600 * 1000).toISOString() })
      .execute();
    await app.call('/user/api/deleteOldActivities', { timeFrame: '1w' }, admin.token);
    expect((await log()).totalRecords).toBe(count + 1);

    const own = await app.call(
      '/user/api/updatePasswordUser',
      { id: mia.id, password: 'mia-password-2', currentPassword: 'mia-password-1' },
      mia.token,
    );
    expect(own.status).toBe(200);
    // Every privileged change is audited, whoever makes it: a member's own password too (never the password).
    const after = await log();
    expect(after.totalRecords).toBe(count + 2);
    expect(after.entries[0]).toMatchObject({
      actor: { id: mia.id },
      action: 'user.password',
      targetType: 'user',
      targetId: mia.id,
      changes: { passwordChanged: { before: null, after: true } },
    });
    expect(JSON.stringify(after)).not.toMatch(/scrypt|mia-password-[12]/);
    expect((await app.call('/user/api/getAuditLog', {}, mia.token)).status).toBe(403);
    expect((await app.call('/user/api/getAuditLog', {})).status).toBe(401);
    expect((await app.call('/user/api/getAuditLog', { targetType: 'planet' }, admin.token)).status).toBe(400);
  });
});
