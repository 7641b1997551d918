/**
 * Big user imports as jobs (issue 29):
 * - import_jobs: one import of many rows, run in batches by one instance at a time. `runner` names the instance
 *   that runs it and `heartbeat_at` when that instance last said so: a job whose runner is gone (none, or a
 *   heartbeat older than the lease) is taken up by the next instance that looks, at its start or later.
 *   `done` counts the rows handled, `options` holds the import's mode and the channels its rows name (JSON),
 *   `channels` the channels it reported or created, `error` why a job failed.
 * - import_job_rows: the job's rows in the file's order. `outcome` is null while the row waits (its `data` then
 *   holds the password, the only place it is kept, until the row is handled), then the group of the answer it
 *   went to (added, alreadyExisting, notAdded, updated) with the row as answered, without the password.
 */
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../dialect.ts';
import { type AnyDb, columnsFor } from './columns.ts';

export function migration(dialect: Dialect): Migration {
  const { time, withId } = columnsFor(dialect);
  return {
    async up(db: AnyDb) {
      await withId(db.schema.createTable('import_jobs'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('actor_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('total', 'integer', (c) => c.notNull())
        .addColumn('done', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('options', 'text', (c) => c.notNull())
        .addColumn('channels', 'text', (c) => c.notNull())
        .addColumn('error', 'text')
        .addColumn('runner', 'text')
        .addColumn('heartbeat_at', time)
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('finished_at', time)
        .execute();
      await db.schema.createIndex('import_jobs_state').on('import_jobs').column('state').execute();
      await db.schema
        .createTable('import_job_rows')
        .addColumn('job_id', 'integer', (c) => c.notNull().references('import_jobs.id').onDelete('cascade'))
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('outcome', 'text')
        .addColumn('data', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('import_job_rows_pk', ['job_id', 'position'])
        .execute();
    },
  };
}
