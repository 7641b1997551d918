/**
 * Worker safety (issue 60): an SOS says why it was raised (`emergency_alerts.reason`: 'sos', 'man_down' or
 * 'lone_worker'; every earlier alert was a press of the button) and who raised it for the member, if not it
 * (`raised_by`, `raised_by_name`: a dispatcher). `lone_workers` holds one row per member working alone: its
 * interval and grace, its step (0 answered, 1 asked, 2 reminded, 3 alert sent, 4 SOS raised) and when the next
 * step falls due (`step_at`; null once escalated), kept in the database so that a restart loses no deadline
 * and the step's conditional update lets one instance alone take it. The safety settings are a key of
 * `settings` (migration 0014) and need no table.
 */
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../dialect.ts';
import { type AnyDb, columnsFor } from './columns.ts';

export function migration(dialect: Dialect): Migration {
  const { time } = columnsFor(dialect);
  return {
    async up(db: AnyDb) {
      await db.schema
        .alterTable('emergency_alerts')
        .addColumn('reason', 'text', (c) => c.notNull().defaultTo('sos'))
        .execute();
      await db.schema.alterTable('emergency_alerts').addColumn('raised_by', 'integer').execute();
      await db.schema.alterTable('emergency_alerts').addColumn('raised_by_name', 'text').execute();
      await db.schema
        .createTable('lone_workers')
        .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
        .addColumn('interval_seconds', 'integer', (c) => c.notNull())
        .addColumn('grace_seconds', 'integer', (c) => c.notNull())
        .addColumn('step', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('step_at', time)
        .addColumn('check_at', time, (c) => c.notNull())
        .addColumn('last_check_in', time, (c) => c.notNull())
        .addColumn('started_at', time, (c) => c.notNull())
        .addColumn('asked_at', time)
        .addColumn('reminded_at', time)
        .addColumn('missed_at', time)
        .addColumn('escalated_at', time)
        .addColumn('alert_id', 'integer', (c) => c.references('emergency_alerts.id').onDelete('set null'))
        .execute();
      // Each instance's sweep reads the rows whose next step is due.
      await db.schema.createIndex('lone_workers_step_at').on('lone_workers').column('step_at').execute();
    },
  };
}
