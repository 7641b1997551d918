/**
 * Sign-in that a security review signs off (issue 47):
 * - sessions.confirmed_at: when the session's owner last proved it is them (signing in, a password or a factor
 *   given again, the provider asked again). Adding or removing a factor and changing one's email need it within
 *   the last 5 minutes. Sessions opened before this migration have none: they confirm before such a change.
 * - oidc_sign_ins: what a sign-in through the provider is for (`purpose`: signing in, linking the provider to the
 *   signed-in account, confirming it is them), the session that asked (link, confirm), the SHA-256 of the
 *   browser binding (a cookie set when the sign-in starts, checked when its code is redeemed), and whether the
 *   provider said a second factor was used (`mfa`).
 * - identity_requests: a provider identity refused because an account not linked to it has its email; an
 *   administrator links it or dismisses it (nobody's account is taken by its email).
 * - webauthn_challenges: an index on expires_at, for the sweep.
 */
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../dialect.ts';
import { type AnyDb, columnsFor } from './columns.ts';

export function migration(dialect: Dialect): Migration {
  const { time, withId } = columnsFor(dialect);
  return {
    async up(db: AnyDb) {
      await db.schema.alterTable('sessions').addColumn('confirmed_at', time).execute();
      await db.schema.alterTable('oidc_sign_ins').addColumn('purpose', 'text').execute();
      await db.schema
        .alterTable('oidc_sign_ins')
        .addColumn('session_id', 'integer', (c) => c.references('sessions.id').onDelete('cascade'))
        .execute();
      await db.schema.alterTable('oidc_sign_ins').addColumn('binding_hash', 'text').execute();
      await db.schema
        .alterTable('oidc_sign_ins')
        .addColumn('mfa', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.createIndex('oidc_sign_ins_expires').on('oidc_sign_ins').column('expires_at').execute();
      await withId(db.schema.createTable('identity_requests'))
        .addColumn('issuer', 'text', (c) => c.notNull())
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('last_seen_at', time, (c) => c.notNull())
        .addUniqueConstraint('identity_requests_issuer_subject', ['issuer', 'subject'])
        .execute();
      await db.schema.createIndex('identity_requests_user').on('identity_requests').column('user_id').execute();
      await db.schema
        .createIndex('webauthn_challenges_expires')
        .on('webauthn_challenges')
        .column('expires_at')
        .execute();
    },
  };
}
