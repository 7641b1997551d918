import type { Migration } from 'kysely/migration';
import type { Dialect } from '../dialect.ts';
import { type AnyDb, columnsFor } from './columns.ts';

// Hardening (issue 16): a session's last use (idle timeout) and the administrators' audit log.
export function migration(dialect: Dialect): Migration {
  const { time, withId } = columnsFor(dialect);
  return {
    async up(db: AnyDb) {
      await db.schema.alterTable('sessions').addColumn('last_seen_at', time).execute();
      // Names are kept so that a row still reads after its actor or target is deleted; never pruned.
      await withId(db.schema.createTable('audit_log'))
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('actor_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('actor_name', 'text', (c) => c.notNull())
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('target_type', 'text', (c) => c.notNull())
        .addColumn('target_id', 'integer')
        .addColumn('target_name', 'text')
        .addColumn('changes', 'text')
        .addColumn('address', 'text')
        .addColumn('request_id', 'text')
        .execute();
      await db.schema.createIndex('audit_log_time').on('audit_log').columns(['created_at', 'id']).execute();
      await db.schema.createIndex('audit_log_actor').on('audit_log').columns(['actor_id', 'id']).execute();
      await db.schema.createIndex('audit_log_target').on('audit_log').columns(['target_type', 'id']).execute();
    },
  };
}
