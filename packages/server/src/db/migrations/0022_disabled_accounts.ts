/**
 * Disabled accounts (issue 38): an administrator turns an account off without deleting it (a member who left
 * for a while, a stolen phone). `disabled_at` is when; null is an account in use. A disabled account opens no
 * session, by password, passkey or single sign-on, and its sessions ended when it was disabled.
 */
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../dialect.ts';
import { type AnyDb, columnsFor } from './columns.ts';

export function migration(dialect: Dialect): Migration {
  const { time } = columnsFor(dialect);
  return {
    async up(db: AnyDb) {
      await db.schema.alterTable('users').addColumn('disabled_at', time).execute();
    },
  };
}
