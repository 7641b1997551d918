/**
 * Area channels (issue 59): a channel follows a zone (`areaGeofenceId`). A user with map access whose phone
 * reports a position inside it (over its socket) becomes a member at that report, listening and allowed to talk,
 * and its socket hears that its channels changed; positions outside for AREA_EXIT_SECONDS (lowered here), or
 * none for AREA_SILENCE_MINUTES, take it out again. Members added by hand stay; users without map access are
 * never added; entries and exits are activities; the dispatch console reads who is in the zone now.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/config.ts';
import type { Dialect } from '../src/db/open.ts';
import {
  type Account,
  buildTestApp,
  createMember,
  databases,
  signUpAdmin,
  type TestApp,
  testStorage,
} from './harness.ts';
import { connect, eventually, listen, type TestClient } from './realtime-harness.ts';

const CENTRE = { lat: 45.764, lng: 4.8357 };
const RADIUS = 300;
/** A point `metres` north of the centre, reported with a good fix. */
const north = (metres: number) => ({ lat: CENTRE.lat + metres / 111_195, lng: CENTRE.lng, accuracy: 10 });
/** A square of about 1.1 km, east of the circle. */
const SQUARE: Array<[number, number]> = [
  [45.75, 4.86],
  [45.76, 4.86],
  [45.76, 4.875],
  [45.75, 4.875],
];
const inSquare = { lat: 45.755, lng: 4.8675, accuracy: 10 };

/** Lowered for the tests: out of the zone for 1 s takes a member out; the sweep looks every 100 ms. */
const TIMINGS = { exitMs: 1000, silenceMs: 60 * 60_000, sweepMs: 100 };

describe.each(databases)('area channels on %s', (dialect: Dialect) => {
  let storage: ReturnType<typeof testStorage>;
  let app: TestApp;
  let url: string;
  let admin: Account;
  let alice: Account;
  let zone: number;
  const clients: TestClient[] = [];

  const open = async (account: Account) => {
    const client = await connect(url, account.token);
    clients.push(client);
    return client;
  };
  const report = async (client: TestClient, position: object) => {
    const ack = await client.emitAck('onLocationChanged', position);
    expect(ack.success).toBe(true);
  };
  const myChannels = async (account: Account): Promise<number[]> =>
    (await app.call('/user/api/getMyChannels', {}, account.token)).body.res.map((c: { id: number }) => c.id);
  const activities = async (type: string) =>
    (await app.call('/user/api/getAllActivities/', { start: 0, limit: 100, type }, admin.token)).body.res.activities;
  const areaMembers = async (channelId: number) => {
    const answer = await app.call('/user/api/getAreaMembers', { channelId }, admin.token);
    expect(answer.status).toBe(200);
    return answer.body.res as Array<{ userId: number; membership: string | null; outsideSince: string | null }>;
  };
  const createArea = async (name: string, areaGeofenceId: number | null) => {
    const answer = await app.call('/user/api/createChannel', { channelName: name, areaGeofenceId }, admin.token);
    expect(answer.status).toBe(200);
    return answer.body.res.id as number;
  };
  /** Moves a stay's times back, as if `ms` had passed, and lets the sweep look. */
  const age = async (channelId: number, userId: number, column: 'outside_since' | 'last_report_at', ms: number) => {
    await app.services.db
      .updateTable('area_presence')
      .set({ [column]: new Date(Date.now() - ms).toISOString() })
      .where('channel_id', '=', channelId)
      .where('user_id', '=', userId)
      .execute();
    await app.services.areaChannels.sweepNow();
  };

  beforeEach(async () => {
    storage = testStorage(dialect);
    app = await buildTestApp(storage, { areaChannels: TIMINGS });
    url = await listen(app);
    admin = await signUpAdmin(app);
    alice = await createMember(app, admin, { firstName: 'Alice', lastName: 'Area', mapRight: true });
    const fence = await app.call(
      '/user/api/createGeofence',
      { name: 'Depot', shape: { type: 'circle', ...CENTRE, radiusM: RADIUS } },
      admin.token,
    );
    expect(fence.status).toBe(200);
    zone = fence.body.res.id;
  });
  afterEach(async () => {
    for (const client of clients.splice(0)) client.close();
    await app.fastify.close();
    await storage.remove();
  });

  it('takes in a member walking into the zone at once, and lets it go a while after it walks out', async () => {
    const channelId = await createArea('Depot area', zone);
    const listed = (await app.call('/user/api/getAllChannels', {}, admin.token)).body.res;
    expect(listed.find((c: { id: number }) => c.id === channelId)).toMatchObject({ areaGeofenceId: zone });
    const phone = await open(alice);

    await report(phone, north(900));
    expect(await myChannels(alice)).not.toContain(channelId);
    await report(phone, north(10));
    // Her socket hears of it as of an administrator's edit: /talk reads its channels again, and scans the new one.
    await phone.next('onChannelsChanged');
    expect(await myChannels(alice)).toContain(channelId);
    const rights = (await app.call('/user/api/getUsersInChannel', { channelId }, admin.token)).body.res;
    expect(rights).toEqual([expect.objectContaining({ id: alice.id, canTalk: true })]);
    expect(await areaMembers(channelId)).toEqual([
      expect.objectContaining({ userId: alice.id, display_name: 'Alice Area', membership: 'area', outsideSince: null }),
    ]);
    const [entered] = await activities('area_enter');
    expect(entered).toMatchObject({
      type: 'area_enter',
      user: { id: alice.id },
      channel: { id: channelId, name: 'Depot area' },
      geofence: { id: zone, name: 'Depot' },
    });
    // More positions inside change nothing.
    await report(phone, north(20));
    expect(await activities('area_enter')).toHaveLength(1);

    const walkedOut = Date.now();
    await report(phone, north(1200));
    await report(phone, north(1300));
    // Still a member right after: the exit waits for its delay, from the first position outside.
    expect(await myChannels(alice)).toContain(channelId);
    expect((await areaMembers(channelId))[0].outsideSince).not.toBeNull();
    await phone.next('onChannelsChanged');
    expect(Date.now() - walkedOut).toBeGreaterThanOrEqual(TIMINGS.exitMs);
    expect(await myChannels(alice)).not.toContain(channelId);
    expect(await areaMembers(channelId)).toEqual([]);
    expect(await activities('area_exit')).toEqual([
      expect.objectContaining({
        user: expect.objectContaining({ id: alice.id }),
        geofence: { id: zone, name: 'Depot' },
      }),
    ]);
  });

  it('takes in at once, when a channel is given the zone, those whose latest position is inside', async () => {
    const bob = await createMember(app, admin, { firstName: 'Bob', mapRight: true });
    await report(await open(alice), north(0));
    await report(await open(bob), north(0));
    // Bob's phone said nothing since long before the silence's length: it does not count.
    await app.services.db
      .updateTable('user_positions')
      .set({ created_at: new Date(Date.now() - 2 * TIMINGS.silenceMs).toISOString() })
      .where('user_id', '=', bob.id)
      .execute();
    const channelId = await createArea('Depot area', zone);
    expect(await myChannels(alice)).toContain(channelId);
    expect(await myChannels(bob)).not.toContain(channelId);
    expect(await areaMembers(channelId)).toEqual([expect.objectContaining({ userId: alice.id, membership: 'area' })]);
  });

  it('keeps a member who comes back inside before the delay', async () => {
    const channelId = await createArea('Depot area', zone);
    const phone = await open(alice);
    await report(phone, north(0));
    await report(phone, north(1000));
    await report(phone, north(5));
    await app.services.areaChannels.sweepNow();
    expect(await myChannels(alice)).toContain(channelId);
    expect(await areaMembers(channelId)).toEqual([expect.objectContaining({ userId: alice.id, outsideSince: null })]);
    expect(await activities('area_exit')).toEqual([]);
  });

  it('follows a polygon too, and counts silence as leaving', async () => {
    const yard = await app.call(
      '/user/api/createGeofence',
      { name: 'Yard', shape: { type: 'polygon', points: SQUARE } },
      admin.token,
    );
    const channelId = await createArea('Yard area', yard.body.res.id);
    const phone = await open(alice);
    await report(phone, inSquare);
    expect(await myChannels(alice)).toContain(channelId);
    // Nothing reported for the silence's length (15 minutes by default): gone, though her last position was inside.
    await age(channelId, alice.id, 'last_report_at', TIMINGS.silenceMs - 60_000);
    expect(await myChannels(alice)).toContain(channelId);
    await age(channelId, alice.id, 'last_report_at', TIMINGS.silenceMs + 1000);
    expect(await myChannels(alice)).not.toContain(channelId);
    expect(await activities('area_exit')).toHaveLength(1);
  });

  it('never takes back a member the administrator added by hand', async () => {
    const bob = await createMember(app, admin, { firstName: 'Bob', mapRight: true });
    const channelId = await createArea('Depot area', zone);
    expect((await app.call('/user/api/addUserToChannel', { userId: bob.id, channelId }, admin.token)).status).toBe(200);
    const bobPhone = await open(bob);
    const alicePhone = await open(alice);
    await report(bobPhone, north(0));
    await report(alicePhone, north(0));
    // Alice came in by the area; the administrator then adds her by hand too: she stays as well.
    expect((await app.call('/user/api/addUserToChannel', { userId: alice.id, channelId }, admin.token)).status).toBe(
      200,
    );
    expect((await areaMembers(channelId)).map((m) => m.membership)).toEqual(['hand', 'hand']);
    await report(bobPhone, north(2000));
    await report(alicePhone, north(2000));
    await age(channelId, bob.id, 'outside_since', 5000);
    await age(channelId, alice.id, 'outside_since', 5000);
    expect(await myChannels(bob)).toContain(channelId);
    expect(await myChannels(alice)).toContain(channelId);
    // Out of the zone all the same: the console no longer shows them in it, and the log says they left.
    expect(await areaMembers(channelId)).toEqual([]);
    expect(await activities('area_exit')).toHaveLength(2);
  });

  it('does not take in a user without map access', async () => {
    const carol = await createMember(app, admin, { firstName: 'Carol', mapRight: false });
    const channelId = await createArea('Depot area', zone);
    const phone = await open(carol);
    await report(phone, north(0));
    await report(phone, north(5));
    expect(await myChannels(carol)).not.toContain(channelId);
    expect(await areaMembers(channelId)).toEqual([]);
    expect(await activities('area_enter')).toEqual([]);
  });

  it('lets everyone in the old zone go when the channel’s zone is cleared, and keeps the exits across a restart', async () => {
    const channelId = await createArea('Depot area', zone);
    const bob = await createMember(app, admin, { firstName: 'Bob', mapRight: true });
    await report(await open(alice), north(0));
    await report(await open(bob), north(0));
    expect(await myChannels(bob)).toContain(channelId);

    // A restart: the stays are in the database, the new instance's sweep ends them.
    for (const client of clients.splice(0)) client.close();
    await app.fastify.close();
    app = await buildTestApp(storage, { areaChannels: TIMINGS });
    url = await listen(app);
    await age(channelId, bob.id, 'outside_since', 5000);
    await eventually(async () => !(await myChannels(bob)).includes(channelId), 'Bob taken out after the restart');

    const cleared = await app.call(
      '/user/api/updateChannel',
      { channelId, channelName: 'Depot area', areaGeofenceId: null },
      admin.token,
    );
    expect(cleared.status).toBe(200);
    expect(cleared.body.res.areaGeofenceId).toBeNull();
    const row = (await app.call('/user/api/getAllChannels', {}, admin.token)).body.res.find(
      (c: { id: number }) => c.id === channelId,
    );
    expect(row.areaGeofenceId).toBeNull();
    expect(await myChannels(alice)).not.toContain(channelId);
    expect(await activities('area_exit')).toHaveLength(2);
    // No zone any more: a position there takes nobody in.
    await report(await open(alice), north(0));
    expect(await myChannels(alice)).not.toContain(channelId);
  });

  it('lets everyone go when the zone itself is deleted', async () => {
    const channelId = await createArea('Depot area', zone);
    await report(await open(alice), north(0));
    expect(await myChannels(alice)).toContain(channelId);
    expect((await app.call('/user/api/deleteGeofence', { id: zone }, admin.token)).status).toBe(200);
    const row = (await app.call('/user/api/getAllChannels', {}, admin.token)).body.res.find(
      (c: { id: number }) => c.id === channelId,
    );
    expect(row.areaGeofenceId).toBeNull();
    await app.services.areaChannels.sweepNow();
    expect(await myChannels(alice)).not.toContain(channelId);
    expect(await activities('area_exit')).toEqual([
      expect.objectContaining({ channel: { id: channelId, name: 'Depot area' } }),
    ]);
  });

  it('waits 60 s outside and 15 minutes of silence by default', () => {
    expect(loadConfig({ DATA_DIR: storage.dataDir }).areaChannels).toMatchObject({
      exitMs: 60_000,
      silenceMs: 900_000,
    });
  });

  it('refuses a zone that does not exist, with a sentence, and changes nothing', async () => {
    const created = await app.call(
      '/user/api/createChannel',
      { channelName: 'Nowhere', areaGeofenceId: 99999 },
      admin.token,
    );
    expect(created.status).toBe(400);
    expect(created.body).toMatchObject({ success: false, result: expect.stringMatching(/areaGeofenceId/) });
    const names = (await app.call('/user/api/getAllChannels', {}, admin.token)).body.res.map(
      (c: { name: string }) => c.name,
    );
    expect(names).not.toContain('Nowhere');
    expect(
      (await app.call('/user/api/createChannel', { channelName: 'Bad', areaGeofenceId: 'north' }, admin.token)).status,
    ).toBe(400);

    const channelId = await createArea('Depot area', zone);
    const updated = await app.call(
      '/user/api/updateChannel',
      { channelId, channelName: 'Depot area', areaGeofenceId: 424242 },
      admin.token,
    );
    expect(updated.status).toBe(400);
    const channel = (await app.call('/user/api/getAllChannels', {}, admin.token)).body.res.find(
      (c: { id: number }) => c.id === channelId,
    );
    expect(channel.areaGeofenceId).toBe(zone);
    // Without the field: unchanged; a channel created without it follows no zone.
    const renamed = await app.call('/user/api/updateChannel', { channelId, channelName: 'Depot zone' }, admin.token);
    expect(renamed.body.res.areaGeofenceId).toBe(zone);
    const plain = await app.call('/user/api/createChannel', { channelName: 'Plain' }, admin.token);
    expect(plain.body.res.areaGeofenceId).toBeNull();
    expect((await app.call('/user/api/getAreaMembers', { channelId: 0 }, admin.token)).status).toBe(400);
    expect((await app.call('/user/api/getAreaMembers', { channelId }, alice.token)).status).toBe(403);
  });
});
