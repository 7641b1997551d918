/**
 * The dispatch console (issue 27):
 * - channels.hidden: 1 for the hidden channel of a private call (one per pair of users), which no list shows.
 * - monitored_channels and dispatch_preferences: each user's monitor list (its tiles in order, their volumes and
 *   mutes) and the level of the tiles that are not selected, so that they follow the user to another desk.
 * - channel_patches and channel_patch_members: channels whose voice the media server joins; a channel is in one
 *   patch at a time (unique channel_id), so two desks patching the same channel at once cannot both succeed.
 * - private_calls: who called whom, in which hidden channel, and how the call went.
 * - settings: the organisation's settings (whether members may call each other), key -> JSON value.
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
        .addColumn('hidden', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();

      await db.schema
        .createTable('monitored_channels')
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('channel_id', 'integer', (c) => c.notNull().references('channels.id').onDelete('cascade'))
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('volume', 'integer', (c) => c.notNull())
        .addColumn('muted', 'integer', (c) => c.notNull().defaultTo(0))
        .addPrimaryKeyConstraint('monitored_channels_pk', ['user_id', 'channel_id'])
        .execute();
      await db.schema.createIndex('monitored_channels_channel').on('monitored_channels').column('channel_id').execute();
      await db.schema
        .createTable('dispatch_preferences')
        .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
        .addColumn('unselected_volume', 'integer', (c) => c.notNull())
        .execute();

      await withId(db.schema.createTable('channel_patches'))
        .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('created_by_name', 'text', (c) => c.notNull())
        .addColumn('created_at', time, (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('channel_patch_members')
        .addColumn('patch_id', 'integer', (c) => c.notNull().references('channel_patches.id').onDelete('cascade'))
        .addColumn('channel_id', 'integer', (c) => c.notNull().references('channels.id').onDelete('cascade'))
        .addPrimaryKeyConstraint('channel_patch_members_pk', ['patch_id', 'channel_id'])
        .execute();
      await db.schema
        .createIndex('channel_patch_members_channel')
        .on('channel_patch_members')
        .column('channel_id')
        .unique()
        .execute();

      await withId(db.schema.createTable('private_calls'))
        .addColumn('channel_id', 'integer', (c) => c.notNull().references('channels.id').onDelete('cascade'))
        .addColumn('caller_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('caller_name', 'text', (c) => c.notNull())
        .addColumn('callee_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('callee_name', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('started_at', time, (c) => c.notNull())
        .addColumn('answered_at', time)
        .addColumn('ended_at', time)
        .execute();
      await db.schema.createIndex('private_calls_caller').on('private_calls').columns(['caller_id', 'id']).execute();
      await db.schema.createIndex('private_calls_callee').on('private_calls').columns(['callee_id', 'id']).execute();
      await db.schema.createIndex('private_calls_state').on('private_calls').columns(['state', 'id']).execute();

      await db.schema
        .createTable('settings')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .execute();
    },
  };
}
