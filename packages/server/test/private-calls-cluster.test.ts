/**
 * Private calls on two instances sharing one database and one Redis (issue 36): one call per person is the
 * database's (call_parties), whatever instance each caller reaches. Two callers on two instances ringing one
 * person at the same instant: one rings, the other is told busy with a sentence that names nobody. Crossed calls
 * made at the same instant on two instances: one call, answered, pushed to both parties' sockets. Skipped only
 * when TEST_REDIS_URL is unset.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Cluster, startCluster } from './cluster-harness.ts';
import { type Account, createMember, databases, signUpAdmin, type TestApp } from './harness.ts';
import { connect, type TestClient } from './realtime-harness.ts';
import { createWithRole } from './role-fixtures.ts';

const redisUrl = process.env.TEST_REDIS_URL;
const BUSY = 'Busy: this person cannot take your call now. Try again later.';
/** Races per test: each caller starts one call a round, under the limit of 10 a minute. */
const ROUNDS = 8;

describe.runIf(redisUrl)('private calls on two instances', () => {
  describe.each(databases)('on %s', (dialect) => {
    let cluster: Cluster;
    let one: TestApp;
    let two: TestApp;
    let admin: Account;
    let desk: Account;
    let mia: Account;
    const clients: TestClient[] = [];

    const online = async (url: string, account: Account) => {
      const client = await connect(url, account.token, { pushesOnce: true });
      clients.push(client);
      return client;
    };
    const start = (app: TestApp, from: Account, to: Account) =>
      app.call('/user/api/startPrivateCall', { userId: to.id }, from.token);
    const hangUp = (app: TestApp, by: Account, callId: number) =>
      app.call('/user/api/endPrivateCall', { callId }, by.token);
    const openCalls = () =>
      one.services.db
        .selectFrom('private_calls')
        .select(['id', 'caller_id', 'callee_id', 'state'])
        .where('state', 'in', ['ringing', 'active'])
        .execute();
    const parties = () => one.services.db.selectFrom('call_parties').selectAll().execute();

    beforeEach(async () => {
      cluster = await startCluster(dialect);
      [one, two] = cluster.apps;
      admin = await signUpAdmin(one);
      desk = await createWithRole(one, admin, 'dispatcher', { firstName: 'Dana', lastName: 'Desk' });
      mia = await createMember(one, admin, { firstName: 'Mia', lastName: 'Field' });
      const channelId = (await one.call('/user/api/createChannel', { channelName: 'North' }, admin.token)).body.res.id;
      await one.services.memberships.add(channelId, [desk.id, mia.id]);
    });
    afterEach(async () => {
      for (const client of clients.splice(0)) client.close();
      await cluster.close();
    });

    it('rings the callee once when two callers on two instances call at the same instant; the other is told busy, with no name', async () => {
      const miaSocket = await online(cluster.urls[1], mia);
      for (let round = 0; round < ROUNDS; round += 1) {
        const [fromDesk, fromAdmin] = await Promise.all([start(one, desk, mia), start(two, admin, mia)]);
        expect([fromDesk.status, fromAdmin.status].sort()).toEqual([200, 409]);
        const [won, lost] = fromDesk.status === 200 ? [fromDesk, fromAdmin] : [fromAdmin, fromDesk];
        const winner = won === fromDesk ? desk : admin;
        expect(won.body.code).toBe('call_ringing');
        expect(lost.body).toMatchObject({ success: false, code: 'call_busy', result: BUSY });
        // Busy names nobody: neither the callee nor the other caller.
        for (const name of ['Mia', 'Field', 'Dana', 'Desk', 'Ada', 'Admin'])
          expect(lost.body.result).not.toContain(name);

        const { callId } = won.body.res;
        expect(await openCalls()).toEqual([{ id: callId, caller_id: winner.id, callee_id: mia.id, state: 'ringing' }]);
        expect((await parties()).map((row) => row.user_id).sort()).toEqual([winner.id, mia.id].sort());
        // The callee's page, on instance two, rings for the winner's call only.
        expect(await miaSocket.next('incomingCall')).toMatchObject({ callId, from: { userId: winner.id } });
        await miaSocket.flush();
        expect(miaSocket.all('incomingCall')).toHaveLength(round + 1);

        // Declined on the instance that did not take the call: everyone is free again.
        expect((await hangUp(won === fromDesk ? two : one, mia, callId)).status).toBe(200);
        expect(await parties()).toEqual([]);
      }
    });

    it('makes crossed calls made at the same instant on two instances one call, answered', async () => {
      const deskSocket = await online(cluster.urls[0], desk);
      const miaSocket = await online(cluster.urls[1], mia);
      for (let round = 0; round < ROUNDS; round += 1) {
        const both = await Promise.all([start(one, desk, mia), start(two, mia, desk)]);
        expect(both.map((answer) => answer.status)).toEqual([200, 200]);
        // One wrote the call and rings; the other found it ringing for it and answered it.
        expect(both.map((answer) => answer.body.code).sort()).toEqual(['call_answered', 'call_ringing']);
        const { callId, room } = both[0].body.res;
        expect(both[1].body.res).toMatchObject({ callId, room });
        expect(await openCalls()).toEqual([expect.objectContaining({ id: callId, state: 'active' })]);
        expect((await parties()).map((row) => row.user_id).sort()).toEqual([desk.id, mia.id].sort());
        // Both parties' pages, each on its instance, are told the call is answered.
        for (const socket of [deskSocket, miaSocket]) {
          expect(await socket.next('privateCallUpdated', (call) => call.state === 'active')).toMatchObject({ callId });
        }
        expect((await hangUp(two, desk, callId)).status).toBe(200);
        expect(await openCalls()).toEqual([]);
        expect(await parties()).toEqual([]);
      }
    });
  });
});
