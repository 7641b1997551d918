/**
 * Functional aliases (issue 59 item 5): an administrator defines them (validated, audited), people take and give
 * them back, an administrator or a dispatcher of their channels assigns them, `startPrivateCall { aliasId }` rings
 * whoever holds one (the first to accept takes the call; nobody holding it: refused with a sentence), and the
 * holder's alias is named beside it in floor_taken and among a room's peers.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Account, databases, type TestApp } from './harness.ts';
import { callRequests, privateCallCast } from './private-call-cast.ts';

describe.each(databases)('functional aliases on %s', (dialect) => {
  let app: TestApp;
  let url: string;
  let admin: Account;
  let desk: Account;
  let mia: Account;
  let max: Account;
  let stranger: Account;
  let channelId: number;
  const { answer, online, closeSockets } = callRequests(
    () => app,
    () => url,
  );

  const create = (body: unknown, by = admin) => app.call('/user/api/createAlias', body, by.token);
  const take = (aliasId: number, by: Account) => app.call('/user/api/takeAlias', { aliasId }, by.token);
  const release = (aliasId: number, by: Account) => app.call('/user/api/releaseAlias', { aliasId }, by.token);
  const callAlias = (aliasId: number, by: Account) => app.call('/user/api/startPrivateCall', { aliasId }, by.token);
  const aliases = async (by: Account) => (await app.call('/user/api/getAliases', {}, by.token)).body.res;
  /** An alias every role may take (members take only those that name them, issue 69). */
  const everyone = ['member', 'dispatcher', 'admin'];

  beforeEach(async () => {
    ({ app, url, admin, desk, mia, max, stranger, channelId } = await privateCallCast(dialect));
  });
  afterEach(async () => {
    closeSockets();
    await app.close();
  });

  it('lets an administrator create, rename and delete an alias, validated and audited, and nobody else', async () => {
    const created = await create({ name: '  Chef  de quart ' });
    expect(created.status).toBe(200);
    expect(created.body.res).toEqual({
      id: expect.any(Number),
      name: 'Chef de quart',
      maxHolders: 1,
      takeRoles: ['dispatcher', 'admin'],
      holders: [],
    });
    const aliasId = created.body.res.id;

    for (const body of [
      { name: '' },
      { name: 'x'.repeat(61) },
      { name: 'A', maxHolders: 0 },
      { name: 'A', maxHolders: 51 },
    ]) {
      const refused = await create(body);
      expect(refused.status).toBe(400);
      expect(refused.body.success).toBe(false);
    }
    const twice = await create({ name: 'chef de QUART' });
    expect(twice.status).toBe(400);
    expect(twice.body).toMatchObject({ code: 'alias_name_taken' });
    expect(twice.body.result).toContain('already exists');

    expect((await create({ name: 'Member alias' }, mia)).status).toBe(403);
    expect((await create({ name: 'Desk alias' }, desk)).status).toBe(403);
    expect((await app.call('/user/api/updateAlias', { aliasId, name: 'X' }, desk.token)).status).toBe(403);
    expect((await app.call('/user/api/deleteAlias', { aliasId }, mia.token)).status).toBe(403);

    const renamed = await app.call(
      '/user/api/updateAlias',
      { aliasId, name: 'Chef de poste', maxHolders: 2 },
      admin.token,
    );
    expect(renamed.status).toBe(200);
    expect(renamed.body.res).toMatchObject({ name: 'Chef de poste', maxHolders: 2 });
    expect((await app.call('/user/api/updateAlias', { aliasId: 9999, name: 'Y' }, admin.token)).status).toBe(404);

    expect((await app.call('/user/api/deleteAlias', { aliasId }, admin.token)).status).toBe(200);
    expect(await aliases(mia)).toEqual([]);

    const log = (await app.call('/user/api/getAuditLog', { targetType: 'alias' }, admin.token)).body.res.entries;
    expect(log.map((entry: { action: string }) => entry.action)).toEqual([
      'alias.delete',
      'alias.update',
      'alias.create',
    ]);
    expect(log[1]).toMatchObject({
      targetId: aliasId,
      changes: { name: { before: 'Chef de quart', after: 'Chef de poste' }, maxHolders: { before: 1, after: 2 } },
    });
  });

  it('lets the roles an alias names take and give it back, up to its holders, and shows the holders to all', async () => {
    const aliasId = (await create({ name: 'Secouriste', maxHolders: 2, takeRoles: everyone })).body.res.id;
    expect((await take(aliasId, mia)).body.res.holders).toEqual([
      { userId: mia.id, name: 'Mia Field', since: expect.any(String) },
    ]);
    // Taking it again changes nothing.
    expect((await take(aliasId, mia)).body.res.holders).toHaveLength(1);
    expect((await take(aliasId, max)).status).toBe(200);
    const full = await take(aliasId, stranger);
    expect(full.status).toBe(409);
    expect(full.body).toMatchObject({ code: 'alias_full' });
    expect(full.body.result).toContain('Secouriste');
    expect((await app.call('/user/api/updateAlias', { aliasId, maxHolders: 1 }, admin.token)).status).toBe(409);

    const [listed] = await aliases(stranger);
    expect(listed.holders.map((holder: { userId: number }) => holder.userId)).toEqual([mia.id, max.id]);
    expect((await release(aliasId, mia)).body.res.holders.map((h: { userId: number }) => h.userId)).toEqual([max.id]);
    expect((await take(aliasId, stranger)).status).toBe(200);
    expect((await take(9999, mia)).status).toBe(404);
  });

  it('lets a dispatcher assign an alias to a member of its channels only, and an administrator to anyone', async () => {
    const aliasId = (await create({ name: 'Chef de quart', maxHolders: 3 })).body.res.id;
    const assign = (userId: number, by: Account, holds?: boolean) =>
      app.call('/user/api/assignAlias', { aliasId, userId, ...(holds === undefined ? {} : { holds }) }, by.token);

    expect((await assign(mia.id, desk)).status).toBe(200);
    const outside = await assign(stranger.id, desk);
    expect(outside.status).toBe(403);
    expect(outside.body.code).toBe('alias_assign_not_allowed');
    expect((await assign(max.id, mia)).status).toBe(403);
    expect((await assign(stranger.id, admin)).status).toBe(200);
    expect((await assign(mia.id, desk, false)).body.res.holders.map((h: { userId: number }) => h.userId)).toEqual([
      stranger.id,
    ]);
    const log = (await app.call('/user/api/getAuditLog', { targetType: 'alias' }, admin.token)).body.res.entries;
    expect(log.filter((entry: { action: string }) => entry.action === 'alias.assign')).toHaveLength(3);
    expect(channelId).toBeGreaterThan(0);
  });

  it('rings the holder of an alias, who accepts; refuses with a sentence when nobody holds it', async () => {
    const aliasId = (await create({ name: 'Chef de quart', takeRoles: everyone })).body.res.id;
    const free = await callAlias(aliasId, desk);
    expect(free.status).toBe(409);
    expect(free.body).toMatchObject({ success: false, code: 'alias_not_held' });
    expect(free.body.result).toBe('Nobody holds "Chef de quart" now: the call cannot be made.');
    const inFrench = await app.fastify.inject({
      method: 'POST',
      url: '/user/api/startPrivateCall',
      headers: { 'x-access-token': desk.token, 'accept-language': 'fr' },
      payload: { aliasId },
    });
    expect(inFrench.json().result).toBe('Personne ne tient « Chef de quart » en ce moment : l’appel est impossible.');
    expect((await callAlias(9999, desk)).status).toBe(404);
    expect((await app.call('/user/api/startPrivateCall', {}, desk.token)).status).toBe(400);

    const deskSocket = await online(desk);
    const miaSocket = await online(mia);
    await take(aliasId, mia);
    const started = await callAlias(aliasId, desk);
    expect(started.status).toBe(200);
    expect(started.body.result).toBe('Calling Chef de quart…');
    const { callId, room } = started.body.res;
    expect(await miaSocket.next('incomingCall')).toEqual({
      callId,
      room,
      from: { userId: desk.id, name: 'Dana Desk' },
      alias: 'Chef de quart',
    });
    const accepted = await answer(mia, callId, true);
    expect(accepted.status).toBe(200);
    expect(accepted.body.res).toMatchObject({
      state: 'active',
      callee: { userId: mia.id },
      alias: { aliasId, name: 'Chef de quart' },
    });
    await deskSocket.next('privateCallUpdated', (call) => call.state === 'active');
    expect(await deskSocket.emitAck('join_room', { room, mode: 'talk' })).toMatchObject({ success: true });
    expect(await miaSocket.emitAck('join_room', { room, mode: 'talk' })).toMatchObject({ success: true });
    // The holder talks: its alias is named beside it.
    expect(await miaSocket.emitAck('floor_request', { room })).toMatchObject({ granted: true });
    expect(await deskSocket.next('floor_taken', (taken) => taken.room === room)).toMatchObject({
      userId: mia.id,
      name: 'Mia Field',
      alias: 'Chef de quart',
    });
  });

  it('rings every holder; the first to accept takes the call and the others stop ringing', async () => {
    const aliasId = (await create({ name: 'Électricien de garde', maxHolders: 2, takeRoles: everyone })).body.res.id;
    await take(aliasId, mia);
    await take(aliasId, max);
    const deskSocket = await online(desk);
    const miaSocket = await online(mia);
    const maxSocket = await online(max);
    const { callId, room } = (await callAlias(aliasId, desk)).body.res;
    const rings = [await miaSocket.next('incomingCall'), await maxSocket.next('incomingCall')];
    expect(rings.map((ring) => ring.callId)).toEqual([callId, callId]);

    // Max answers first, though Mia held it first.
    const taken = await answer(max, callId, true);
    expect(taken.status).toBe(200);
    expect(taken.body.res).toMatchObject({ state: 'active', callee: { userId: max.id, name: 'Max Field' } });
    expect(await miaSocket.next('privateCallUpdated', (call) => call.state === 'active')).toMatchObject({
      callId,
      callee: { userId: max.id },
    });
    await deskSocket.next('privateCallUpdated', (call) => call.state === 'active');
    const late = await answer(mia, callId, true);
    expect(late.status).toBe(403);

    // The call is Max's: his room, not Mia's.
    const answeredRoom = taken.body.res.room;
    expect(await maxSocket.emitAck('join_room', { room: answeredRoom, mode: 'talk' })).toMatchObject({ success: true });
    expect(await miaSocket.emitAck('join_room', { room: answeredRoom, mode: 'talk' })).toMatchObject({
      success: false,
    });
    expect(room).toEqual(expect.any(String));
    // Mia is free for another call at once.
    const other = await app.call('/user/api/startPrivateCall', { userId: mia.id }, admin.token);
    expect(other.status).toBe(200);
  });

  it('a holder who declines stops ringing alone: the other holder still rings and takes the call', async () => {
    const aliasId = (await create({ name: 'Infirmier', maxHolders: 2, takeRoles: everyone })).body.res.id;
    await take(aliasId, mia);
    await take(aliasId, max);
    const deskSocket = await online(desk);
    const miaSocket = await online(mia);
    const maxSocket = await online(max);
    const { callId } = (await callAlias(aliasId, desk)).body.res;
    await miaSocket.next('incomingCall');
    await maxSocket.next('incomingCall');

    // Mia, the first holder and so the callee, declines: her ring stops, Max's goes on and the call is his to take.
    const declined = await answer(mia, callId, false);
    expect(declined.status).toBe(200);
    expect(declined.body.res.state).toBe('declined');
    expect(
      await miaSocket.next('privateCallUpdated', (call) => call.state === 'ringing' && call.callee.userId === max.id),
    ).toMatchObject({ alias: { ringing: [max.id] } });
    expect(await deskSocket.next('privateCallUpdated', (call) => call.callee.userId === max.id)).toMatchObject({
      state: 'ringing',
    });
    expect((await answer(mia, callId, true)).status).toBe(403);
    const taken = await answer(max, callId, true);
    expect(taken.body.res).toMatchObject({ state: 'active', callee: { userId: max.id } });

    // The last holder's decline declines the call, as a callee's does.
    await app.call('/user/api/endPrivateCall', { callId }, desk.token);
    const again = (await callAlias(aliasId, desk)).body.res.callId;
    await answer(mia, again, false);
    const last = await app.call('/user/api/endPrivateCall', { callId: again }, max.token);
    expect(last.status).toBe(200);
    expect(
      await deskSocket.next('privateCallUpdated', (call) => call.callId === again && call.state === 'declined'),
    ).toBeTruthy();
  });

  it('rings only the holders the caller may call privately, by the rule of a call by name', async () => {
    const aliasId = (await create({ name: 'Logisticien', maxHolders: 2, takeRoles: everyone })).body.res.id;
    await take(aliasId, max);
    // Members do not call members (the organisation's default), nor anyone outside their channels.
    const member = await callAlias(aliasId, mia);
    expect(member.status).toBe(403);
    expect(member.body.code).toBe('call_not_allowed');
    expect((await callAlias(aliasId, stranger)).status).toBe(403);
    // A second holder the member may call (a dispatcher of its channel) is the only one that rings.
    await take(aliasId, desk);
    const deskSocket = await online(desk);
    const maxSocket = await online(max);
    const { callId } = (await callAlias(aliasId, mia)).body.res;
    expect(await deskSocket.next('incomingCall')).toMatchObject({ callId, alias: 'Logisticien' });
    await deskSocket.flush();
    await maxSocket.flush();
    expect(maxSocket.all('incomingCall')).toEqual([]);
  });
});
