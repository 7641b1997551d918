/**
 * Geofences across instances (issue 28): two apps on one database and one Redis. A crossing reported to one
 * instance reaches the consoles connected to the other (the Redis adapter carries it) once; a fence drawn on
 * one instance is watched at once by the other, whose cache had read the fences before. Skipped only when
 * TEST_REDIS_URL is unset.
 */
import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Dialect } from '../src/db/open.ts';
import { type Cluster, startCluster } from './cluster-harness.ts';
import { type Account, databases, type TestApp } from './harness.ts';
import { connect, type TestClient } from './realtime-harness.ts';
import { cast } from './world.ts';

const redisUrl = process.env.TEST_REDIS_URL;
const CENTRE = { lat: 43.2965, lng: 5.3698 };
const north = (metres: number) => ({ lat: CENTRE.lat + metres / 111_195, lng: CENTRE.lng, accuracy: 10 });

describe.runIf(redisUrl)('geofences on several instances sharing Redis', () => {
  describe.each(databases)('on %s', (dialect: Dialect) => {
    let cluster: Cluster;
    let one: TestApp;
    let urlOne: string;
    let urlTwo: string;
    let admin: Account;
    let alice: Account;
    let dispatcher: Account;
    let channelId: number;
    const clients: TestClient[] = [];

    const open = async (url: string, account: Account) => {
      const client = await connect(url, account.token);
      clients.push(client);
      return client;
    };
    const alertsOf = async (client: TestClient) => {
      await client.flush();
      return client.all('geofenceAlert').map((alert) => [alert.kind, alert.name, alert.userId]);
    };

    beforeEach(async () => {
      cluster = await startCluster(dialect);
      [one] = cluster.apps;
      [urlOne, urlTwo] = cluster.urls;
      const made = await cast(one, {
        people: { alice: { role: 'member', firstName: 'Alice', lastName: 'Roux' }, dispatcher: { role: 'dispatcher' } },
        channels: { port: { name: `Port ${randomBytes(4).toString('hex')}`, members: ['alice', 'dispatcher'] } },
      });
      ({ admin, alice, dispatcher } = made);
      channelId = made.port.id;
    });
    afterEach(async () => {
      for (const client of clients.splice(0)) client.close();
      await cluster.close();
    });

    it('pushes a crossing reported to one instance to the consoles of the other, once', async () => {
      const adminConsole = await open(urlOne, admin);
      const desk = await open(urlOne, dispatcher);
      const phone = await open(urlTwo, alice);
      const consoleOnTwo = await open(urlTwo, admin);
      // Instance two reads the fences (none yet) before one is drawn on instance one.
      expect((await phone.emitAck('onLocationChanged', north(800))).success).toBe(true);
      const drawn = await one.call(
        '/user/api/createGeofence',
        { name: 'Quay', channelId, shape: { type: 'circle', ...CENTRE, radiusM: 150 } },
        admin.token,
      );
      expect(drawn.status).toBe(200);
      // Instance one tells instance two to drop its fences before it pushes the change, on the same Redis
      // connection: once a console on instance two has the push, instance two has dropped them.
      await consoleOnTwo.next('geofencesChanged');
      expect((await phone.emitAck('onLocationChanged', north(0))).success).toBe(true);
      expect(await adminConsole.next('geofenceAlert')).toMatchObject({
        geofenceId: drawn.body.res.id,
        kind: 'enter',
        userId: alice.id,
        userName: 'Alice Roux',
      });
      expect((await phone.emitAck('onLocationChanged', north(900))).success).toBe(true);
      await desk.next('geofenceAlert', (alert) => alert.kind === 'exit');
      expect(await alertsOf(adminConsole)).toEqual([
        ['enter', 'Quay', alice.id],
        ['exit', 'Quay', alice.id],
      ]);
      expect(await alertsOf(desk)).toEqual(await alertsOf(adminConsole));
    });

    it('alerts once when the same member reports to both instances at once', async () => {
      await one.call(
        '/user/api/createGeofence',
        { name: 'Quay', channelId, shape: { type: 'circle', ...CENTRE, radiusM: 150 } },
        admin.token,
      );
      const adminConsole = await open(urlOne, admin);
      const phoneOne = await open(urlOne, alice);
      const phoneTwo = await open(urlTwo, alice);
      expect((await phoneOne.emitAck('onLocationChanged', north(700))).success).toBe(true);
      expect((await phoneTwo.emitAck('onLocationChanged', north(700))).success).toBe(true);
      // Two devices of Alice's walk in together: each instance decides "inside", only one records the change.
      const acks = await Promise.all([
        phoneOne.emitAck('onLocationChanged', north(5)),
        phoneTwo.emitAck('onLocationChanged', north(10)),
      ]);
      expect(acks.every((ack) => ack.success)).toBe(true);
      expect(await alertsOf(adminConsole)).toEqual([['enter', 'Quay', alice.id]]);
    });
  });
});
