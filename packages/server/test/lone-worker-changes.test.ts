/**
 * Issue 70: a member's lone work reaches the consoles as it changes (`loneWorkerChanged`), with no polling: started,
 * asked, answered and stopped, to the dispatchers of the member's channels and the administrators, not to a
 * dispatcher of another channel nor to the member's colleagues.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Account, createMember, databases, signUpAdmin, startApp, type TestApp } from './harness.ts';
import { connect, listen, type TestClient } from './realtime-harness.ts';
import { createWithRole } from './role-fixtures.ts';

async function cast(app: TestApp) {
  const admin = await signUpAdmin(app);
  const dana = await createWithRole(app, admin, 'dispatcher', { firstName: 'Dana', lastName: 'Desk' });
  const other = await createWithRole(app, admin, 'dispatcher', { firstName: 'Olga', lastName: 'Other' });
  const alice = await createMember(app, admin, { firstName: 'Alice', lastName: 'Field' });
  const carl = await createMember(app, admin, { firstName: 'Carl', lastName: 'Colleague' });
  const quai = await app.services.channels.create('Quai');
  const depot = await app.services.channels.create('Dépôt');
  await app.services.memberships.add(quai.id, [dana.id, alice.id, carl.id]);
  await app.services.memberships.add(depot.id, [other.id]);
  return { admin, dana, other, alice, carl };
}

describe.each(databases)('lone work pushed to the consoles on %s', (dialect) => {
  let app: TestApp;
  let url: string;
  let people: Awaited<ReturnType<typeof cast>>;
  const clients: TestClient[] = [];
  const connected = async (account: Account) => {
    const client = await connect(url, account.token);
    clients.push(client);
    return client;
  };
  const forAlice = (change: { userId: number }) => change.userId === people.alice.id;

  beforeEach(async () => {
    app = await startApp(dialect, { loneWorkerMinSeconds: 1 });
    url = await listen(app);
    people = await cast(app);
  });
  afterEach(async () => {
    for (const client of clients.splice(0)) client.close();
    await app.close();
  });

  it('pushes each change of state to the member’s dispatchers and the administrators, and to no one else', async () => {
    const { admin, dana, other, alice, carl } = people;
    expect(
      (
        await app.call(
          '/user/api/setSafetySettings',
          { loneWorker: { intervalSeconds: 1, graceSeconds: 60 } },
          admin.token,
        )
      ).status,
    ).toBe(200);
    const desk = await connected(dana);
    const boss = await connected(admin);
    const elsewhere = await connected(other);
    const colleague = await connected(carl);

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
