/**
 * The dispatch console's all call across two instances sharing Redis (issue 27): a member's floor held on the
 * other instance is taken, and of two all calls at once one wins each channel. Out of dispatch.test.ts, which
 * grew past 400 lines.
 */
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { type Cluster, startCluster } from './cluster-harness.ts';
import type { Account } from './harness.ts';
import { connect, type TestClient } from './realtime-harness.ts';
import { cast } from './world.ts';

const redisUrl = process.env.TEST_REDIS_URL;

describe.runIf(redisUrl)('the all call across two instances sharing Redis', () => {
  const clients: TestClient[] = [];
  let cluster: Cluster | undefined;
  afterEach(async () => {
    for (const client of clients.splice(0)) client.close();
    await cluster?.close();
  });

  it("takes a member's floor held on the other instance, and one of two all calls at once wins each channel", async () => {
    cluster = await startCluster('sqlite');
    const [one] = cluster.apps;
    const [urlOne, urlTwo] = cluster.urls;
    const rooms = [`East${randomBytes(3).toString('hex')}`, `West${randomBytes(3).toString('hex')}`];
    const { deskA, deskB, member } = await cast(one, {
      people: {
        deskA: { role: 'dispatcher', firstName: 'Desk', lastName: 'One' },
        deskB: { role: 'dispatcher', firstName: 'Desk', lastName: 'Two' },
        member: { role: 'member', firstName: 'Mo', lastName: 'Member' },
      },
      channels: {
        east: { name: rooms[0] as string, members: ['deskA', 'deskB', 'member'] },
        west: { name: rooms[1] as string, members: ['deskA', 'deskB', 'member'] },
      },
    });
    const joined = async (url: string, account: Account) => {
      const client = await connect(url, account.token, { pushesOnce: true });
      clients.push(client);
      for (const room of rooms) await client.emitAck('join_room', { room, mode: 'talk' });
      return client;
    };
    const m = await joined(urlTwo, member);
    const a = await joined(urlOne, deskA);
    const b = await joined(urlTwo, deskB);
    expect(await m.emitAck('floor_request', { room: rooms[0] })).toEqual({
      granted: true,
      grantId: expect.any(String),
    });

    // Desk A (instance one) breaks in on the member (instance two) in both channels.
    expect(await a.emitAck('broadcast_request', { rooms })).toEqual({
      granted: rooms,
      refused: [],
      grantId: expect.any(String),
    });
    expect(await m.next('floor_revoked')).toMatchObject({ room: rooms[0], reason: 'preempted' });
    a.socket.emit('broadcast_release', { rooms });
    for (const room of rooms) await m.next('floor_idle', (idle) => idle.room === room);

    // Two desks of equal priority at once: each channel has one talker.
    const [first, second] = (await Promise.all([
      a.emitAck('broadcast_request', { rooms }),
      b.emitAck('broadcast_request', { rooms }),
    ])) as unknown as Array<{ granted: string[]; refused: Array<{ room: string; reason: string }> }>;
    for (const room of rooms) {
      const winners = [first, second].filter((answer) => answer.granted.includes(room));
      expect(winners).toHaveLength(1);
      const loser = winners[0] === first ? second : first;
      expect(loser.refused).toContainEqual(expect.objectContaining({ room, reason: 'busy' }));
    }
  });
});
