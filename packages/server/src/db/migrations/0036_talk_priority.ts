/**
 * A user's talk priority (issue 59): 1 to 9, or null for the role's default (member 3, dispatcher 6,
 * administrator 7: protocol's talk-priority.ts). Null is kept rather than the default written in, so that a
 * user whose priority nobody set follows its role when the role changes; every existing user starts so.
 */
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../dialect.ts';
import type { AnyDb } from './columns.ts';

export function migration(_dialect: Dialect): Migration {
  return {
    async up(db: AnyDb) {
      // The range is checked where it is written (the calls' schema, the import), as the role is.
      await db.schema.alterTable('users').addColumn('talk_priority', 'integer').execute();
    },
    async down(db: AnyDb) {
      await db.schema.alterTable('users').dropColumn('talk_priority').execute();
    },
  };
}
