import { sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../dialect.ts';
import type { AnyDb } from './columns.ts';

// Issue 18: the whole lists (getAllUsers, getAllChannels) are rebuilt only when something they show changed.
// list_version counts the writes to the tables they read, kept by triggers in the writing transaction, so a
// reader sees a new number only with the data that made it (every instance shares it: it is in the
// database). On PostgreSQL the triggers run per statement and are named to fire before activity_count's:
// every transaction takes the two counters' locks in the same order.
export function migration(dialect: Dialect): Migration {
  return {
    async up(db: AnyDb) {
      await db.schema
        .createTable('list_version')
        .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
        .addColumn('n', 'bigint', (c) => c.notNull())
        .execute();
      await sql`insert into list_version (id, n) values (1, 0)`.execute(db);
      const tables = ['users', 'channels', 'channel_members', 'user_sockets', 'user_positions', 'activities'];
      if (dialect === 'postgres') {
        await sql`create function list_version_bump() returns trigger language plpgsql as $$
            begin update list_version set n = n + 1 where id = 1; return null; end $$`.execute(db);
        for (const table of tables) {
          await sql`create trigger aa_list_version after insert or update or delete on ${sql.table(table)}
              for each statement execute function list_version_bump()`.execute(db);
        }
      } else {
        for (const table of tables) {
          for (const op of ['insert', 'update', 'delete']) {
            await sql`create trigger ${sql.id(`list_version_${table}_${op}`)} after ${sql.raw(op)} on ${sql.table(table)}
                begin update list_version set n = n + 1 where id = 1; end`.execute(db);
          }
        }
      }
    },
  };
}
