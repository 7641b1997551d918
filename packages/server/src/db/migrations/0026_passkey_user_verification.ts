/**
 * Factors that mean what they say (issue 47): passkeys.user_verified is 1 once the authenticator verified its
 * user (PIN, fingerprint, face: the WebAuthn UV flag) when the passkey was added or at a later sign-in. Only such
 * a passkey counts as a second factor (auth/second-factor.ts). Passkeys added before this migration were not
 * asked: they start at 0, and their first sign-in with user verification sets it.
 */
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../dialect.ts';
import type { AnyDb } from './columns.ts';

export function migration(_dialect: Dialect): Migration {
  return {
    async up(db: AnyDb) {
      await db.schema
        .alterTable('passkeys')
        .addColumn('user_verified', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
    },
  };
}
