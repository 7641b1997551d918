/**
 * The floor queue and pre-emption of a channel (issue 59): `floor_queue` 1 (a press on a busy floor waits in the
 * channel's queue) or 0 (it is refused, as before), and `preemption`, 'interrupt' (a higher talk priority takes
 * the floor from the talker) or 'queue' (it goes first in the queue). Existing channels get the defaults.
 */
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../dialect.ts';
import type { AnyDb } from './columns.ts';

export function migration(_dialect: Dialect): Migration {
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
    },
    async down(db: AnyDb) {
      await db.schema.alterTable('channels').dropColumn('preemption').execute();
      await db.schema.alterTable('channels').dropColumn('floor_queue').execute();
    },
  };
}
