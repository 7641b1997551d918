/**
 * The whole lists' change log (migration 0008, lists/change-log.ts): a reader gets what changed since it last
 * looked, and pruning never makes it miss a change it had not read yet.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OpenedDatabase } from '../src/db/open.ts';
import { CHANGED, type ListChangeLog, listChangeLog } from '../src/lists/change-log.ts';
import { databases, testStorage } from './harness.ts';

describe.each(databases)('the lists change log on %s', (dialect) => {
  let storage: ReturnType<typeof testStorage>;
  let database: OpenedDatabase;
  let log: ListChangeLog;
  const at = new Date().toISOString();

  beforeEach(async () => {
    storage = testStorage(dialect);
    database = await storage.open();
    log = listChangeLog(database.db, dialect);
  });
  afterEach(() => storage.remove());

  const newUser = async (name: string) =>
    (
      await database.db
        .insertInto('users')
        .values({
          first_name: name,
          last_name: 'L',
          identifier: `${name}@example.org`,
          pseudo: '',
          display_name: name,
          phone_number: '',
          password_hash: 'x',
          map_right: 0,
          role: 'member',
          created_at: at,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;

  it('gives what changed since a position, once written, and nothing written before it', async () => {
    const ada = await newUser('ada');
    const from = await log.position();
    const bob = await newUser('bob');
    const channel = (
      await database.db
        .insertInto('channels')
        .values({ name: 'Red', rtc_session: 'Red', created_at: at })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    await database.db
      .insertInto('activities')
      .values({ type: 'login', user_id: ada, channel_id: channel, created_at: at })
      .execute();
    const { changes, next } = await log.since(from);
    expect([...changes.users].sort()).toEqual([ada, bob].sort());
    expect([...changes.channels]).toEqual([channel]);
    expect([...changes.channelActivity]).toEqual([channel]);
    // Nothing new since: nothing. (PostgreSQL reads again from the oldest transaction still running, on the
    // whole server: other tests' transactions may make it read these rows again, which does no harm.)
    if (dialect === 'sqlite') {
      const again = await log.since(next);
      expect(again.changes.users.size + again.changes.channels.size).toBe(0);
    }
    expect(CHANGED.user).toBe(1);
  });

  it('pruning deletes what was read, and a reader reading from before a prune still gets what came after', async () => {
    await newUser('ada');
    const readUpTo = await log.position();
    await log.prune(readUpTo);
    const after = await newUser('bob');
    const { changes } = await log.since(readUpTo);
    expect(changes.users.has(after)).toBe(true);
    if (dialect === 'sqlite') expect(changes.users.size).toBe(1);
    // Pruning everything read keeps row ids growing (SQLite keeps the newest row): a later change is still seen.
    const now = await log.position();
    await log.prune(now);
    const later = await newUser('cy');
    expect((await log.since(now)).changes.users.has(later)).toBe(true);
  });
});
