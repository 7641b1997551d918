/**
 * A socket that goes as soon as it came (found by a loaded CI, issue 57): its presence row is written by the group
 * commit (presence/group-commit.ts), behind the batch on its way, while its disconnect removed its rows at once.
 * The row written after that removal stayed: its member counted as online for good, and the dispatch queue never
 * abandoned his request (dispatch-queue-timers.test). The removal now waits for the socket's own writes.
 *
 * On PostgreSQL, where a lock on `user_sockets` holds the first batch without holding anything else.
 */
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createMember, signUpAdmin, startApp, type TestApp } from './harness.ts';
import { connect, listen, type TestClient } from './realtime-harness.ts';

describe.skipIf(!process.env.TEST_DATABASE_URL)('a socket gone as soon as it came, on postgres', () => {
  let app: TestApp | undefined;
  const clients: TestClient[] = [];
  afterEach(async () => {
    for (const client of clients.splice(0)) client.close();
    await app?.close();
  });

  it('leaves no presence row behind when its disconnect overtakes its own presence write', async () => {
    app = await startApp('postgres');
    const url = await listen(app);
    const admin = await signUpAdmin(app);
    const carl = await createMember(app, admin, { firstName: 'Carl', lastName: 'First' });
    const alex = await createMember(app, admin, { firstName: 'Alex', lastName: 'Gone' });
    const bea = await createMember(app, admin, { firstName: 'Bea', lastName: 'Last' });
    const { db } = app.services;
    const rowsOf = async (userId: number) =>
      (await db.selectFrom('user_sockets').select('id').where('user_id', '=', userId).execute()).length;

    // The table locked against writes (reads go on): Carl's presence write waits in the running batch.
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const holder = Promise.withResolvers<number>();
    const lock = db.transaction().execute(async (trx) => {
      const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
      await sql`lock table user_sockets in exclusive mode`.execute(trx);
      holder.resolve(rows[0].pid);
      await released;
    });
    const pid = await holder.promise;
    const waiting = async () =>
      Number(
        (
          await sql<{
            n: string;
          }>`select count(*) as n from pg_stat_activity where ${pid} = any(pg_blocking_pids(pid))`.execute(db)
        ).rows[0].n,
      );
    try {
      clients.push(await connect(url, carl.token));
      await expect.poll(waiting, { timeout: 30_000 }).toBe(1);
      // Alex's write waits for the next batch; he is gone at once.
      const alexPhone = await connect(url, alex.token);
      alexPhone.close();
      // Before the fix, his removal reached the lock now, behind Carl's write and ahead of his own: up to 3 s for it
      // (after the fix it waits for his write, and never comes here).
      await expect
        .poll(waiting, { timeout: 3000 })
        .toBe(2)
        .catch(() => {});
    } finally {
      release();
      await lock;
    }
    // Bea's write comes after Alex's in the group commit: once hers is in, his is in (and out again) too.
    clients.push(await connect(url, bea.token));
    await expect.poll(() => rowsOf(bea.id), { timeout: 30_000 }).toBe(1);
    await expect.poll(() => rowsOf(alex.id), { timeout: 10_000 }).toBe(0);
    expect(await rowsOf(carl.id)).toBe(1);
  });
});
