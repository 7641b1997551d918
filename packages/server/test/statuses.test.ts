/**
 * Members' statuses (issue 49, point 4): the organisation's list (seeded, replaced by an administrator,
 * audited), a member's own status, a dispatcher's setting of its channels' members' statuses, who sees whose,
 * the activity each change writes, and who hears of it through its socket.
 */
import { describe, expect, it } from 'vitest';
import { type Account, databases } from './harness.ts';
import { world } from './world.ts';

interface Status {
  id: number;
  label: { fr: string; en: string; de: string };
  color: string;
}

describe.each(databases)('members’ statuses on %s', (dialect) => {
  const w = world(dialect, {
    people: {
      desk: { role: 'dispatcher', firstName: 'Dana', lastName: 'Desk' },
      otherDesk: { role: 'dispatcher', firstName: 'Olly', lastName: 'Other' },
      mia: { role: 'member', firstName: 'Mia', lastName: 'Field' },
      noah: { role: 'member', firstName: 'Noah', lastName: 'Far' },
    },
    channels: {
      alpha: { name: 'alpha', members: ['desk', 'mia'], overHttp: true },
      bravo: { name: 'bravo', members: ['otherDesk', 'noah'], overHttp: true },
    },
  });

  const list = async (account: Account): Promise<Status[]> =>
    (await w.app.call('/user/api/listStatuses', {}, account.token)).body.res;
  const byLabel = async (label: string) => {
    const found = (await list(w.admin)).find((status) => status.label.fr === label);
    if (!found) throw new Error(`no status ${label}`);
    return found;
  };
  const seen = async (account: Account) =>
    (await w.app.call('/user/api/getMemberStatuses', {}, account.token)).body.res as Array<{
      userId: number;
      statusId: number;
    }>;

  it('starts with the four statuses of a dispatch team, in their order', async () => {
    const { mia } = w;
    expect(await list(mia)).toEqual([
      { id: expect.any(Number), label: { fr: 'Disponible', en: 'Available', de: 'Verfügbar' }, color: '#2e7d32' },
      { id: expect.any(Number), label: { fr: 'En route', en: 'En route', de: 'Unterwegs' }, color: '#1565c0' },
      { id: expect.any(Number), label: { fr: 'Sur place', en: 'On scene', de: 'Vor Ort' }, color: '#ef6c00' },
      { id: expect.any(Number), label: { fr: 'En pause', en: 'On break', de: 'In Pause' }, color: '#757575' },
    ]);
  });

  it('replaces the list: kept ids keep their members, new ones are added, left-out ones clear theirs; audited', async () => {
    const { app, admin, mia, noah } = w;
    const [available, enRoute, onScene] = await list(admin);
    await app.call('/user/api/setMyStatus', { statusId: onScene?.id }, mia.token);
    await app.call('/user/api/setMyStatus', { statusId: enRoute?.id }, noah.token);
    const replaced = await app.call(
      '/user/api/setStatuses',
      {
        statuses: [
          { id: onScene?.id, label: { fr: 'Sur les lieux', en: 'On scene', de: 'Vor Ort' }, color: '#EF6C00' },
          { label: { fr: 'Au dépôt', en: 'At the depot', de: 'Im Depot' }, color: '#6a1b9a' },
          { id: available?.id, label: available?.label, color: available?.color },
        ],
      },
      admin.token,
    );
    expect(replaced.status).toBe(200);
    expect(replaced.body.code).toBe('statuses_saved');
    const saved: Status[] = replaced.body.res;
    expect(saved.map((status) => status.label.fr)).toEqual(['Sur les lieux', 'Au dépôt', 'Disponible']);
    expect(saved[0]).toMatchObject({ id: onScene?.id, color: '#ef6c00' });
    expect(saved[2]?.id).toBe(available?.id);
    expect(await list(mia)).toEqual(saved);
    // Mia keeps hers (renamed); Noah's "En route" is gone, and so is his status.
    const statuses = await seen(admin);
    expect(statuses).toEqual([expect.objectContaining({ userId: mia.id, statusId: onScene?.id })]);

    const log = await app.call('/user/api/getAuditLog', {}, admin.token);
    const entry = log.body.res.entries.find((e: { action: string }) => e.action === 'settings.statuses');
    expect(entry).toBeDefined();
    expect(JSON.stringify(entry)).toContain('Au dépôt');
  });

  it('refuses an unknown id, a bad colour, an empty label, a status twice, and anyone but an administrator', async () => {
    const { app, admin, desk, mia } = w;
    const [available] = await list(admin);
    const label = { fr: 'Test', en: 'Test', de: 'Test' };
    const attempts = [
      { statuses: [{ id: 999_999, label, color: '#000000' }] },
      { statuses: [{ label, color: 'red' }] },
      { statuses: [{ label: { ...label, de: '  ' }, color: '#000000' }] },
      {
        statuses: [
          { id: available?.id, label, color: '#000000' },
          { id: available?.id, label, color: '#111111' },
        ],
      },
    ];
    for (const body of attempts) {
      const refused = await app.call('/user/api/setStatuses', body, admin.token);
      expect(refused.status, JSON.stringify(body)).toBe(400);
    }
    const unknown = await app.call('/user/api/setStatuses', attempts[0], admin.token);
    expect(unknown.body.code).toBe('status_not_found');
    for (const account of [desk, mia]) {
      const refused = await app.call('/user/api/setStatuses', { statuses: [] }, account.token);
      expect(refused.status).toBe(403);
    }
    expect(await list(admin)).toHaveLength(4);
  });

  it('lets a member set and clear its own status, once per change, with an activity', async () => {
    const { app, admin, mia } = w;
    const onScene = await byLabel('Sur place');
    const set = await app.call('/user/api/setMyStatus', { statusId: onScene.id }, mia.token);
    expect(set.status).toBe(200);
    expect(set.body.res).toEqual({ userId: mia.id, statusId: onScene.id, since: expect.any(String), setBy: null });
    const again = await app.call('/user/api/setMyStatus', { statusId: onScene.id }, mia.token);
    expect(again.body.res.since).toBe(set.body.res.since);
    expect((await app.call('/user/api/setMyStatus', { statusId: 999_999 }, mia.token)).status).toBe(404);

    const log = await app.call('/user/api/getAllActivities/', { start: 0, limit: 20 }, admin.token);
    const changes = log.body.res.activities.filter((a: { type: string }) => a.type === 'status_change');
    expect(changes).toEqual([
      expect.objectContaining({
        user: expect.objectContaining({ id: mia.id }),
        status: { label: onScene.label, color: onScene.color },
      }),
    ]);

    const cleared = await app.call('/user/api/setMyStatus', { statusId: null }, mia.token);
    expect(cleared.body.res).toEqual({ userId: mia.id, statusId: null, since: null, setBy: null });
    expect(await seen(mia)).toEqual([]);
  });

  it('lets an administrator set anyone’s, a dispatcher only its channels’ members’', async () => {
    const { app, admin, desk, mia, noah } = w;
    const enRoute = await byLabel('En route');
    const byAdmin = await app.call('/user/api/setUserStatus', { userId: noah.id, statusId: enRoute.id }, admin.token);
    expect(byAdmin.body.res).toMatchObject({ userId: noah.id, setBy: { userId: admin.id, name: 'Ada Admin' } });

    const byDesk = await app.call('/user/api/setUserStatus', { userId: mia.id, statusId: enRoute.id }, desk.token);
    expect(byDesk.status).toBe(200);
    expect(byDesk.body.res).toMatchObject({ statusId: enRoute.id, setBy: { userId: desk.id, name: 'Dana Desk' } });

    const elsewhere = await app.call('/user/api/setUserStatus', { userId: noah.id, statusId: null }, desk.token);
    expect(elsewhere.status).toBe(403);
    expect(elsewhere.body.code).toBe('status_not_allowed');
    const nobody = await app.call('/user/api/setUserStatus', { userId: 999_999, statusId: null }, desk.token);
    expect(nobody.status).toBe(404);
    expect(nobody.body.code).toBe('user_not_found');
    const member = await app.call('/user/api/setUserStatus', { userId: noah.id, statusId: null }, mia.token);
    expect(member.status).toBe(403);

    const log = await app.call('/user/api/getAllActivities/', { start: 0, limit: 20 }, admin.token);
    const set = log.body.res.activities.find(
      (a: { type: string; user?: { id: number } }) => a.type === 'status_change' && a.user?.id === mia.id,
    );
    expect(set.status).toMatchObject({ label: enRoute.label, by: 'Dana Desk' });
  });

  it('shows a member only the statuses of those who share a channel with it', async () => {
    const { app, admin, desk, otherDesk, mia, noah } = w;
    const onScene = await byLabel('Sur place');
    for (const account of [mia, noah, desk, otherDesk])
      await app.call('/user/api/setMyStatus', { statusId: onScene.id }, account.token);
    const ids = async (account: Account) => (await seen(account)).map((entry) => entry.userId).sort((a, b) => a - b);
    expect(await ids(mia)).toEqual([desk.id, mia.id].sort((a, b) => a - b));
    expect(await ids(otherDesk)).toEqual([otherDesk.id, noah.id].sort((a, b) => a - b));
    expect(await ids(admin)).toHaveLength(4);
    const asked = await app.call('/user/api/getMemberStatuses', { userIds: [noah.id, desk.id] }, mia.token);
    expect(asked.body.res.map((entry: { userId: number }) => entry.userId)).toEqual([desk.id]);
  });

  describe('live', () => {
    const connected = (account: Account) => w.open(account, { pushesOnce: true });

    it('pushes a status to the dispatchers of the member’s channels and its own devices, not to others', async () => {
      const { app, desk, otherDesk, mia, noah } = w;
      const [deskSocket, otherSocket, miaSocket, noahSocket] = await Promise.all(
        [desk, otherDesk, mia, noah].map(connected),
      );
      const onScene = await byLabel('Sur place');
      await app.call('/user/api/setMyStatus', { statusId: onScene.id }, mia.token);
      const expected = { userId: mia.id, statusId: onScene.id };
      expect(await deskSocket.next('memberStatusChanged')).toMatchObject(expected);
      expect(await miaSocket.next('memberStatusChanged')).toMatchObject(expected);
      await Promise.all([otherSocket.flush(), noahSocket.flush(), miaSocket.flush()]);
      expect(otherSocket.all('memberStatusChanged')).toEqual([]);
      expect(noahSocket.all('memberStatusChanged')).toEqual([]);
      expect(miaSocket.all('memberStatusChanged')).toHaveLength(1);
    });

    it('tells every signed-in socket that the list changed', async () => {
      const { app, admin, otherDesk, mia, noah } = w;
      const sockets = await Promise.all([mia, noah, otherDesk].map(connected));
      const statuses = await list(admin);
      await app.call('/user/api/setStatuses', { statuses: statuses.slice(1) }, admin.token);
      for (const socket of sockets) await socket.next('statusesChanged');
    });
  });
});
