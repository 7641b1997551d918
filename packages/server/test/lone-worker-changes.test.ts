/**
 * Issue 70: a member's lone work reaches the consoles as it changes (`loneWorkerChanged`), with no polling: started,
 * asked, answered and stopped, to the dispatchers of the member's channels and the administrators, not to a
 * dispatcher of another channel nor to the member's colleagues.
 */
import { describe, expect, it } from 'vitest';
import { databases } from './harness.ts';
import { world } from './world.ts';

describe.each(databases)('lone work pushed to the consoles on %s', (dialect) => {
  const w = world(dialect, {
    config: { loneWorkerMinSeconds: 1 },
    people: {
      dana: { role: 'dispatcher', firstName: 'Dana', lastName: 'Desk' },
      other: { role: 'dispatcher', firstName: 'Olga', lastName: 'Other' },
      alice: { role: 'member', firstName: 'Alice', lastName: 'Field' },
      carl: { role: 'member', firstName: 'Carl', lastName: 'Colleague' },
    },
    channels: {
      quai: { name: 'Quai', members: ['dana', 'alice', 'carl'] },
      depot: { name: 'Dépôt', members: ['other'] },
    },
  });
  const forAlice = (change: { userId: number }) => change.userId === w.alice.id;

  it('pushes each change of state to the member’s dispatchers and the administrators, and to no one else', async () => {
    const { app, admin, dana, other, alice, carl } = w;
    expect(
      (
        await app.call(
          '/user/api/setSafetySettings',
          { loneWorker: { intervalSeconds: 1, graceSeconds: 60 } },
          admin.token,
        )
      ).status,
    ).toBe(200);
    const desk = await w.open(dana);
    const boss = await w.open(admin);
    const elsewhere = await w.open(other);
    const colleague = await w.open(carl);

    expect((await app.call('/user/api/startLoneWorker', {}, alice.token)).status).toBe(200);
    expect(await desk.next('loneWorkerChanged', forAlice)).toMatchObject({
      userId: alice.id,
      worker: { userId: alice.id, name: 'Alice Field', state: 'ok', intervalSeconds: 1, required: false },
    });
    expect(await boss.next('loneWorkerChanged', forAlice)).toMatchObject({ worker: { state: 'ok' } });

    // The sweep asks her: the console reads "due" without asking the server.
    expect(
      await desk.next('loneWorkerChanged', (change) => forAlice(change) && change.worker?.state === 'due'),
    ).toBeTruthy();

    expect((await app.call('/user/api/checkIn', {}, alice.token)).status).toBe(200);
    expect(
      await desk.next('loneWorkerChanged', (change) => forAlice(change) && change.worker?.state === 'ok'),
    ).toMatchObject({ worker: { userId: alice.id } });

    expect((await app.call('/user/api/stopLoneWorker', {}, alice.token)).status).toBe(200);
    expect(await desk.next('loneWorkerChanged', (change) => forAlice(change) && change.worker === null)).toEqual({
      userId: alice.id,
      worker: null,
    });
    expect(await boss.next('loneWorkerChanged', (change) => change.worker === null)).toMatchObject({
      userId: alice.id,
    });

    await elsewhere.flush();
    await colleague.flush();
    expect(elsewhere.all('loneWorkerChanged')).toEqual([]);
    expect(colleague.all('loneWorkerChanged')).toEqual([]);
  });
});
