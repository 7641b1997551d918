import type { Migration } from 'kysely/migration';
import type { Dialect } from '../dialect.ts';
import { type AnyDb, columnsFor } from './columns.ts';

// Voice history (issue 15): one row per recorded transmission; its audio lives under DATA_DIR/voice.
export function migration(dialect: Dialect): Migration {
  const { time, withId } = columnsFor(dialect);
  return {
    async up(db: AnyDb) {
      // Recording on by default; a team that must not record turns it off per channel.
      await db.schema
        .alterTable('channels')
        .addColumn('recording', 'integer', (c) => c.notNull().defaultTo(1))
        .execute();
      await withId(db.schema.createTable('voice_messages'))
        .addColumn('channel_id', 'integer', (c) => c.notNull().references('channels.id').onDelete('cascade'))
        // A deleted account leaves its transmissions, with the name they had.
        .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('user_display_name', 'text', (c) => c.notNull())
        .addColumn('file_name', 'text', (c) => c.notNull().unique())
        .addColumn('mime', 'text', (c) => c.notNull())
        .addColumn('size_bytes', 'integer', (c) => c.notNull())
        .addColumn('duration_ms', 'integer', (c) => c.notNull())
        .addColumn('client_id', 'text')
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('uploaded_at', time, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('voice_messages_channel_time')
        .on('voice_messages')
        .columns(['channel_id', 'created_at', 'id'])
        .execute();
      await db.schema.createIndex('voice_messages_time').on('voice_messages').column('created_at').execute();
      await db.schema
        .createIndex('voice_messages_client')
        .on('voice_messages')
        .columns(['user_id', 'client_id'])
        .unique()
        .execute();
    },
  };
}
