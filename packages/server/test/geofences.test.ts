/**
 * Geofences (issue 28): drawn by administrators (for everyone or a channel) and by dispatchers (for their
 * channels), checked field by field with a clear 400, listed by channel, audited, and announced to the consoles
 * that see them (`geofencesChanged`).
 */
import { describe, expect, it } from 'vitest';
import { type Account, databases } from './harness.ts';
import { world } from './world.ts';

const CIRCLE = { type: 'circle', lat: 48.8566, lng: 2.3522, radiusM: 200 };
const SQUARE = {
  type: 'polygon',
  points: [
    [48.85, 2.35],
    [48.86, 2.35],
    [48.86, 2.36],
    [48.85, 2.36],
  ],
};

describe.each(databases)('geofences on %s', (dialect) => {
  const w = world(dialect, {
    people: {
      member: { role: 'member', mapRight: true },
      dispatcher: { role: 'dispatcher' },
      otherDispatcher: { role: 'dispatcher' },
    },
    channels: {
      field: { name: 'Field', members: ['member', 'dispatcher'] },
      office: { name: 'Office', members: ['otherDispatcher'] },
    },
  });

  const create = (token: string, body: object) => w.app.call('/user/api/createGeofence', body, token);

  it('creates a circle and a polygon, and gives them back as drawn', async () => {
    const { admin, dispatcher, field } = w;
    const circle = await create(dispatcher.token, { name: '  Depot  ', channelId: field.id, shape: CIRCLE });
    expect(circle.status).toBe(200);
    expect(circle.body).toMatchObject({ success: true, code: 'geofence_created', result: 'Geofence created' });
    expect(circle.body.res).toMatchObject({
      name: 'Depot',
      channelId: field.id,
      channelName: 'Field',
      shape: CIRCLE,
      alertOn: 'both',
      activeUntil: null,
      active: true,
      createdBy: { id: dispatcher.id },
    });
    // A ring closed by repeating its first corner is stored open.
    const closed = { ...SQUARE, points: [...SQUARE.points, SQUARE.points[0]] };
    const until = new Date(Date.now() + 3600_000).toISOString();
    const square = await create(admin.token, { name: 'Yard', shape: closed, alertOn: 'enter', activeUntil: until });
    expect(square.status).toBe(200);
    expect(square.body.res).toMatchObject({ channelId: null, channelName: null, shape: SQUARE, alertOn: 'enter' });
    expect(Date.parse(square.body.res.activeUntil)).toBe(Date.parse(until));
  });

  it('refuses a bad fence with a 400 that names the field', async () => {
    const { app, admin, field } = w;
    const refused = async (body: object) => {
      const answer = await create(admin.token, { name: 'Zone', channelId: field.id, shape: CIRCLE, ...body });
      expect(answer.status, JSON.stringify(answer.body)).toBe(400);
      return answer.body.result as string;
    };
    expect(await refused({ name: '   ' })).toMatch(/name: must not be empty/);
    expect(await refused({ name: 'x'.repeat(101) })).toMatch(/name:/);
    expect(await refused({ shape: { ...CIRCLE, radiusM: 0 } })).toMatch(/shape\.radiusM: must be above 0/);
    expect(await refused({ shape: { ...CIRCLE, radiusM: -5 } })).toMatch(/shape\.radiusM/);
    expect(await refused({ shape: { ...CIRCLE, radiusM: 60_000 } })).toMatch(/shape\.radiusM: must be at most 50000/);
    expect(await refused({ shape: { ...CIRCLE, lat: 91 } })).toMatch(/shape\.lat: must be a latitude/);
    expect(await refused({ shape: { ...CIRCLE, lng: -181 } })).toMatch(/shape\.lng: must be a longitude/);
    expect(await refused({ shape: { type: 'square' } })).toMatch(/shape/);
    expect(await refused({ shape: { type: 'polygon', points: SQUARE.points.slice(0, 2) } })).toMatch(
      /shape\.points: a polygon needs at least 3 corners/,
    );
    const collinearRepeat = { type: 'polygon', points: [SQUARE.points[0], SQUARE.points[1], SQUARE.points[0]] };
    expect(await refused({ shape: collinearRepeat })).toMatch(/at least 3/);
    const bowTie = {
      type: 'polygon',
      points: [SQUARE.points[0], SQUARE.points[2], SQUARE.points[1], SQUARE.points[3]],
    };
    expect(await refused({ shape: bowTie })).toMatch(/shape\.points: the edges of a polygon must not cross/);
    const tooWide = {
      type: 'polygon',
      points: [
        [48, 2],
        [48, 4],
        [49, 3],
      ],
    };
    expect(await refused({ shape: tooWide })).toMatch(/spans at most 1 degree/);
    const corners = Array.from({ length: 201 }, (_, i) => [
      48.85 + 0.001 * Math.cos((2 * Math.PI * i) / 201),
      2.35 + 0.001 * Math.sin((2 * Math.PI * i) / 201),
    ]);
    expect(await refused({ shape: { type: 'polygon', points: corners } })).toMatch(/at most 200 corners/);
    expect(
      await refused({ shape: { type: 'polygon', points: [[48.85, 'x'], SQUARE.points[1], SQUARE.points[2]] } }),
    ).toMatch(/shape\.points/);
    expect(await refused({ alertOn: 'sometimes' })).toMatch(/alertOn/);
    expect(await refused({ activeUntil: new Date(Date.now() - 1000).toISOString() })).toMatch(
      /activeUntil: must be in the future/,
    );
    expect(await refused({ activeUntil: 'tomorrow' })).toMatch(/activeUntil: must be an ISO 8601 time/);
    expect((await app.call('/user/api/getGeofences', {}, admin.token)).body.res).toEqual([]);
  });

  it('lets only administrators draw a fence that watches everyone, and dispatchers only in their channels', async () => {
    const { admin, member, dispatcher, field, office } = w;
    const withoutChannel = await create(dispatcher.token, { name: 'All', shape: CIRCLE });
    expect([withoutChannel.status, withoutChannel.body.code]).toEqual([403, 'admin_only']);
    const elsewhere = await create(dispatcher.token, { name: 'Office zone', channelId: office.id, shape: CIRCLE });
    expect([elsewhere.status, elsewhere.body.code]).toEqual([403, 'not_channel_member']);
    const asMember = await create(member.token, { name: 'Mine', channelId: field.id, shape: CIRCLE });
    expect([asMember.status, asMember.body.code]).toEqual([403, 'not_allowed']);
    expect((await create(admin.token, { name: 'All', shape: CIRCLE })).status).toBe(200);
    expect((await create(admin.token, { name: 'Gone', channelId: 99_999, shape: CIRCLE })).status).toBe(404);
  });

  it('lists the fences each caller may see', async () => {
    const { app, admin, member, dispatcher, otherDispatcher, field, office } = w;
    const ids: Record<string, number> = {};
    for (const [name, channelId] of [
      ['Field zone', field.id],
      ['Office zone', office.id],
      ['Everywhere', null],
    ] as const)
      ids[name] = (await create(admin.token, { name, channelId, shape: CIRCLE })).body.res.id;
    const names = async (account: Account, body: object = {}) => {
      const answer = await app.call('/user/api/getGeofences', body, account.token);
      return answer.status === 200 ? answer.body.res.map((f: any) => f.name) : answer.status;
    };
    expect(await names(admin)).toEqual(['Field zone', 'Office zone', 'Everywhere']);
    expect(await names(admin, { channelId: field.id })).toEqual(['Field zone', 'Everywhere']);
    expect(await names(dispatcher)).toEqual(['Field zone']);
    expect(await names(dispatcher, { channelId: field.id })).toEqual(['Field zone']);
    expect(await names(dispatcher, { channelId: office.id })).toBe(403);
    expect(await names(otherDispatcher)).toEqual(['Office zone']);
    expect(await names(member)).toBe(403);
  });

  it('updates only the fields sent, and moves a fence only between channels the caller may draw in', async () => {
    const { app, admin, dispatcher, otherDispatcher, field, office } = w;
    const created = await create(dispatcher.token, { name: 'Depot', channelId: field.id, shape: CIRCLE });
    const id = created.body.res.id;
    const update = (account: Account, body: object) =>
      app.call('/user/api/updateGeofence', { id, ...body }, account.token);
    const renamed = await update(dispatcher, { name: 'Depot north', alertOn: 'exit' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ code: 'geofence_updated' });
    expect(renamed.body.res).toMatchObject({
      name: 'Depot north',
      alertOn: 'exit',
      shape: CIRCLE,
      channelId: field.id,
    });
    const until = new Date(Date.now() + 7 * 24 * 3600_000).toISOString();
    expect((await update(dispatcher, { activeUntil: until })).body.res.active).toBe(true);
    expect((await update(dispatcher, { activeUntil: null })).body.res.activeUntil).toBeNull();
    expect((await update(dispatcher, { shape: SQUARE })).body.res.shape).toEqual(SQUARE);
    expect((await update(dispatcher, { shape: { ...CIRCLE, radiusM: 0 } })).status).toBe(400);
    expect((await update(dispatcher, { channelId: office.id })).status).toBe(403);
    expect((await update(dispatcher, { channelId: null })).body.code).toBe('admin_only');
    expect((await update(otherDispatcher, { name: 'Mine' })).status).toBe(403);
    const moved = await update(admin, { channelId: office.id });
    expect(moved.body.res).toMatchObject({ channelId: office.id, channelName: 'Office' });
    expect((await update(dispatcher, { name: 'Back' })).status).toBe(403);
    expect((await update(otherDispatcher, { name: 'Office depot' })).status).toBe(200);
    const missing = await app.call('/user/api/updateGeofence', { id: 99_999, name: 'x' }, admin.token);
    expect([missing.status, missing.body.code]).toEqual([404, 'geofence_not_found']);
  });

  it('deleteGeofence: a member never, a dispatcher of another channel never, the fence’s dispatcher and administrators yes', async () => {
    const { app, admin, member, dispatcher, otherDispatcher, field } = w;
    const make = async (channelId: number | null) =>
      (await create(admin.token, { name: 'Zone', channelId, shape: CIRCLE })).body.res.id as number;
    const del = (id: number, token?: string) => app.call('/user/api/deleteGeofence', { id }, token);
    const inField = await make(field.id);
    expect((await del(inField)).status).toBe(401);
    expect((await del(inField, member.token)).body.code).toBe('not_allowed');
    expect((await del(inField, otherDispatcher.token)).body.code).toBe('not_channel_member');
    const done = await del(inField, dispatcher.token);
    expect([done.status, done.body.code, done.body.result]).toEqual([200, 'geofence_deleted', 'Geofence deleted']);
    expect((await del(inField, admin.token)).body.code).toBe('geofence_not_found');
    const everywhere = await make(null);
    expect((await del(everywhere, dispatcher.token)).body.code).toBe('admin_only');
    expect((await del(everywhere, admin.token)).status).toBe(200);
    expect((await app.call('/user/api/getGeofences', {}, admin.token)).body.res).toEqual([]);
  });

  it('audits every change of a fence with its author', async () => {
    const { app, admin, dispatcher, field } = w;
    const id = (await create(dispatcher.token, { name: 'Depot', channelId: field.id, shape: CIRCLE })).body.res.id;
    await app.call('/user/api/updateGeofence', { id, name: 'Depot 2' }, admin.token);
    await app.call('/user/api/deleteGeofence', { id }, dispatcher.token);
    const log = await app.call('/user/api/getAuditLog', { targetType: 'geofence' }, admin.token);
    expect(log.status).toBe(200);
    const entries = [...log.body.res.entries].reverse();
    expect(entries.map((e: any) => [e.action, e.actor.id, e.targetId, e.targetName])).toEqual([
      ['geofence.create', dispatcher.id, id, 'Depot'],
      ['geofence.update', admin.id, id, 'Depot 2'],
      ['geofence.delete', dispatcher.id, id, 'Depot 2'],
    ]);
    expect(entries[1].changes).toEqual({ name: { before: 'Depot', after: 'Depot 2' } });
  });

  it('announces changes to the consoles that see the fence, and only to them', async () => {
    const { admin, member, dispatcher, otherDispatcher, field } = w;
    const adminConsole = await w.open(admin);
    const desk = await w.open(dispatcher);
    const otherDesk = await w.open(otherDispatcher);
    const phone = await w.open(member);
    await create(dispatcher.token, { name: 'Depot', channelId: field.id, shape: CIRCLE });
    expect(await adminConsole.next('geofencesChanged')).toEqual({ channelId: field.id });
    expect(await desk.next('geofencesChanged')).toEqual({ channelId: field.id });
    await create(admin.token, { name: 'All', shape: CIRCLE });
    expect(await adminConsole.next('geofencesChanged')).toEqual({ channelId: null });
    await Promise.all([otherDesk.flush(), phone.flush(), desk.flush()]);
    expect(otherDesk.all('geofencesChanged')).toEqual([]);
    expect(phone.all('geofencesChanged')).toEqual([]);
    expect(desk.all('geofencesChanged')).toEqual([{ channelId: field.id }]);
  });
});
