/**
 * Nothing missed (issue 34):
 * - voice_heard: which recorded transmissions each member heard, live (a page of theirs was in the channel
 *   when it was kept, and the member was not busy) or played later; one row per member and transmission.
 * - users.busy: Available (0) or Busy (1), as Zello's: a busy member's pages do not play transmissions, which
 *   go to its missed list.
 */
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../dialect.ts';
import { type AnyDb, columnsFor } from './columns.ts';

export function migration(dialect: Dialect): Migration {
  const { time } = columnsFor(dialect);
  return {
    async up(db: AnyDb) {
      await db.schema
        .createTable('voice_heard')
        .addColumn('voice_message_id', 'integer', (c) =>
          c.notNull().references('voice_messages.id').onDelete('cascade'),
        )
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('heard_at', time, (c) => c.notNull())
        .addPrimaryKeyConstraint('voice_heard_pk', ['user_id', 'voice_message_id'])
        .execute();
      await db.schema.createIndex('voice_heard_message').on('voice_heard').column('voice_message_id').execute();
      await db.schema
        .alterTable('users')
        .addColumn('busy', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
    },
  };
}
