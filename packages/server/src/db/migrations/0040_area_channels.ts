/**
 * Area channels (issue 59): a channel may follow a geofence (`channels.area_geofence_id`; the fence deleted, the
 * channel follows none). A membership the area made is marked (`channel_members.via_area` 1): the area takes it
 * back when its member leaves, and never touches one an administrator made (0). `area_presence` holds, per area
 * channel and user with map access, who is in the area now: since when, since when outside it (the exit waits
 * AREA_EXIT_SECONDS), and the last report (silence for AREA_SILENCE_MINUTES counts as leaving); rows of every
 * instance, so a restart or another instance takes the exits over. getAllChannels shows the area: a change of it
 * leaves a row in list_changes (0008), as 0011 does for voice_mode. No `down`: SQLite cannot drop a column that
 * references another table (area_geofence_id).
 */
import { sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../dialect.ts';
import { type AnyDb, columnsFor } from './columns.ts';

export function migration(dialect: Dialect): Migration {
  const { time } = columnsFor(dialect);
  return {
    async up(db: AnyDb) {
      await db.schema
        .alterTable('channels')
        .addColumn('area_geofence_id', 'integer', (c) => c.references('geofences.id').onDelete('set null'))
        .execute();
      await db.schema
        .alterTable('channel_members')
        .addColumn('via_area', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .createTable('area_presence')
        .addColumn('channel_id', 'integer', (c) => c.notNull().references('channels.id').onDelete('cascade'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('entered_at', time, (c) => c.notNull())
        .addColumn('outside_since', time)
        .addColumn('last_report_at', time, (c) => c.notNull())
        .addPrimaryKeyConstraint('area_presence_pk', ['channel_id', 'user_id'])
        .execute();
      // The sweep reads the rows whose member went quiet, or went out, long enough ago.
      await db.schema.createIndex('area_presence_report').on('area_presence').column('last_report_at').execute();
      await db.schema.createIndex('area_presence_outside').on('area_presence').column('outside_since').execute();
      await db.schema.createIndex('area_presence_user').on('area_presence').column('user_id').execute();
      if (dialect === 'postgres') {
        await sql`create function list_changes_channels_area() returns trigger language plpgsql as $$
          begin
            insert into list_changes (kind, entity_id)
              select 2, n.id from new_rows n join old_rows o on o.id = n.id
              where o.area_geofence_id is distinct from n.area_geofence_id;
            return null;
          end $$`.execute(db);
        await sql`create trigger list_changes_channels_area after update on channels
          referencing old table as old_rows new table as new_rows
          for each statement execute function list_changes_channels_area()`.execute(db);
      } else {
        await sql`create trigger list_changes_channels_area after update of area_geofence_id on channels
          when old.area_geofence_id is not new.area_geofence_id
          begin insert into list_changes (kind, entity_id) values (2, new.id); end`.execute(db);
      }
    },
  };
}
