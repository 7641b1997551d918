import type { Migration } from 'kysely/migration';
import type { Dialect } from '../dialect.ts';
import { type AnyDb, columnsFor } from './columns.ts';

export function migration(dialect: Dialect): Migration {
  const { time, real, withId } = columnsFor(dialect);
  return {
    async up(db: AnyDb) {
      // Floor control on by default: a channel behaves like a radio net unless a team turns it off.
      await db.schema
        .alterTable('channels')
        .addColumn('floor_control', 'integer', (c) => c.notNull().defaultTo(1))
        .execute();
      // How long a transmission lasted (channel_talk); other activities have none.
      await db.schema.alterTable('activities').addColumn('duration_ms', 'integer').execute();

      // Names are kept (like activities) so that an alert still reads after its user or channel is deleted.
      await withId(db.schema.createTable('emergency_alerts'))
        .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('user_display_name', 'text', (c) => c.notNull())
        .addColumn('channel_id', 'integer', (c) => c.references('channels.id').onDelete('set null'))
        .addColumn('channel_name', 'text')
        .addColumn('lat', real)
        .addColumn('lng', real)
        .addColumn('accuracy', real)
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('acknowledged_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('acknowledged_by_name', 'text')
        .addColumn('acknowledged_at', time)
        .execute();
      await db.schema
        .createIndex('emergency_alerts_open')
        .on('emergency_alerts')
        .columns(['acknowledged_at', 'created_at'])
        .execute();
      await db.schema
        .createIndex('emergency_alerts_user')
        .on('emergency_alerts')
        .columns(['user_id', 'created_at'])
        .execute();
    },
  };
}
