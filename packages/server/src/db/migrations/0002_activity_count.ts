import { sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../dialect.ts';
import type { AnyDb } from './columns.ts';

// The activity log's size, kept by triggers: counting a million rows on every page of the Activities page
// took 20 to 90 ms (bench/activities); reading this row takes none.
export function migration(dialect: Dialect): Migration {
  return {
    async up(db: AnyDb) {
      await db.schema
        .createTable('activity_count')
        .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
        .addColumn('n', 'bigint', (c) => c.notNull())
        .execute();
      await sql`insert into activity_count (id, n) select 1, count(*) from activities`.execute(db);
      if (dialect === 'postgres') {
        // Statement triggers with transition tables: one update per statement, even for a bulk delete.
        await sql`create function activity_count_added() returns trigger language plpgsql as $$
            begin update activity_count set n = n + (select count(*) from added_rows) where id = 1; return null; end $$`.execute(
          db,
        );
        await sql`create function activity_count_removed() returns trigger language plpgsql as $$
            begin update activity_count set n = n - (select count(*) from removed_rows) where id = 1; return null; end $$`.execute(
          db,
        );
        await sql`create trigger activity_count_insert after insert on activities
            referencing new table as added_rows for each statement execute function activity_count_added()`.execute(db);
        await sql`create trigger activity_count_delete after delete on activities
            referencing old table as removed_rows for each statement execute function activity_count_removed()`.execute(
          db,
        );
      } else {
        await sql`create trigger activity_count_insert after insert on activities
            begin update activity_count set n = n + 1 where id = 1; end`.execute(db);
        await sql`create trigger activity_count_delete after delete on activities
            begin update activity_count set n = n - 1 where id = 1; end`.execute(db);
      }
    },
  };
}
