/**
 * Issue 70: emergency_alerts.ok_at, when the member said "Je vais bien" after its alert (reportOk): the alert's
 * dispatchers see it on the alert at once. The alert stays open: only a dispatcher closes it.
 */
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../dialect.ts';
import { type AnyDb, columnsFor } from './columns.ts';

export function migration(dialect: Dialect): Migration {
  const { time } = columnsFor(dialect);
  return {
    async up(db: AnyDb) {
      await db.schema.alterTable('emergency_alerts').addColumn('ok_at', time).execute();
    },
    async down(db: AnyDb) {
      await db.schema.alterTable('emergency_alerts').dropColumn('ok_at').execute();
    },
  };
}
