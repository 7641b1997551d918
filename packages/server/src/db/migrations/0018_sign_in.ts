/**
 * Sign-in for organisations (issue 38), what every way of signing in shares: a session records how it was
 * opened (`method`: password, passkey or sso), the browser's user agent and the address it came from, so that
 * the account page lists where a user is signed in. Later migrations of that issue add the passkeys, the
 * second factor and the identity providers' links.
 */
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../dialect.ts';
import type { AnyDb } from './columns.ts';

export function migration(_dialect: Dialect): Migration {
  return {
    async up(db: AnyDb) {
      await db.schema
        .alterTable('sessions')
        .addColumn('method', 'text', (c) => c.notNull().defaultTo('password'))
        .execute();
      await db.schema.alterTable('sessions').addColumn('user_agent', 'text').execute();
      await db.schema.alterTable('sessions').addColumn('address', 'text').execute();
    },
  };
}
