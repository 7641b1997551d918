/**
 * Reports (issue 50, bench:reports): a transmission's voice_heard rows read from the index alone. The missed
 * transmissions measure reads, for each transmission of the period, who heard it and whether live; through
 * voice_heard_message (voice_message_id only) each of those rows was also read from the table (PostgreSQL,
 * 30 days at 1,000,000 activities: 383 ms, 238 ms index-only). The new index starts with the same column, so it
 * serves what voice_heard_message did (the cascade from voice_messages), which goes.
 */
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../dialect.ts';
import type { AnyDb } from './columns.ts';

export function migration(_dialect: Dialect): Migration {
  return {
    async up(db: AnyDb) {
      await db.schema
        .createIndex('voice_heard_message_user')
        .on('voice_heard')
        .columns(['voice_message_id', 'user_id', 'live'])
        .execute();
      await db.schema.dropIndex('voice_heard_message').execute();
    },
    async down(db: AnyDb) {
      await db.schema.createIndex('voice_heard_message').on('voice_heard').column('voice_message_id').execute();
      await db.schema.dropIndex('voice_heard_message_user').execute();
    },
  };
}
