/**
 * Functional aliases on two instances sharing one database and one Redis (issue 59): an alias taken through one
 * instance is named at once by the other (its labels are read again when told, not only every few seconds), in
 * `floor_taken` and in `getAliases`; a call to the alias made on one instance rings its holder's page on the other,
 * and one take wins when two holders of a one-holder alias take it through the two instances at once. Skipped only
 * when TEST_REDIS_URL is unset.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Cluster, startCluster } from './cluster-harness.ts';
import { type Account, databases, type TestApp } from './harness.ts';
import { connect, eventually, type TestClient } from './realtime-harness.ts';
import { cast } from './world.ts';

const redisUrl = process.env.TEST_REDIS_URL;

describe.runIf(redisUrl)('functional aliases on two instances', () => {
  describe.each(databases)('on %s', (dialect) => {
    let cluster: Cluster;
    let one: TestApp;
    let two: TestApp;
    let admin: Account;
    let desk: Account;
    let mia: Account;
    let max: Account;
    let room: string;
    const clients: TestClient[] = [];

    const online = async (url: string, account: Account) => {
      const client = await connect(url, account.token, { pushesOnce: true });
      clients.push(client);
      return client;
    };

    beforeEach(async () => {
      cluster = await startCluster(dialect);
      [one, two] = cluster.apps as [TestApp, TestApp];
      const made = await cast(one, {
        people: {
          desk: { role: 'dispatcher', firstName: 'Dana', lastName: 'Desk' },
          mia: { role: 'member', firstName: 'Mia', lastName: 'Field' },
          max: { role: 'member', firstName: 'Max', lastName: 'Field' },
        },
        channels: { north: { name: 'North', members: ['desk', 'mia', 'max'], overHttp: true } },
      });
      ({ admin, desk, mia, max } = made);
      room = made.north.rtcSession;
    });
    afterEach(async () => {
      for (const client of clients.splice(0)) client.close();
      await cluster.close();
    });

    it('names a holder who took the alias through the other instance, and rings it there', async () => {
      const aliasId = (
        await one.call('/user/api/createAlias', { name: 'Chef de quart', takeRoles: ['member'] }, admin.token)
      ).body.res.id;
      const deskSocket = await online(cluster.urls[1] as string, desk);
      const miaSocket = await online(cluster.urls[1] as string, mia);
      expect((await one.call('/user/api/takeAlias', { aliasId }, mia.token)).status).toBe(200);
      await eventually(async () => two.services.aliasLabels.of(mia.id) === 'Chef de quart', 'instance two knows it');
      const [listed] = (await two.call('/user/api/getAliases', {}, desk.token)).body.res;
      expect(listed.holders).toMatchObject([{ userId: mia.id }]);

      for (const socket of [deskSocket, miaSocket])
        expect(await socket.emitAck('join_room', { room, mode: 'talk' })).toMatchObject({ success: true });
      expect(await miaSocket.emitAck('floor_request', { room })).toMatchObject({ granted: true });
      expect(await deskSocket.next('floor_taken', (taken) => taken.room === room)).toMatchObject({
        userId: mia.id,
        alias: 'Chef de quart',
      });
      miaSocket.socket.emit('floor_release', { room });

      const { callId } = (await one.call('/user/api/startPrivateCall', { aliasId }, desk.token)).body.res;
      expect(await miaSocket.next('incomingCall')).toMatchObject({ callId, alias: 'Chef de quart' });
    });

    it('lets one take win when two people take a one-holder alias through the two instances at once', async () => {
      const aliasId = (
        await one.call('/user/api/createAlias', { name: 'Logisticien', takeRoles: ['member'] }, admin.token)
      ).body.res.id;
      const [byMia, byMax] = await Promise.all([
        one.call('/user/api/takeAlias', { aliasId }, mia.token),
        two.call('/user/api/takeAlias', { aliasId }, max.token),
      ]);
      expect([byMia.status, byMax.status].sort()).toEqual([200, 409]);
      const [listed] = (await one.call('/user/api/getAliases', {}, admin.token)).body.res;
      expect(listed.holders).toHaveLength(1);
    });
  });
});
