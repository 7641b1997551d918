/**
 * Channels of any size (issue 26): each channel says how its voice travels, `server` (through the media
 * server when one is configured; peer to peer otherwise) or `mesh` (always peer to peer). getAllChannels shows
 * it, so a change of it leaves a row in list_changes (0008) like the channel's other shown columns: a trigger
 * of its own, beside 0008's.
 */
import { sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../dialect.ts';
import type { AnyDb } from './columns.ts';

export function migration(dialect: Dialect): Migration {
  return {
    async up(db: AnyDb) {
      await db.schema
        .alterTable('channels')
        .addColumn('voice_mode', 'text', (c) => c.notNull().defaultTo('server'))
        .execute();
      if (dialect === 'postgres') {
        await sql`create function list_changes_channels_voice_mode() returns trigger language plpgsql as $$
          begin
            insert into list_changes (kind, entity_id)
              select 2, n.id from new_rows n join old_rows o on o.id = n.id where o.voice_mode is distinct from n.voice_mode;
            return null;
          end $$`.execute(db);
        await sql`create trigger list_changes_channels_voice_mode after update on channels
          referencing old table as old_rows new table as new_rows
          for each statement execute function list_changes_channels_voice_mode()`.execute(db);
      } else {
        await sql`create trigger list_changes_channels_voice_mode after update of voice_mode on channels
          when old.voice_mode is not new.voice_mode
          begin insert into list_changes (kind, entity_id) values (2, new.id); end`.execute(db);
      }
    },
  };
}
