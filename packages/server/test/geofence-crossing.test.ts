/**
 * Crossing a geofence (issue 28): a member's phone reports positions over its socket; each crossing of a
 * fence's edge, in or out, gives exactly one `geofenceAlert` to the administrators and the dispatchers of the
 * fence's channel, and one activity; a fix that wanders on the edge within its accuracy gives none; the side
 * last decided survives a restart.
 */
import { describe, expect, it } from 'vitest';
import type { Dialect } from '../src/db/open.ts';
import { distanceM } from '../src/geofences/geometry.ts';
import { type Account, createMember, databases } from './harness.ts';
import { connect, type TestClient } from './realtime-harness.ts';
import { world } from './world.ts';

const CENTRE = { lat: 48.8566, lng: 2.3522 };
const RADIUS = 200;
/** Degrees of latitude per metre. */
const NORTH = 1 / 111_195;

/** A point `metres` north of the centre (the circle's edge is at RADIUS). */
const north = (metres: number, accuracy?: number) => ({
  lat: CENTRE.lat + metres * NORTH,
  lng: CENTRE.lng,
  ...(accuracy === undefined ? {} : { accuracy }),
});

/** A square about 1.1 km wide, east of the circle. */
const SQUARE: Array<[number, number]> = [
  [48.85, 2.37],
  [48.86, 2.37],
  [48.86, 2.385],
  [48.85, 2.385],
];
const inSquare = { lat: 48.855, lng: 2.3775, accuracy: 10 };
/** West of the square's west edge (lng 2.37) by about `metres`. */
const westOfSquare = (metres: number, accuracy: number) => ({
  lat: 48.855,
  lng: 2.37 - metres / (111_195 * Math.cos((48.855 * Math.PI) / 180)),
  accuracy,
});

/** A phone that reports positions, on a fresh socket every few reports (the server allows 10 at once). */
class Phone {
  private client: TestClient | undefined;
  private sent = 0;
  private readonly url: string;
  private readonly account: Account;
  constructor(url: string, account: Account) {
    this.url = url;
    this.account = account;
  }

  async report(position: { lat: number; lng: number; accuracy?: number }): Promise<void> {
    if (!this.client || this.sent % 8 === 0) {
      this.client?.close();
      this.client = await connect(this.url, this.account.token);
    }
    this.sent += 1;
    const ack = await this.client.emitAck('onLocationChanged', position);
    if (!ack.success) throw new Error(`report refused: ${ack.result}`);
  }

  close(): void {
    this.client?.close();
  }
}

describe.each(databases)('geofence crossings on %s', (dialect: Dialect) => {
  const w = world(dialect, {
    people: {
      alice: { role: 'member', firstName: 'Alice', lastName: 'Walker' },
      dispatcher: { role: 'dispatcher' },
      otherDispatcher: { role: 'dispatcher' },
    },
    channels: {
      field: { name: 'Field', members: ['alice', 'dispatcher'] },
      office: { name: 'Office', members: ['otherDispatcher'] },
    },
  });

  const phoneOf = (account: Account) => w.track(new Phone(w.url, account));
  const fence = async (body: object, account = w.admin) => {
    const answer = await w.app.call('/user/api/createGeofence', body, account.token);
    if (answer.status !== 200) throw new Error(JSON.stringify(answer.body));
    return answer.body.res.id as number;
  };
  /** Every alert a console got until now, as [kind, fence name]. */
  const alertsOf = async (client: TestClient) => {
    await client.flush();
    return client.all('geofenceAlert').map((alert) => [alert.kind, alert.name]);
  };
  const activities = async (type: string) =>
    (await w.app.call('/user/api/getAllActivities/', { start: 0, limit: 100, type }, w.admin.token)).body.res
      .activities;

  it('alerts once for each time a member walks into and out of a circle', async () => {
    const { admin, alice, dispatcher, otherDispatcher, field } = w;
    const depot = await fence({
      name: 'Depot',
      channelId: field.id,
      shape: { type: 'circle', ...CENTRE, radiusM: RADIUS },
    });
    const adminConsole = await w.open(admin);
    const desk = await w.open(dispatcher);
    const otherDesk = await w.open(otherDispatcher);
    const phone = phoneOf(alice);

    await phone.report(north(600, 10));
    await phone.report(north(0, 10));
    const entered = await adminConsole.next('geofenceAlert');
    expect(entered).toEqual({
      geofenceId: depot,
      name: 'Depot',
      channelId: field.id,
      userId: alice.id,
      userName: 'Alice Walker',
      kind: 'enter',
      lat: north(0).lat,
      lng: CENTRE.lng,
      at: expect.any(String),
    });
    expect(await desk.next('geofenceAlert')).toEqual(entered);
    await phone.report(north(50, 10));
    await phone.report(north(120, 10));
    await phone.report(north(600, 10));
    await phone.report(north(800, 10));
    await phone.report(north(10, 10));

    expect(await alertsOf(adminConsole)).toEqual([
      ['enter', 'Depot'],
      ['exit', 'Depot'],
      ['enter', 'Depot'],
    ]);
    expect(await alertsOf(desk)).toEqual(await alertsOf(adminConsole));
    expect(await alertsOf(otherDesk)).toEqual([]);
    const logged = await activities('geofence_enter');
    expect(logged).toHaveLength(2);
    expect(logged[0]).toMatchObject({
      type: 'geofence_enter',
      user: { id: alice.id, display_name: 'Alice Walker' },
      channel: { id: field.id, name: 'Field' },
      geofence: { id: depot, name: 'Depot' },
    });
    expect(await activities('geofence_exit')).toHaveLength(1);
  });

  it('alerts once per crossing of a polygon, only for the kinds it asks for', async () => {
    const { alice, dispatcher, field } = w;
    await fence({ name: 'Yard', channelId: field.id, shape: { type: 'polygon', points: SQUARE }, alertOn: 'enter' });
    const desk = await w.open(dispatcher);
    const phone = phoneOf(alice);
    for (const position of [westOfSquare(300, 10), inSquare, westOfSquare(300, 10), inSquare, inSquare])
      await phone.report(position);
    // Two entries; the exit between them is decided and kept, but not announced.
    expect(await alertsOf(desk)).toEqual([
      ['enter', 'Yard'],
      ['enter', 'Yard'],
    ]);
    expect(await activities('geofence_exit')).toEqual([]);
  });

  it('never alerts for a fix that wanders on the edge within its accuracy', async () => {
    const { admin, alice, field } = w;
    await fence({ name: 'Depot', channelId: field.id, shape: { type: 'circle', ...CENTRE, radiusM: RADIUS } });
    await fence({ name: 'Yard', channelId: field.id, shape: { type: 'polygon', points: SQUARE } });
    const adminConsole = await w.open(admin);
    const phone = phoneOf(alice);
    await phone.report(north(600, 8));
    // A phone standing on the circle's edge for a minute: its fixes wander a few metres either side.
    for (const offset of [-8, 9, -12, 6, -4, 11, -9, 3, -14, 12, 7, -6]) await phone.report(north(RADIUS + offset, 8));
    // Worse fixes wander farther, and say so.
    for (const offset of [-35, 30, -28, 38]) await phone.report(north(RADIUS + offset, 40));
    // No accuracy at all, on the edge.
    await phone.report(north(RADIUS - 5));
    await phone.report(north(RADIUS + 5));
    // A cell tower's guess deep inside decides nothing.
    await phone.report(north(0, 900));
    expect(await alertsOf(adminConsole)).toEqual([]);

    await phone.report(north(20, 8));
    for (const offset of [-10, 6, -3, 12, -12, 9]) await phone.report(north(RADIUS + offset, 10));
    await phone.report(north(RADIUS + 200, 10));
    // The polygon's edge too.
    await phone.report(westOfSquare(500, 10));
    for (const metres of [5, -5, 9, -9, 2]) await phone.report(westOfSquare(metres, 10));
    await phone.report(inSquare);
    expect(await alertsOf(adminConsole)).toEqual([
      ['enter', 'Depot'],
      ['exit', 'Depot'],
      ['enter', 'Yard'],
    ]);
  });

  it('tells only the administrators about a fence that watches everyone', async () => {
    const { admin, alice, dispatcher } = w;
    await fence({ name: 'City', shape: { type: 'circle', ...CENTRE, radiusM: RADIUS } });
    const adminConsole = await w.open(admin);
    const desk = await w.open(dispatcher);
    const phone = phoneOf(alice);
    await phone.report(north(900, 10));
    await phone.report(north(0, 10));
    expect(await alertsOf(adminConsole)).toEqual([['enter', 'City']]);
    expect(await alertsOf(desk)).toEqual([]);
    const [logged] = await activities('geofence_enter');
    expect(logged).toMatchObject({ channel: null, geofence: { name: 'City' } });
  });

  it('watches only the members of the fence’s channel, and only while it is active', async () => {
    const { app, admin, alice, field } = w;
    const stranger = await createMember(app, admin, { firstName: 'Sam' });
    const depot = await fence({
      name: 'Depot',
      channelId: field.id,
      shape: { type: 'circle', ...CENTRE, radiusM: RADIUS },
    });
    const adminConsole = await w.open(admin);
    const strangerPhone = phoneOf(stranger);
    await strangerPhone.report(north(600, 10));
    await strangerPhone.report(north(0, 10));
    expect(await alertsOf(adminConsole)).toEqual([]);

    await app.services.db
      .updateTable('geofences')
      .set({ active_until: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', depot)
      .execute();
    app.services.geofenceWatch.forget();
    const phone = phoneOf(alice);
    await phone.report(north(600, 10));
    await phone.report(north(0, 10));
    expect(await alertsOf(adminConsole)).toEqual([]);
    const listed = await app.call('/user/api/getGeofences', { channelId: field.id }, admin.token);
    expect(listed.body.res[0]).toMatchObject({ id: depot, active: false });
  });

  it('takes a new fence’s side from the member’s previous position', async () => {
    const { app, admin, alice, field } = w;
    const adminConsole = await w.open(admin);
    const phone = phoneOf(alice);
    await phone.report(north(700, 10));
    // Drawn while Alice is outside: walking in is a crossing.
    await fence({ name: 'Depot', channelId: field.id, shape: { type: 'circle', ...CENTRE, radiusM: RADIUS } });
    await phone.report(north(0, 10));
    // Drawn around where she already is: no crossing.
    await fence({ name: 'Around her', channelId: field.id, shape: { type: 'circle', ...north(0), radiusM: 500 } });
    await phone.report(north(10, 10));
    expect(await alertsOf(adminConsole)).toEqual([['enter', 'Depot']]);
    // A new shape forgets the sides of the old edge: drawn away from her, the next fix is outside, not an exit.
    const moved = (await app.call('/user/api/getGeofences', {}, admin.token)).body.res.find(
      (f: any) => f.name === 'Around her',
    );
    await app.call(
      '/user/api/updateGeofence',
      { id: moved.id, shape: { type: 'circle', ...north(3000), radiusM: 300 } },
      admin.token,
    );
    await phone.report(north(20, 10));
    await phone.report(north(3000, 10));
    expect(await alertsOf(adminConsole)).toEqual([
      ['enter', 'Depot'],
      ['exit', 'Depot'],
      ['enter', 'Around her'],
    ]);
  });

  it('forgets the fences of a deleted channel at once', async () => {
    const { app, admin, alice, field } = w;
    await fence({ name: 'Depot', channelId: field.id, shape: { type: 'circle', ...CENTRE, radiusM: RADIUS } });
    const phone = phoneOf(alice);
    await phone.report(north(600, 10));
    expect((await app.call('/user/api/deleteChannel', { channelId: field.id }, admin.token)).status).toBe(200);
    // The check itself, which the report path runs: the cached fence of the deleted channel is gone with it.
    const position = await app.services.positions.add(alice.id, north(0, 10));
    await expect(app.services.geofenceWatch.check(alice.id, position, [field.id])).resolves.toEqual([]);
    expect(await app.services.db.selectFrom('geofence_states').selectAll().execute()).toEqual([]);
  });

  it('remembers each member’s side across a restart', async () => {
    const { admin, alice, field } = w;
    await fence({ name: 'Depot', channelId: field.id, shape: { type: 'circle', ...CENTRE, radiusM: RADIUS } });
    let phone = phoneOf(alice);
    await phone.report(north(600, 10));
    await phone.report(north(0, 10));
    phone.close();
    await w.restart();

    const adminConsole = await w.open(admin);
    phone = phoneOf(alice);
    await phone.report(north(30, 10));
    await phone.report(north(600, 10));
    expect(await alertsOf(adminConsole)).toEqual([['exit', 'Depot']]);
  });

  it('measures distances on the Earth as a map does', () => {
    // Paris (Notre-Dame) to Lyon (Bellecour): about 392 km.
    expect(distanceM(48.853, 2.3499, 45.7578, 4.832) / 1000).toBeCloseTo(392, 0);
    expect(distanceM(north(0).lat, CENTRE.lng, north(RADIUS).lat, CENTRE.lng)).toBeCloseTo(RADIUS, 0);
  });
});
