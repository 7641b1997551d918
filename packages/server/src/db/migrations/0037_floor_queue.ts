/**
 * The floor queue and pre-emption of a channel (issue 59): `floor_queue` 1 (a press on a busy floor waits in the
 * channel's queue) or 0 (it is refused, as before), and `preemption`, 'interrupt' (a higher talk priority takes
 * the floor from the talker) or 'queue' (it goes first in the queue). Existing channels get the defaults.
 * getAllChannels shows both: a change of either leaves a row in list_changes (0008), as 0011 does for voice_mode.
 */
import { sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../dialect.ts';
import type { AnyDb } from './columns.ts';

export function migration(dialect: Dialect): Migration {
  return {
    async up(db: AnyDb) {
      // One column a statement: SQLite adds one at a time.
      await db.schema
        .alterTable('channels')
        .addColumn('floor_queue', 'integer', (c) => c.notNull().defaultTo(1))
        .execute();
      await db.schema
        .alterTable('channels')
        .addColumn('preemption', 'text', (c) => c.notNull().defaultTo('interrupt'))
        .execute();
      if (dialect === 'postgres') {
        await sql`create function list_changes_channels_floor() returns trigger language plpgsql as $$
          begin
            insert into list_changes (kind, entity_id)
              select 2, n.id from new_rows n join old_rows o on o.id = n.id
              where o.floor_queue is distinct from n.floor_queue or o.preemption is distinct from n.preemption;
            return null;
          end $$`.execute(db);
        await sql`create trigger list_changes_channels_floor after update on channels
          referencing old table as old_rows new table as new_rows
          for each statement execute function list_changes_channels_floor()`.execute(db);
      } else {
        await sql`create trigger list_changes_channels_floor after update of floor_queue, preemption on channels
          when old.floor_queue is not new.floor_queue or old.preemption is not new.preemption
          begin insert into list_changes (kind, entity_id) values (2, new.id); end`.execute(db);
      }
    },
    async down(db: AnyDb) {
      if (dialect === 'postgres') {
        await sql`drop trigger if exists list_changes_channels_floor on channels`.execute(db);
        await sql`drop function if exists list_changes_channels_floor()`.execute(db);
      } else await sql`drop trigger if exists list_changes_channels_floor`.execute(db);
      await db.schema.alterTable('channels').dropColumn('preemption').execute();
      await db.schema.alterTable('channels').dropColumn('floor_queue').execute();
    },
  };
}
