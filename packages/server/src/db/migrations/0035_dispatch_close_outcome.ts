/**
 * How a dispatch request ended (issue 58): closeDispatchCall's outcome (resolved, no_action, referred), the
 * dispatcher's close note and incident reference, and who closed it (its name kept, as the holder's is).
 * Requests closed before this have none of them. And an index on the private call a request is answered by: a
 * call's ring says which request it answers (issue 58).
 */
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../dialect.ts';
import type { AnyDb } from './columns.ts';

export function migration(_dialect: Dialect): Migration {
  return {
    async up(db: AnyDb) {
      // One column a statement: SQLite adds one at a time.
      await db.schema.alterTable('dispatch_requests').addColumn('outcome', 'text').execute();
      await db.schema.alterTable('dispatch_requests').addColumn('close_note', 'text').execute();
      await db.schema.alterTable('dispatch_requests').addColumn('reference', 'text').execute();
      await db.schema
        .alterTable('dispatch_requests')
        .addColumn('closed_by_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .execute();
      await db.schema.alterTable('dispatch_requests').addColumn('closed_by_name', 'text').execute();
      // A private call's ring reads the request it answers (calls/store.ts).
      await db.schema.createIndex('dispatch_requests_call').on('dispatch_requests').column('call_id').execute();
    },
    async down(db: AnyDb) {
      await db.schema.dropIndex('dispatch_requests_call').execute();
      for (const column of ['closed_by_name', 'closed_by_id', 'reference', 'close_note', 'outcome'])
        await db.schema.alterTable('dispatch_requests').dropColumn(column).execute();
    },
  };
}
