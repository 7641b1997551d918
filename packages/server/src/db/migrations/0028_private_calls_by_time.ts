/**
 * Compliance lists the private calls of a period (issue 47, listPrivateCalls): private_calls by their start,
 * newest first, read through an index instead of the whole table.
 */
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../dialect.ts';
import type { AnyDb } from './columns.ts';

export function migration(_dialect: Dialect): Migration {
  return {
    async up(db: AnyDb) {
      await db.schema.createIndex('private_calls_started').on('private_calls').columns(['started_at', 'id']).execute();
    },
    async down(db: AnyDb) {
      await db.schema.dropIndex('private_calls_started').execute();
    },
  };
}
