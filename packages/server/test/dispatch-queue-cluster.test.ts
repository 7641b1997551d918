/**
 * The dispatch queue across two instances sharing PostgreSQL and Redis (issue 49): two dispatchers on two
 * instances see the same queue live, a take race across instances has one winner, a transfer crosses, a reminder
 * is made once whatever instance sweeps, and a restarted instance (or a reloaded page) finds the same queue.
 */
import type { DispatchRequest } from '@talkgroup/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Cluster, startCluster } from './cluster-harness.ts';
import { ask, nextChange, type QueueWorld, queueWorld } from './dispatch-queue-world.ts';
import type { Account, TestApp } from './harness.ts';
import { connect, type TestClient } from './realtime-harness.ts';

const shared = process.env.TEST_DATABASE_URL && process.env.TEST_REDIS_URL;

describe.runIf(shared)('the dispatch queue on two instances (PostgreSQL and Redis)', () => {
  let cluster: Cluster;
  let one: TestApp;
  let two: TestApp;
  let w: QueueWorld;
  const clients: TestClient[] = [];
  const connected = async (url: string, account: Account) => {
    const client = await connect(url, account.token);
    clients.push(client);
    return client;
  };
  const list = async (app: TestApp, account: Account): Promise<DispatchRequest[]> =>
    (await app.call('/user/api/listDispatchCalls', {}, account.token)).body.res;

  beforeEach(async () => {
    cluster = await startCluster('postgres', {
      overrides: { dispatch: { remindMs: 1500, expireMs: 600_000, transferMs: 30_000, abandonMs: 120_000 } },
    });
    [one, two] = cluster.apps;
    w = await queueWorld(one);
  });
  afterEach(async () => {
    for (const client of clients.splice(0)) client.close();
    await cluster.close();
  });

  it('shares one queue live between dispatchers on two instances: one take wins, a transfer crosses, a reminder is made once', async () => {
    const danaDesk = await connected(cluster.urls[0], w.dana);
    const samDesk = await connected(cluster.urls[1], w.sam);
    await connected(cluster.urls[0], w.alex);
    await connected(cluster.urls[1], w.bea);

    const alex = (await ask(one, w.alex, w.quai.id)).body.res.requestId;
    expect(await nextChange(samDesk, alex)).toMatchObject({ state: 'waiting', position: 1 });
    const bea = (await ask(two, w.bea, w.quai.id, { priority: 'high' })).body.res.requestId;
    expect(await nextChange(danaDesk, bea)).toMatchObject({ position: 1 });
    expect(await nextChange(danaDesk, alex, (r) => r.position === 2)).toMatchObject({ state: 'waiting' });

    // Each waiting request is recalled once, although both instances sweep.
    await nextChange(samDesk, alex, (r) => r.remindedAt !== undefined);
    await nextChange(samDesk, bea, (r) => r.remindedAt !== undefined);
    await new Promise((resolve) => setTimeout(resolve, 2500));
    await samDesk.flush();
    const reminders = samDesk
      .all('dispatchCallsChanged')
      .filter(
        (r: DispatchRequest, i: number, all: DispatchRequest[]) =>
          r.remindedAt !== undefined &&
          all.findIndex((o) => o.requestId === r.requestId && o.remindedAt !== undefined) === i,
      );
    expect(reminders).toHaveLength(2);
    const stamps = new Set(
      samDesk
        .all('dispatchCallsChanged')
        .filter((r: DispatchRequest) => r.requestId === alex && r.remindedAt)
        .map((r: DispatchRequest) => r.remindedAt),
    );
    expect(stamps.size).toBe(1);

    const [a, b] = await Promise.all([
      one.call('/user/api/takeDispatchCall', { requestId: bea, answer: 'channel' }, w.dana.token),
      two.call('/user/api/takeDispatchCall', { requestId: bea, answer: 'channel' }, w.sam.token),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const winner = a.status === 200 ? w.dana : w.sam;
    const other = winner === w.dana ? w.sam : w.dana;
    const otherDesk = winner === w.dana ? samDesk : danaDesk;
    expect(await nextChange(otherDesk, bea, (r) => r.state === 'taken')).toMatchObject({
      heldBy: { userId: winner.id },
    });

    // The winner transfers it to the other, on the other instance, who accepts there.
    const winnerApp = winner === w.dana ? one : two;
    const otherApp = winner === w.dana ? two : one;
    await winnerApp.call('/user/api/transferDispatchCall', { requestId: bea, toUserId: other.id }, winner.token);
    expect(await nextChange(otherDesk, bea, (r) => r.state === 'transferring')).toMatchObject({
      transferTo: { userId: other.id },
    });
    const accepted = await otherApp.call(
      '/user/api/answerDispatchTransfer',
      { requestId: bea, accept: true },
      other.token,
    );
    expect(accepted.body.res).toMatchObject({ state: 'taken', heldBy: { userId: other.id } });
  });

  it('keeps the queue through a restart: a new instance, and a reloaded page, answer the same requests', async () => {
    const alex = (await ask(one, w.alex, w.quai.id, { note: 'Gate 4' })).body.res.requestId;
    await one.call('/user/api/takeDispatchCall', { requestId: alex, answer: 'channel' }, w.dana.token);
    const bea = (await ask(one, w.bea, w.quai.id)).body.res.requestId;
    const before = await list(one, w.sam);

    await one.fastify.close();
    const three = await cluster.start();
    const after = await list(three, w.sam);
    expect(after.map((r) => [r.requestId, r.state, r.heldBy?.name, r.note])).toEqual(
      before.map((r) => [r.requestId, r.state, r.heldBy?.name, r.note]),
    );
    expect(after.map((r) => r.requestId)).toEqual([bea, alex]);
    // The restarted instance acts on it: Dana closes what she took before the restart.
    const closed = await three.call('/user/api/closeDispatchCall', { requestId: alex }, w.dana.token);
    expect(closed.body.res.state).toBe('closed');
    expect((await list(two, w.alex)).map((r) => r.state)).toEqual(['closed']);
  });
});
