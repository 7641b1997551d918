/**
 * Issue 69: who may take a functional alias by itself (`aliases.take_roles`, a JSON array of role names, those of
 * signUpUser). Until now anyone signed in took any alias; every alias, those that exist included, is now taken by
 * dispatchers and administrators only, until an administrator widens it (updateAlias `takeRoles`). An assignment by
 * an administrator or a dispatcher is not a take and is not bound by it.
 */
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../dialect.ts';
import type { AnyDb } from './columns.ts';

export function migration(_dialect: Dialect): Migration {
  return {
    async up(db: AnyDb) {
      await db.schema
        .alterTable('aliases')
        .addColumn('take_roles', 'text', (c) => c.notNull().defaultTo('["dispatcher","admin"]'))
        .execute();
    },
    async down(db: AnyDb) {
      await db.schema.alterTable('aliases').dropColumn('take_roles').execute();
    },
  };
}
