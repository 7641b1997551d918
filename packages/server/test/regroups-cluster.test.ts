/**
 * A regroup's end by time (issue 59) is a timer that protects people: it lives in the database, survives a
 * restart (another process ends it), and fires once across instances (PostgreSQL and Redis).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type Cluster, startCluster } from './cluster-harness.ts';
import { type Account, buildTestApp, databases, type TestApp, testStorage } from './harness.ts';
import { connect, eventually, type TestClient } from './realtime-harness.ts';
import { cast } from './world.ts';

/** A dispatcher and a member of one channel, the member's /talk on it. */
async function quaiTeam(app: TestApp) {
  const { quai, ...people } = await cast(app, {
    people: {
      dana: { role: 'dispatcher', firstName: 'Dana', lastName: 'Desk' },
      alice: { role: 'member', firstName: 'Alice', lastName: 'Field' },
    },
    channels: { quai: { name: 'Quai', members: ['dana', 'alice'], overHttp: true } },
  });
  await app.call('/user/api/selectMyChannel', { channelId: quai.id }, people.alice.token);
  return { ...people, quai: quai.id };
}

const expiries = async (app: TestApp, admin: Account) =>
  (await app.call('/user/api/getAuditLog', {}, admin.token)).body.res.entries.filter(
    (entry: { action: string }) => entry.action === 'regroup.expire',
  ).length;

describe.each(databases)('a regroup’s time on %s', (dialect) => {
  it('ends when its time runs out even though the server that made it stopped: the next one ends it', async () => {
    const storage = testStorage(dialect);
    const first = await buildTestApp(storage);
    const { admin, dana, alice, quai } = await quaiTeam(first);
    const made = await first.call(
      '/user/api/createRegroup',
      { name: 'Short', userIds: [alice.id], minutes: 0.03 },
      dana.token,
    );
    expect(made.status).toBe(200);
    await first.fastify.close();

    const second = await buildTestApp(storage);
    try {
      // Whenever it ran out (before or after this server started), this server ends it.
      await eventually(
        async () => (await second.call('/user/api/getRegroups', {}, dana.token)).body.res.length === 0,
        'the regroup is over',
      );
      expect((await second.call('/user/api/getMySelectedChannel', {}, alice.token)).body.res).toMatchObject({
        channelId: quai,
        reason: 'regroup_end',
      });
      expect((await second.call('/user/api/getRegroups', {}, dana.token)).body.res).toEqual([]);
      expect(await expiries(second, admin)).toBe(1);
    } finally {
      await second.fastify.close();
      await storage.remove();
    }
  });
});

const shared = process.env.TEST_DATABASE_URL && process.env.TEST_REDIS_URL;

describe.runIf(shared)('a regroup’s time on two instances (PostgreSQL and Redis)', () => {
  let cluster: Cluster;
  const clients: TestClient[] = [];
  afterEach(async () => {
    for (const client of clients.splice(0)) client.close();
    await cluster.close();
  });

  it('ends once, whichever instance comes first, and the member hears it on the other', async () => {
    cluster = await startCluster('postgres');
    const [one, two] = cluster.apps;
    const { admin, dana, alice, quai } = await quaiTeam(one);
    const phone = await connect(cluster.urls[1], alice.token);
    clients.push(phone);
    const made = await one.call(
      '/user/api/createRegroup',
      { name: 'Both', userIds: [alice.id], minutes: 0.02 },
      dana.token,
    );
    expect(made.status).toBe(200);
    expect(await phone.next('selected_channel_changed', (change) => change.reason === 'regroup')).toMatchObject({
      channelId: made.body.channelId,
    });
    expect(await phone.next('selected_channel_changed', (change) => change.reason === 'regroup_end')).toMatchObject({
      channelId: quai,
    });
    // Both instances look again: there is nothing left to end, and it was ended (and audited) once.
    expect(await one.services.regroups.expireDue()).toBe(0);
    expect(await two.services.regroups.expireDue()).toBe(0);
    await eventually(async () => (await expiries(two, admin)) === 1, 'one expiry in the audit log');
    await phone.flush();
    expect(phone.all('selected_channel_changed').filter((change) => change.reason === 'regroup_end')).toHaveLength(1);
  });
});
