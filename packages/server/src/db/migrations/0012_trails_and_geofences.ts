/**
 * Trails and geofences (issue 28). Positions were always kept; the retention sweep deletes the old ones by
 * time, so they get an index on time alone (the trail of one user reads user_positions_user_time, 0001).
 * A geofence is a circle or a polygon (its shape as JSON text, read and written whole) watching one channel's
 * members or, without a channel, everyone. geofence_states keeps, per fence and member, the side of the edge
 * last decided, so that every instance and a restart agree on what a crossing is. Activities of a crossing
 * keep the fence's name, like they keep the user's and channel's.
 */
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../dialect.ts';
import { type AnyDb, columnsFor } from './columns.ts';

export function migration(dialect: Dialect): Migration {
  const { time, withId } = columnsFor(dialect);
  return {
    async up(db: AnyDb) {
      await db.schema.createIndex('user_positions_time').on('user_positions').column('created_at').execute();

      await withId(db.schema.createTable('geofences'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('channel_id', 'integer', (c) => c.references('channels.id').onDelete('cascade'))
        .addColumn('shape', 'text', (c) => c.notNull())
        .addColumn('alert_on', 'text', (c) => c.notNull())
        .addColumn('active_until', time)
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('updated_at', time, (c) => c.notNull())
        .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('created_by_name', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('geofences_channel').on('geofences').column('channel_id').execute();

      await db.schema
        .createTable('geofence_states')
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('geofence_id', 'integer', (c) => c.notNull().references('geofences.id').onDelete('cascade'))
        .addColumn('inside', 'integer', (c) => c.notNull())
        .addColumn('changed_at', time, (c) => c.notNull())
        .addPrimaryKeyConstraint('geofence_states_pk', ['user_id', 'geofence_id'])
        .execute();
      await db.schema.createIndex('geofence_states_fence').on('geofence_states').column('geofence_id').execute();

      await db.schema.alterTable('activities').addColumn('geofence_id', 'integer').execute();
      await db.schema.alterTable('activities').addColumn('geofence_name', 'text').execute();
    },
  };
}
