/**
 * Dynamic regrouping and the selected channel (issue 59, items 3 and 4):
 * - channels.temporary: 0 a channel; 1 the channel of an open regroup (listed with `temporary: true`); 2 the
 *   channel of a regroup that ended, kept for its voice history, activities and reports, which no list shows and
 *   nobody belongs to.
 * - regroups: a dispatcher's regroup, its channel, who made it, when it expires (`expires_at`, indexed with
 *   `ended_at` so that the sweep finds what is due with one read) and how it ended.
 * - regroup_members: who it holds, and the channel each had selected before (where its end brings them back).
 * - selected_channels: the channel each user's /talk is on, as the user or a dispatcher last selected it, so
 *   that a regroup's end brings them back and a member who opens /talk later lands there.
 */
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../dialect.ts';
import { type AnyDb, columnsFor } from './columns.ts';

export function migration(dialect: Dialect): Migration {
  const { time, withId } = columnsFor(dialect);
  return {
    async up(db: AnyDb) {
      await db.schema
        .alterTable('channels')
        .addColumn('temporary', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();

      await withId(db.schema.createTable('regroups'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('channel_id', 'integer', (c) => c.notNull().references('channels.id').onDelete('cascade'))
        .addColumn('created_by_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('created_by_name', 'text', (c) => c.notNull())
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('expires_at', time, (c) => c.notNull())
        .addColumn('ended_at', time)
        .addColumn('end_reason', 'text')
        .addColumn('ended_by_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('ended_by_name', 'text')
        .execute();
      await db.schema.createIndex('regroups_open').on('regroups').columns(['ended_at', 'expires_at']).execute();

      await db.schema
        .createTable('regroup_members')
        .addColumn('regroup_id', 'integer', (c) => c.notNull().references('regroups.id').onDelete('cascade'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('previous_channel_id', 'integer', (c) => c.references('channels.id').onDelete('set null'))
        .addPrimaryKeyConstraint('regroup_members_pk', ['regroup_id', 'user_id'])
        .execute();
      await db.schema.createIndex('regroup_members_user').on('regroup_members').column('user_id').execute();

      await db.schema
        .createTable('selected_channels')
        .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
        .addColumn('channel_id', 'integer', (c) => c.notNull().references('channels.id').onDelete('cascade'))
        .addColumn('reason', 'text', (c) => c.notNull())
        .addColumn('by_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('by_name', 'text')
        .addColumn('selected_at', time, (c) => c.notNull())
        .execute();
    },
    async down(db: AnyDb) {
      await db.schema.dropTable('selected_channels').execute();
      await db.schema.dropTable('regroup_members').execute();
      await db.schema.dropTable('regroups').execute();
      await db.schema.alterTable('channels').dropColumn('temporary').execute();
    },
  };
}
