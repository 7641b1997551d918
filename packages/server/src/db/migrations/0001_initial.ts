import { sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../dialect.ts';
import { type AnyDb, columnsFor } from './columns.ts';

export function migration(dialect: Dialect): Migration {
  const { time, real, withId } = columnsFor(dialect);
  return {
    async up(db: AnyDb) {
      await withId(db.schema.createTable('users'))
        .addColumn('first_name', 'text', (c) => c.notNull())
        .addColumn('last_name', 'text', (c) => c.notNull())
        .addColumn('identifier', 'text', (c) => c.notNull().unique())
        .addColumn('pseudo', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('display_name', 'text', (c) => c.notNull())
        .addColumn('phone_number', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('map_right', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ('admin', 'member')`))
        .addColumn('photo_url', 'text')
        .addColumn('created_at', time, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('users_created_at').on('users').column('created_at').execute();

      await withId(db.schema.createTable('sessions'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('expires_at', time, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();

      await withId(db.schema.createTable('channels'))
        .addColumn('name', 'text', (c) => c.notNull().unique())
        .addColumn('rtc_session', 'text', (c) => c.notNull().unique())
        .addColumn('created_at', time, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('channels_created_at').on('channels').column('created_at').execute();

      await db.schema
        .createTable('channel_members')
        .addColumn('channel_id', 'integer', (c) => c.notNull().references('channels.id').onDelete('cascade'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', time, (c) => c.notNull())
        .addPrimaryKeyConstraint('channel_members_pk', ['channel_id', 'user_id'])
        .execute();
      await db.schema.createIndex('channel_members_user').on('channel_members').column('user_id').execute();

      await withId(db.schema.createTable('user_sockets'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('channel_id', 'integer', (c) => c.references('channels.id').onDelete('cascade'))
        .addColumn('socket_id', 'text', (c) => c.notNull())
        .addColumn('instance_id', 'text', (c) => c.notNull())
        .addColumn('mic_state', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', time, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('user_sockets_user').on('user_sockets').column('user_id').execute();
      await db.schema.createIndex('user_sockets_channel').on('user_sockets').column('channel_id').execute();
      await db.schema.createIndex('user_sockets_socket').on('user_sockets').column('socket_id').execute();
      await db.schema.createIndex('user_sockets_instance').on('user_sockets').column('instance_id').execute();

      await withId(db.schema.createTable('user_positions'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('lat', real, (c) => c.notNull())
        .addColumn('lng', real, (c) => c.notNull())
        .addColumn('accuracy', real)
        .addColumn('created_at', time, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('user_positions_user_time')
        .on('user_positions')
        .columns(['user_id', 'created_at'])
        .execute();

      await withId(db.schema.createTable('activities'))
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('user_first_name', 'text')
        .addColumn('user_last_name', 'text')
        .addColumn('user_display_name', 'text')
        .addColumn('channel_id', 'integer', (c) => c.references('channels.id').onDelete('set null'))
        .addColumn('channel_name', 'text')
        .addColumn('created_at', time, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('activities_created_at').on('activities').columns(['created_at', 'id']).execute();
      await db.schema.createIndex('activities_user_time').on('activities').columns(['user_id', 'created_at']).execute();
      await db.schema
        .createIndex('activities_channel_time')
        .on('activities')
        .columns(['channel_id', 'created_at'])
        .execute();

      await withId(db.schema.createTable('messages'))
        .addColumn('channel_id', 'integer', (c) => c.notNull().references('channels.id').onDelete('cascade'))
        .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('user_display_name', 'text', (c) => c.notNull())
        .addColumn('text_msg', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('file_path', 'text')
        .addColumn('file_name', 'text')
        .addColumn('file_mime', 'text')
        .addColumn('created_at', time, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('messages_channel').on('messages').columns(['channel_id', 'id']).execute();

      await withId(db.schema.createTable('talk_bursts'))
        .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('channel_id', 'integer', (c) => c.references('channels.id').onDelete('set null'))
        .addColumn('channel_name', 'text', (c) => c.notNull())
        .addColumn('started_at', time, (c) => c.notNull())
        .addColumn('ended_at', time)
        .execute();
      await db.schema.createIndex('talk_bursts_user').on('talk_bursts').columns(['user_id', 'started_at']).execute();

      await withId(db.schema.createTable('devices'))
        .addColumn('display_name', 'text', (c) => c.notNull())
        .addColumn('mac_address', 'text', (c) => c.notNull().unique())
        .addColumn('type', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('manufacturer', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('product_ref', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('created_at', time, (c) => c.notNull())
        .execute();

      await withId(db.schema.createTable('material_types'))
        .addColumn('name', 'text', (c) => c.notNull().unique())
        .addColumn('created_at', time, (c) => c.notNull())
        .execute();
    },
  };
}
