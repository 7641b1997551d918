/**
 * A second factor (issue 38):
 * - totp_secrets: one row per user who started or finished setting up TOTP. `secret` is sealed at rest
 *   (auth/sealed.ts); `confirmed` once a code of it was given back; `last_step` is the last time step a code
 *   was accepted at, so that a code works once.
 * - recovery_codes: ten per user with TOTP on, only their SHA-256 stored; `used_at` once used.
 * - sessions.second_factor_pending: a session opened by a password for a user whose role must have a second
 *   factor and who had none; it reaches only the setup until a factor is set (then every pending session of
 *   the user is cleared).
 * The security policy (which roles must have one) is a row of `settings` (key `security`).
 */
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../dialect.ts';
import { type AnyDb, columnsFor } from './columns.ts';

export function migration(dialect: Dialect): Migration {
  const { time, withId } = columnsFor(dialect);
  return {
    async up(db: AnyDb) {
      await db.schema
        .createTable('totp_secrets')
        .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
        .addColumn('secret', 'text', (c) => c.notNull())
        .addColumn('confirmed', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('last_step', 'integer')
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('confirmed_at', time)
        .execute();
      await withId(db.schema.createTable('recovery_codes'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('code_hash', 'text', (c) => c.notNull())
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('used_at', time)
        .execute();
      await db.schema
        .createIndex('recovery_codes_user')
        .on('recovery_codes')
        .columns(['user_id', 'code_hash'])
        .execute();
      await db.schema
        .alterTable('sessions')
        .addColumn('second_factor_pending', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
    },
  };
}
