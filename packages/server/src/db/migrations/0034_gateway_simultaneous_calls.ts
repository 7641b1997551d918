/**
 * A gateway's simultaneous calls (issue 57): how many calls it may hold at once, past which the SIP server
 * answers 486 Busy Here. Null, as every existing gateway gets, is the default: one call per channel it may
 * enter (gateways/store.ts, maxCalls). An administrator raises it on /settings.
 */
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../dialect.ts';
import type { AnyDb } from './columns.ts';

export function migration(_dialect: Dialect): Migration {
  return {
    async up(db: AnyDb) {
      await db.schema.alterTable('gateways').addColumn('simultaneous_calls', 'integer').execute();
    },
    async down(db: AnyDb) {
      await db.schema.alterTable('gateways').dropColumn('simultaneous_calls').execute();
    },
  };
}
