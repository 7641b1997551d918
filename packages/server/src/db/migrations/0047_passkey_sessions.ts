/**
 * Issue 69: a passkey remembers the session it was registered from (`passkeys.session_id`), so that disabling a lost
 * or stolen phone's session (disableDevice) removes the passkeys registered on it too. The link goes with the
 * session (set null when it ends): a passkey registered before this migration, or from a session that has ended
 * since, knows no session and stays until its owner or an administrator deletes it.
 */
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../dialect.ts';
import type { AnyDb } from './columns.ts';

export function migration(_dialect: Dialect): Migration {
  return {
    async up(db: AnyDb) {
      await db.schema
        .alterTable('passkeys')
        .addColumn('session_id', 'integer', (c) => c.references('sessions.id').onDelete('set null'))
        .execute();
      // A session's end (its sweep deletes many) sets its passkeys' link to null: found by this index.
      await db.schema.createIndex('passkeys_session').on('passkeys').column('session_id').execute();
    },
    async down(db: AnyDb) {
      await db.schema.dropIndex('passkeys_session').execute();
      await db.schema.alterTable('passkeys').dropColumn('session_id').execute();
    },
  };
}
