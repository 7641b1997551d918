/**
 * Single sign-on (issue 38):
 * - identity_links: an account's identity at an OpenID Connect provider, by issuer and `sub` (the provider's
 *   stable subject id). Made at the first sign-in through the provider; later sign-ins find the account by it,
 *   never by email again. When the account is deleted the link stays with user_id null: the provider's yes
 *   then no longer opens anything (a deleted account is not re-created by its next sign-in).
 * - oidc_sign_ins: what one sign-in through the provider keeps between its steps: the `state` sent to the
 *   provider (its SHA-256) with its PKCE verifier and nonce, then the one-time code the browser exchanges for a
 *   session (its SHA-256) with the account. Each row is used once and lives 10 minutes at most (a code, 2).
 */
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../dialect.ts';
import { type AnyDb, columnsFor } from './columns.ts';

export function migration(dialect: Dialect): Migration {
  const { time, withId } = columnsFor(dialect);
  return {
    async up(db: AnyDb) {
      await withId(db.schema.createTable('identity_links'))
        .addColumn('issuer', 'text', (c) => c.notNull())
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('email', 'text')
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('last_used_at', time)
        .addUniqueConstraint('identity_links_issuer_subject', ['issuer', 'subject'])
        .execute();
      await db.schema.createIndex('identity_links_user').on('identity_links').column('user_id').execute();
      await withId(db.schema.createTable('oidc_sign_ins'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('key_hash', 'text', (c) => c.notNull().unique())
        .addColumn('code_verifier', 'text')
        .addColumn('nonce', 'text')
        .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
        .addColumn('expires_at', time, (c) => c.notNull())
        .execute();
    },
  };
}
