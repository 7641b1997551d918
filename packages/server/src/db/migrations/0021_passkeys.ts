/**
 * Passkeys (issue 38):
 * - passkeys: a user's WebAuthn credentials, by their id (base64url, unique), with the public key (COSE,
 *   base64url), the signature counter, the transports the authenticator named, a name, when added and last used.
 * - webauthn_challenges: each challenge the server handed out, good once and for 5 minutes; `user_id` is set
 *   for a registration (the account adding a passkey), null for a sign-in (nobody known yet).
 */
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../dialect.ts';
import { type AnyDb, columnsFor } from './columns.ts';

export function migration(dialect: Dialect): Migration {
  const { time, withId } = columnsFor(dialect);
  return {
    async up(db: AnyDb) {
      await withId(db.schema.createTable('passkeys'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('credential_id', 'text', (c) => c.notNull().unique())
        .addColumn('public_key', 'text', (c) => c.notNull())
        .addColumn('counter', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('transports', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('last_used_at', time)
        .execute();
      await db.schema.createIndex('passkeys_user').on('passkeys').column('user_id').execute();
      await withId(db.schema.createTable('webauthn_challenges'))
        .addColumn('challenge', 'text', (c) => c.notNull().unique())
        .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
        .addColumn('expires_at', time, (c) => c.notNull())
        .execute();
    },
  };
}
