/**
 * Functional aliases (issue 59 item 5):
 * - aliases: a role people take and give back ("Chef de quart"), its name unique, and how many may hold it at once;
 * - alias_holders: who holds which, since when (one row per alias and user; deleted with either);
 * - private_calls.alias_id, alias_name and rings: a call made to an alias, and the holders its ring reaches (a
 *   JSON array of user ids); the first of them to answer becomes the callee.
 */
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../dialect.ts';
import { type AnyDb, columnsFor } from './columns.ts';

export function migration(dialect: Dialect): Migration {
  const { time, withId } = columnsFor(dialect);
  return {
    async up(db: AnyDb) {
      await withId(db.schema.createTable('aliases'))
        .addColumn('name', 'text', (c) => c.notNull().unique())
        .addColumn('max_holders', 'integer', (c) => c.notNull().defaultTo(1))
        .execute();
      await db.schema
        .createTable('alias_holders')
        .addColumn('alias_id', 'integer', (c) => c.notNull().references('aliases.id').onDelete('cascade'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('since', time, (c) => c.notNull())
        .addPrimaryKeyConstraint('alias_holders_pk', ['alias_id', 'user_id'])
        .execute();
      await db.schema.createIndex('alias_holders_user').on('alias_holders').column('user_id').execute();
      await db.schema.alterTable('private_calls').addColumn('alias_id', 'integer').execute();
      await db.schema.alterTable('private_calls').addColumn('alias_name', 'text').execute();
      await db.schema.alterTable('private_calls').addColumn('rings', 'text').execute();
    },
    async down(db: AnyDb) {
      await db.schema.alterTable('private_calls').dropColumn('rings').execute();
      await db.schema.alterTable('private_calls').dropColumn('alias_name').execute();
      await db.schema.alterTable('private_calls').dropColumn('alias_id').execute();
      await db.schema.dropTable('alias_holders').execute();
      await db.schema.dropTable('aliases').execute();
    },
  };
}
