/**
 * Web Push (issue 34):
 * - push_keys: the deployment's VAPID key pair (one row, id 1), made on the first start that needs it unless
 *   VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY are given. base64url, as web-push writes them.
 * - push_subscriptions: one row per push endpoint, for the user and the signed-in session that saved it; it
 *   goes with the session (logout, revocation, expiry) and with the user. `language` is the Accept-Language
 *   (fr, en or de) of the request that saved it: the notifications' texts are written in it.
 */
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../dialect.ts';
import { type AnyDb, columnsFor } from './columns.ts';

export function migration(dialect: Dialect): Migration {
  const { time, withId } = columnsFor(dialect);
  return {
    async up(db: AnyDb) {
      await db.schema
        .createTable('push_keys')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('public_key', 'text', (c) => c.notNull())
        .addColumn('private_key', 'text', (c) => c.notNull())
        .addColumn('created_at', time, (c) => c.notNull())
        .execute();
      await withId(db.schema.createTable('push_subscriptions'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('session_id', 'integer', (c) => c.notNull().references('sessions.id').onDelete('cascade'))
        .addColumn('endpoint', 'text', (c) => c.notNull().unique())
        .addColumn('p256dh', 'text', (c) => c.notNull())
        .addColumn('auth', 'text', (c) => c.notNull())
        .addColumn('expiration_time', 'bigint')
        .addColumn('language', 'text', (c) => c.notNull())
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('updated_at', time, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('push_subscriptions_user').on('push_subscriptions').column('user_id').execute();
      await db.schema.createIndex('push_subscriptions_session').on('push_subscriptions').column('session_id').execute();
    },
  };
}
