/**
 * Area channels across instances (issue 59): two apps on one database and one Redis. A zone given to a channel
 * on one instance is followed at once by the other, whose memory of the area channels was read before; a member
 * walking in through both instances at once enters once; walking out, it leaves once, though both instances
 * sweep. Skipped only when TEST_REDIS_URL is unset.
 */
import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Dialect } from '../src/db/open.ts';
import { type Cluster, startCluster } from './cluster-harness.ts';
import { type Account, createMember, databases, signUpAdmin, type TestApp } from './harness.ts';
import { connect, eventually, type TestClient } from './realtime-harness.ts';

const redisUrl = process.env.TEST_REDIS_URL;
const CENTRE = { lat: 43.2965, lng: 5.3698 };
const north = (metres: number) => ({ lat: CENTRE.lat + metres / 111_195, lng: CENTRE.lng, accuracy: 10 });
const TIMINGS = { exitMs: 800, silenceMs: 60 * 60_000, sweepMs: 100 };

describe.runIf(redisUrl)('area channels on several instances sharing Redis', () => {
  describe.each(databases)('on %s', (dialect: Dialect) => {
    let cluster: Cluster;
    let one: TestApp;
    let two: TestApp;
    let admin: Account;
    let alice: Account;
    const clients: TestClient[] = [];

    const open = async (url: string, account: Account) => {
      const client = await connect(url, account.token);
      clients.push(client);
      return client;
    };
    const report = async (client: TestClient, position: object) =>
      expect((await client.emitAck('onLocationChanged', position)).success).toBe(true);
    const mine = async () =>
      (await one.call('/user/api/getMyChannels', {}, alice.token)).body.res.map((c: { id: number }) => c.id);
    const logged = async (type: string) =>
      (await one.call('/user/api/getAllActivities/', { start: 0, limit: 50, type }, admin.token)).body.res.activities;

    beforeEach(async () => {
      cluster = await startCluster(dialect, { overrides: { areaChannels: TIMINGS } });
      [one, two] = cluster.apps;
      admin = await signUpAdmin(one);
      alice = await createMember(one, admin, { firstName: 'Alice', lastName: 'Quai', mapRight: true });
    });
    afterEach(async () => {
      for (const client of clients.splice(0)) client.close();
      await cluster.close();
    });

    it('follows a zone given on the other instance, and enters and leaves once', async () => {
      const phoneOne = await open(cluster.urls[0], alice);
      const phoneTwo = await open(cluster.urls[1], alice);
      const consoleOnTwo = await open(cluster.urls[1], admin);
      // Instance two reads the area channels (none yet) before the zone is given on instance one.
      await report(phoneTwo, north(900));
      const fence = await one.call(
        '/user/api/createGeofence',
        { name: 'Quay', shape: { type: 'circle', ...CENTRE, radiusM: 200 } },
        admin.token,
      );
      const created = await one.call(
        '/user/api/createChannel',
        { channelName: `Quay ${randomBytes(3).toString('hex')}`, areaGeofenceId: fence.body.res.id },
        admin.token,
      );
      expect(created.status).toBe(200);
      const channelId = created.body.res.id as number;
      await consoleOnTwo.next('onChannelsChanged');

      // Walking in through both instances at once: one entry.
      await Promise.all([report(phoneOne, north(5)), report(phoneTwo, north(10))]);
      await eventually(async () => (await mine()).includes(channelId), 'Alice in the area channel');
      expect(await logged('area_enter')).toHaveLength(1);

      await report(phoneTwo, north(1500));
      await eventually(async () => !(await mine()).includes(channelId), 'Alice out of the area channel');
      // Both instances sweep: one exit all the same.
      await Promise.all([one.services.areaChannels.sweepNow(), two.services.areaChannels.sweepNow()]);
      expect(await logged('area_exit')).toHaveLength(1);
      expect((await two.call('/user/api/getAreaMembers', { channelId }, admin.token)).body.res).toEqual([]);
    });
  });
});
