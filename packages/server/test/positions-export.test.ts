/**
 * Exports of trails (issue 28): GPX 1.1 and GeoJSON (RFC 7946), one track per user, streamed. The GPX is read
 * by a real XML parser (saxes, namespaces on) and checked against the rules of the GPX 1.1 schema for every
 * element it uses (the schema file itself is on no registry this project reaches); the GeoJSON against
 * RFC 7946's rules for the objects it uses. Both must hold exactly the points kept, and both are read back by
 * another tool, Debian's GPSBabel (issue 36): the same points, and in the GPX the same times.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { TALKGROUP_GPX_NS } from '../src/positions/export.ts';
import {
  child,
  childrenNamed,
  type Element,
  geojsonProblems,
  gpsbabelRead,
  gpxProblems,
  parseXml,
  sixDecimals,
} from './gpx-checks.ts';
import { type Account, databases } from './harness.ts';
import { world } from './world.ts';

describe.each(databases)('position exports on %s', (dialect) => {
  const w = world(dialect, {
    people: {
      alice: { role: 'member', firstName: 'Zoé', lastName: `<&> "O'Neil"`, mapRight: true },
      bob: { role: 'member', firstName: 'Bob', lastName: 'Single' },
      carol: { role: 'member', firstName: 'Carol', lastName: 'Still' },
      dispatcher: { role: 'dispatcher' },
      otherDispatcher: { role: 'dispatcher' },
    },
    channels: { field: { name: 'Field', members: ['alice', 'bob', 'carol', 'dispatcher'] } },
  });
  const from = '2026-05-01T00:00:00.000Z';
  const to = '2026-05-02T00:00:00.000Z';
  const alicePoints = [
    { lat: 48.8566, lng: 2.3522, accuracy: 8.5, at: '2026-05-01T08:00:00.000Z' },
    { lat: 48.857, lng: 2.353, accuracy: null, at: '2026-05-01T08:00:10.000Z' },
    { lat: -33.8688, lng: -179.5, accuracy: 12, at: '2026-05-01T08:00:20.000Z' },
  ];

  async function seed(
    userId: number,
    points: Array<{ lat: number; lng: number; accuracy: number | null; at: string }>,
  ) {
    await w.app.services.db
      .insertInto('user_positions')
      .values(points.map((p) => ({ user_id: userId, lat: p.lat, lng: p.lng, accuracy: p.accuracy, created_at: p.at })))
      .execute();
  }

  const exportOf = async (token: string | undefined, body: object) => {
    const response = await w.app.fastify.inject({
      method: 'POST',
      url: '/user/api/exportPositions',
      headers: token ? { 'x-access-token': token } : {},
      payload: body,
    });
    return response;
  };

  beforeEach(async () => {
    await seed(w.alice.id, [
      ...alicePoints,
      // Outside [from, to): left out.
      { lat: 1, lng: 1, accuracy: null, at: '2026-04-30T23:59:59.999Z' },
      { lat: 2, lng: 2, accuracy: null, at: to },
    ]);
    await seed(w.bob.id, [{ lat: 45.75, lng: 4.85, accuracy: 30, at: '2026-05-01T12:00:00.000Z' }]);
  });

  it('writes a GPX 1.1 file, a track per user, holding exactly the points kept', async () => {
    const { alice, bob, carol, dispatcher, field } = w;
    const response = await exportOf(dispatcher.token, { channelId: field.id, from, to, format: 'gpx' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/gpx+xml; charset=utf-8');
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="positions-.+\.gpx"$/);
    expect(response.headers['content-length']).toBeUndefined();
    const gpx = parseXml(response.body);
    expect(gpxProblems(gpx)).toEqual([]);
    const tracks = childrenNamed(gpx, 'trk');
    // Every member of the channel, the dispatcher included, by id.
    expect(tracks.map((trk) => child(trk, 'name')?.text)).toEqual([
      `Zoé <&> "O'Neil"`,
      'Bob Single',
      'Carol Still',
      expect.stringMatching(/^Rita dispatcher/),
    ]);
    expect(tracks.map((trk) => child(trk, 'type')?.text)).toEqual(
      [alice, bob, carol, dispatcher].map((account) => `user ${account.id}`),
    );
    const points = (trk: Element) =>
      childrenNamed(child(trk, 'trkseg') as Element, 'trkpt').map((pt) => {
        const accuracy = child(pt, 'extensions')?.children.find(
          (c) => c.ns === TALKGROUP_GPX_NS && c.name === 'accuracy',
        );
        return {
          lat: Number(pt.attributes.lat),
          lng: Number(pt.attributes.lon),
          accuracy: accuracy ? Number(accuracy.text) : null,
          at: child(pt, 'time')?.text,
        };
      });
    expect(points(tracks[0])).toEqual(alicePoints);
    expect(points(tracks[1])).toEqual([{ lat: 45.75, lng: 4.85, accuracy: 30, at: '2026-05-01T12:00:00.000Z' }]);
    expect(points(tracks[2])).toEqual([]);
    // The checker is not blind: an element out of its place is caught.
    const broken = parseXml(response.body.replace('<trkseg>', '<trkseg><name>x</name>'));
    expect(gpxProblems(broken)).toContain('gpx/trk/trkseg: name is not allowed here');
    // Another tool reads the same points at the same times.
    expect(await gpsbabelRead('gpx', response.body)).toEqual(
      [...alicePoints, { lat: 45.75, lng: 4.85, at: '2026-05-01T12:00:00.000Z' }].map(sixDecimals),
    );
  });

  it('writes GeoJSON (RFC 7946): a LineString per user with points, a Point for one, times and accuracies', async () => {
    const { admin, alice, bob, carol } = w;
    const response = await exportOf(admin.token, {
      userIds: [alice.id, bob.id, carol.id],
      from,
      to,
      format: 'geojson',
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/geo+json; charset=utf-8');
    const collection = JSON.parse(response.body);
    expect(Object.keys(collection).sort()).toEqual(['features', 'type']);
    expect(geojsonProblems(collection)).toEqual([]);
    expect(geojsonProblems({ ...collection, title: 'x' })).toEqual([
      "FeatureCollection: member title is not RFC 7946's",
    ]);
    // Another tool reads the same points, longitude and latitude each in its place: the line, then the point.
    expect(await gpsbabelRead('geojson', response.body)).toEqual(
      [...alicePoints.map(({ lat, lng }) => ({ lat, lng })), { lat: 45.75, lng: 4.85 }].map(sixDecimals),
    );
    expect(collection.type).toBe('FeatureCollection');
    const isPosition = (p: unknown) =>
      Array.isArray(p) && p.length === 2 && p[0] >= -180 && p[0] <= 180 && p[1] >= -90 && p[1] <= 90;
    for (const feature of collection.features) {
      expect(feature.type).toBe('Feature');
      expect(['LineString', 'Point']).toContain(feature.geometry.type);
      if (feature.geometry.type === 'LineString') {
        expect(feature.geometry.coordinates.length).toBeGreaterThanOrEqual(2);
        expect(feature.geometry.coordinates.every(isPosition)).toBe(true);
      } else expect(isPosition(feature.geometry.coordinates)).toBe(true);
    }
    const [zoe, single] = collection.features;
    expect(collection.features).toHaveLength(2);
    expect(zoe).toMatchObject({
      id: alice.id,
      properties: {
        userId: alice.id,
        name: `Zoé <&> "O'Neil"`,
        times: alicePoints.map((p) => p.at),
        accuracies: alicePoints.map((p) => p.accuracy),
      },
      geometry: { type: 'LineString', coordinates: alicePoints.map((p) => [p.lng, p.lat]) },
    });
    expect(single).toMatchObject({
      properties: { name: 'Bob Single', times: ['2026-05-01T12:00:00.000Z'], accuracies: [30] },
      geometry: { type: 'Point', coordinates: [4.85, 45.75] },
    });
  });

  it('streams a long trail whole, in order', async () => {
    const { carol } = w;
    const start = Date.parse(from);
    const many = Array.from({ length: 6000 }, (_, i) => ({
      lat: 47 + i / 1e5,
      lng: 3 + i / 1e5,
      accuracy: i % 3 === 0 ? null : i % 50,
      at: new Date(start + 3600_000 + i * 1000).toISOString(),
    }));
    for (let i = 0; i < many.length; i += 1000) await seed(carol.id, many.slice(i, i + 1000));
    const geojson = JSON.parse(
      (await exportOf(carol.token, { userIds: [carol.id], from, to, format: 'geojson' })).body,
    );
    expect(geojson.features[0].geometry.coordinates).toEqual(many.map((p) => [p.lng, p.lat]));
    expect(geojson.features[0].properties.times).toEqual(many.map((p) => p.at));
    expect(geojson.features[0].properties.accuracies).toEqual(many.map((p) => p.accuracy));
    const gpx = parseXml((await exportOf(carol.token, { userIds: [carol.id], from, to, format: 'gpx' })).body);
    expect(gpxProblems(gpx)).toEqual([]);
    expect(childrenNamed(child(childrenNamed(gpx, 'trk')[0], 'trkseg') as Element, 'trkpt')).toHaveLength(6000);
    const read = await gpsbabelRead(
      'gpx',
      (await exportOf(carol.token, { userIds: [carol.id], from, to, format: 'gpx' })).body,
    );
    expect(read).toEqual(many.map(sixDecimals));
  });

  it('follows the trails rule: oneself, administrators, dispatchers of the channel', async () => {
    const { admin, alice, bob, carol, dispatcher, otherDispatcher, field } = w;
    const status = async (account: Account | undefined, body: object) => {
      const response = await exportOf(account?.token, { from, to, format: 'gpx', ...body });
      return response.statusCode === 200 ? 200 : `${response.statusCode} ${response.json().code}`;
    };
    expect(await status(undefined, { userIds: [alice.id] })).toBe('401 token_missing');
    expect(await status(alice, { userIds: [alice.id] })).toBe(200);
    expect(await status(alice, { userIds: [alice.id, bob.id] })).toBe('403 not_allowed');
    expect(await status(alice, { channelId: field.id })).toBe('403 not_allowed');
    expect(await status(otherDispatcher, { channelId: field.id })).toBe('403 not_channel_member');
    expect(await status(otherDispatcher, { userIds: [bob.id] })).toBe('403 not_allowed');
    expect(await status(dispatcher, { userIds: [bob.id, carol.id] })).toBe(200);
    expect(await status(admin, { userIds: [999_999] })).toBe('404 user_not_found');
    const only = await exportOf(dispatcher.token, {
      channelId: field.id,
      userIds: [bob.id],
      from,
      to,
      format: 'geojson',
    });
    expect(JSON.parse(only.body).features.map((f: any) => f.id)).toEqual([bob.id]);
  });

  it('refuses a bad body with a 400 that names the field', async () => {
    const { admin, alice } = w;
    const refused = async (body: object) => {
      const response = await exportOf(admin.token, body);
      expect(response.statusCode).toBe(400);
      return response.json().result as string;
    };
    expect(await refused({ from, to, format: 'gpx' })).toMatch(/userIds: name the users \(userIds\) or a channel/);
    expect(await refused({ userIds: [alice.id], from: to, to: from, format: 'gpx' })).toMatch(/to: must be after from/);
    expect(await refused({ userIds: [alice.id], from, to, format: 'kml' })).toMatch(/format/);
    expect(await refused({ userIds: [], from, to, format: 'gpx' })).toMatch(/userIds/);
    expect(await refused({ userIds: [alice.id], to, format: 'gpx' })).toMatch(/from/);
  });
});
