/**
 * Who a regroup gives power to (issue 69 items 6 and 7): its channel is dispatched by its creator and the
 * administrators only; a dispatcher regrouped by someone else has a member's rights there (he dispatches nobody
 * he met only through it, and does not end it). selectChannelFor goes down the ranks only (403
 * `select_rank_not_allowed` for a target of the caller's role or above; an administrator switches anyone but
 * himself). One user has at most REGROUP_OPEN_MAX (20) regroups open (429 `regroup_limit`).
 */
import { REGROUP_OPEN_MAX } from '@talkgroup/protocol';
import { describe, expect, it } from 'vitest';
import { type Account, databases } from './harness.ts';
import { createWithRole } from './role-fixtures.ts';
import { world } from './world.ts';

describe.each(databases)('regroups’ rights on %s', { timeout: 120_000 }, (dialect) => {
  const w = world(dialect, {
    people: {
      dana: { role: 'dispatcher', firstName: 'Dana', lastName: 'Desk' },
      eve: { role: 'dispatcher', firstName: 'Eve', lastName: 'Regrouped' },
      mia: { role: 'member', firstName: 'Mia', lastName: 'Field' },
    },
    // Dana dispatches both; Eve dispatches Dock, where Mia is not.
    channels: {
      quai: { name: 'Quai', members: ['dana', 'mia'], overHttp: true },
      dock: { name: 'Dock', members: ['dana', 'eve'], overHttp: true },
    },
  });

  const regroup = (name: string, userIds: number[], by: Account) =>
    w.app.call('/user/api/createRegroup', { name, userIds }, by.token);

  it('lets a dispatcher regrouped by someone else dispatch nobody there', async () => {
    const { app, admin, dana, eve, mia } = w;
    const made = await regroup('Fire B12', [eve.id, mia.id], dana);
    expect(made.status).toBe(200);
    const { regroupId, channelId } = made.body;
    await w.open(mia, { talkPage: true });

    // A member's rights there: Eve reads, chats, and is listed among its members.
    const byEve = (path: string, body: object) => app.call(`/user/api/${path}`, body, eve.token);
    expect((await byEve('sendMessageToChannel', { channelId, message: 'On my way' })).status).toBe(200);
    const refused = async (path: string, body: object, status = 403) => {
      const answer = await byEve(path, body);
      expect({ path, status: answer.status }).toEqual({ path, status });
    };
    await refused('getDeviceStatus', { userId: mia.id });
    await refused('requestVideo', { userId: mia.id, channelId });
    await refused('sendEmergencyAlert', { userId: mia.id, channelId });
    await refused('getPositionHistory', { userId: mia.id });
    await refused('selectChannelFor', { userId: mia.id, channelId });
    await refused('createRegroup', { name: 'Eve’s own', userIds: [mia.id] });
    await refused('createRegroup', { name: 'Eve’s own', userIds: [], channelIds: [channelId] });
    await refused('endRegroup', { regroupId }, 404);
    expect((await byEve('getRegroups', {})).body.res).toEqual([]);

    // Its creator dispatches it, and an administrator.
    expect((await app.call('/user/api/getDeviceStatus', { userId: mia.id }, dana.token)).status).toBe(200);
    expect((await app.call('/user/api/getRegroups', {}, dana.token)).body.res).toHaveLength(1);
    expect((await app.call('/user/api/getRegroups', {}, admin.token)).body.res).toHaveLength(1);
    expect((await app.call('/user/api/endRegroup', { regroupId }, dana.token)).status).toBe(200);
  });

  it('lets an administrator’s regroup be dispatched by him, not by the dispatchers it gathers', async () => {
    const { app, admin, dana, mia, quai } = w;
    const made = await regroup('Flood', [dana.id, mia.id], admin);
    expect(made.status).toBe(200);
    // Dana dispatches Mia in Quai already: the regroup adds nothing, and takes nothing from her there.
    expect((await app.call('/user/api/getDeviceStatus', { userId: mia.id }, dana.token)).status).toBe(200);
    const select = (channelId: number) =>
      app.call('/user/api/selectChannelFor', { userId: mia.id, channelId }, dana.token);
    expect((await select(made.body.channelId)).status).toBe(403);
    expect((await select(quai.id)).status).toBe(200);
    expect((await app.call('/user/api/endRegroup', { regroupId: made.body.regroupId }, dana.token)).status).toBe(404);
    expect((await app.call('/user/api/endRegroup', { regroupId: made.body.regroupId }, admin.token)).status).toBe(200);
  });

  it('switches the channel of those below the caller only', async () => {
    const { app, admin, dana, eve, dock } = w;
    const other = await createWithRole(app, admin, 'admin', { firstName: 'Ada', lastName: 'Other' });
    await app.services.memberships.add(dock.id, [admin.id, other.id]);
    const select = (userId: number, by: Account) =>
      app.call('/user/api/selectChannelFor', { userId, channelId: dock.id }, by.token);

    const peer = await select(eve.id, dana);
    expect(peer.status).toBe(403);
    expect(peer.body).toMatchObject({ success: false, code: 'select_rank_not_allowed' });
    expect(peer.body.result).toContain('Eve Regrouped');
    const inFrench = await app.fastify.inject({
      method: 'POST',
      url: '/user/api/selectChannelFor',
      headers: { 'x-access-token': dana.token, 'accept-language': 'fr' },
      payload: { userId: other.id, channelId: dock.id },
    });
    expect(inFrench.statusCode).toBe(403);
    expect(inFrench.json().result).toBe(
      'Vous ne pouvez pas changer le canal de Ada Other : seul un rôle supérieur au sien le peut.',
    );
    // An administrator switches anyone but himself (his own channel is selectMyChannel's).
    expect((await select(eve.id, admin)).status).toBe(200);
    expect((await select(other.id, admin)).status).toBe(200);
    const himself = await select(admin.id, admin);
    expect(himself.status).toBe(400);
    expect(himself.body.result).toMatch(/^userId/);
    const audited = (await app.services.audit.page({ start: 0, limit: 50 })).entries.filter(
      (entry) => entry.action === 'user.select_channel',
    );
    expect(audited.map((entry) => entry.targetId).sort()).toEqual([eve.id, other.id].sort());
  });

  it(`keeps at most ${REGROUP_OPEN_MAX} regroups open per user`, async () => {
    const { app, admin, dana, mia } = w;
    const made: number[] = [];
    for (let i = 0; i < REGROUP_OPEN_MAX; i++) {
      const answer = await regroup(`Incident ${i}`, [mia.id], dana);
      expect(answer.status).toBe(200);
      made.push(answer.body.regroupId);
    }
    const over = await regroup('One too many', [mia.id], dana);
    expect(over.status).toBe(429);
    expect(over.body).toMatchObject({ success: false, code: 'regroup_limit', params: { max: REGROUP_OPEN_MAX } });
    expect(over.body.result).toContain(String(REGROUP_OPEN_MAX));
    const names = (await app.call('/user/api/getAllChannels', {}, admin.token)).body.res.map(
      (c: { name: string }) => c.name,
    );
    expect(names).not.toContain('One too many');
    // Another user has his own count; one ended makes room again.
    expect((await regroup('The administrator’s', [mia.id], admin)).status).toBe(200);
    expect((await app.call('/user/api/endRegroup', { regroupId: made[0] }, dana.token)).status).toBe(200);
    expect((await regroup('One too many', [mia.id], dana)).status).toBe(200);
  });
});
