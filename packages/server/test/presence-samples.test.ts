/**
 * The people connected at once, per minute (issue 50, presence/samples.ts): distinct users with a socket on any
 * instance, any role; the minute keeps its larger number and when it was first reached; a user coming online
 * is counted at once by the app's own sampler, without waiting for the next 30 s pass.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { minuteOf, presenceSamples } from '../src/presence/samples.ts';
import { type Account, createMember, databases, signUpAdmin, startApp, type TestApp } from './harness.ts';
import { connect, eventually, listen, type TestClient } from './realtime-harness.ts';

describe.each(databases)('presence samples on %s', (dialect) => {
  let app: TestApp;
  let url: string;
  let admin: Account;
  let alice: Account;
  let bob: Account;
  const clients: TestClient[] = [];

  const connected = async (account: Account) => {
    const client = await connect(url, account.token);
    clients.push(client);
    return client;
  };
  /** Its presence is written behind the socket's queue: wait for its rows. */
  const sockets = (account: Account, count: number) =>
    eventually(
      async () => (await app.services.presence.socketCount(account.id)) === count,
      `${count} sockets of ${account.id}`,
    );
  const rows = (from: string) =>
    app.services.db.selectFrom('presence_samples').selectAll().where('minute', '>=', from).orderBy('minute').execute();

  beforeEach(async () => {
    app = await startApp(dialect);
    url = await listen(app);
    admin = await signUpAdmin(app);
    alice = await createMember(app, admin, { firstName: 'Alice', lastName: 'Field' });
    bob = await createMember(app, admin, { firstName: 'Bob', lastName: 'Field' });
  });
  afterEach(async () => {
    for (const client of clients.splice(0)) client.close();
    await app.close();
  });

  it('counts distinct connected users per minute, keeping the larger number and when it was first reached', async () => {
    // A clock of its own, years ahead: the app's own sampler (real time) never writes these minutes.
    let clock = Date.parse('2031-03-30T00:59:20.000Z');
    const errors: unknown[] = [];
    const samples = presenceSamples({
      db: app.services.db,
      events: app.services.events,
      onError: (error) => errors.push(error),
      now: () => clock,
    });
    const first = minuteOf(clock);
    expect(first).toBe('2031-03-30T00:59:00.000Z');

    // The administrator twice (two devices) and a member: two people.
    await connected(admin);
    await connected(admin);
    const aliceSocket = await connected(alice);
    await sockets(admin, 2);
    await sockets(alice, 1);
    await samples.sampleNow();
    expect(await rows(first)).toEqual([{ minute: first, connected: 2, peak_at: '2031-03-30T00:59:20.000Z' }]);

    // Fewer later in the minute, then as many again: the peak and its first time stay.
    aliceSocket.close();
    await sockets(alice, 0);
    clock += 10_000;
    await samples.sampleNow();
    await connected(bob);
    await sockets(bob, 1);
    clock += 10_000;
    await samples.sampleNow();
    expect(await rows(first)).toEqual([{ minute: first, connected: 2, peak_at: '2031-03-30T00:59:20.000Z' }]);

    // More: the minute takes the larger number and its time.
    await connected(alice);
    await sockets(alice, 1);
    clock += 5_000;
    await samples.sampleNow();
    expect(await rows(first)).toEqual([{ minute: first, connected: 3, peak_at: '2031-03-30T00:59:45.000Z' }]);

    // The next minute has a row of its own; two passes asked at once make no error.
    clock += 20_000;
    await Promise.all([samples.sampleNow(), samples.sampleNow()]);
    expect(await rows(first)).toEqual([
      { minute: first, connected: 3, peak_at: '2031-03-30T00:59:45.000Z' },
      { minute: '2031-03-30T01:00:00.000Z', connected: 3, peak_at: '2031-03-30T01:00:05.000Z' },
    ]);
    expect(errors).toEqual([]);
    await samples.stop();
  });

  it('is started with the app and counts someone coming online at once', async () => {
    const since = minuteOf(Date.now());
    await connected(alice);
    await connected(bob);
    const reached = await eventually(async () => {
      const found = await rows(since);
      return found.some((row) => row.connected === 2) && found;
    }, 'a sample with the two members connected');
    const peak = reached.find((row) => row.connected === 2);
    expect(Date.parse(peak?.peak_at ?? '')).toBeGreaterThanOrEqual(Date.parse(since));
  });
});
