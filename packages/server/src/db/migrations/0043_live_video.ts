/**
 * Live video (issue 61): `video_audience` of a channel, 'dispatch' (its dispatchers and the administrators watch
 * its live video; the default for every channel, existing ones included) or 'channel' (every member as well);
 * getAllChannels shows it, so a change of it leaves a row in list_changes (0008), as 0037 does for the floor queue.
 * `videos` keeps each stream from its start (who, where, when it started and ended) and, once the sharing page has
 * uploaded its recording, the file under DATA_DIR/video/<channel id>/ with its size and length. The organisation's
 * `remoteVideo` setting is a row of `settings` (key 'video'), absent until an administrator sets it.
 */
import { sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../dialect.ts';
import { type AnyDb, columnsFor } from './columns.ts';

export function migration(dialect: Dialect): Migration {
  const { time, withId } = columnsFor(dialect);
  return {
    async up(db: AnyDb) {
      await db.schema
        .alterTable('channels')
        .addColumn('video_audience', 'text', (c) => c.notNull().defaultTo('dispatch'))
        .execute();
      if (dialect === 'postgres') {
        await sql`create function list_changes_channels_video() returns trigger language plpgsql as $$
          begin
            insert into list_changes (kind, entity_id)
              select 2, n.id from new_rows n join old_rows o on o.id = n.id
              where o.video_audience is distinct from n.video_audience;
            return null;
          end $$`.execute(db);
        await sql`create trigger list_changes_channels_video after update on channels
          referencing old table as old_rows new table as new_rows
          for each statement execute function list_changes_channels_video()`.execute(db);
      } else {
        await sql`create trigger list_changes_channels_video after update of video_audience on channels
          when old.video_audience is not new.video_audience
          begin insert into list_changes (kind, entity_id) values (2, new.id); end`.execute(db);
      }
      await withId(db.schema.createTable('videos'))
        .addColumn('stream_id', 'text', (c) => c.notNull().unique())
        .addColumn('channel_id', 'integer', (c) => c.notNull().references('channels.id').onDelete('cascade'))
        // A deleted account leaves its videos, with the name they had.
        .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('user_display_name', 'text', (c) => c.notNull())
        .addColumn('started_at', time, (c) => c.notNull())
        .addColumn('ended_at', time)
        // The dispatcher's request it answered, and whether it started without the member's consent.
        .addColumn('request_id', 'text')
        .addColumn('without_consent', 'integer', (c) => c.notNull().defaultTo(0))
        // Null until the sharing page uploads the recording.
        .addColumn('file_name', 'text', (c) => c.unique())
        .addColumn('mime', 'text')
        .addColumn('size_bytes', 'integer')
        .addColumn('duration_ms', 'integer')
        .addColumn('uploaded_at', time)
        .execute();
      await db.schema
        .createIndex('videos_channel_time')
        .on('videos')
        .columns(['channel_id', 'started_at', 'id'])
        .execute();
      await db.schema.createIndex('videos_time').on('videos').column('started_at').execute();
    },
    async down(db: AnyDb) {
      await db.schema.dropTable('videos').execute();
      if (dialect === 'postgres') {
        await sql`drop trigger if exists list_changes_channels_video on channels`.execute(db);
        await sql`drop function if exists list_changes_channels_video()`.execute(db);
      } else await sql`drop trigger if exists list_changes_channels_video`.execute(db);
      await db.schema.alterTable('channels').dropColumn('video_audience').execute();
    },
  };
}
