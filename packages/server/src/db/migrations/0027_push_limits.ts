/**
 * Push nobody can clog (issue 47): at most one push subscription per session, enforced by a unique index on
 * push_subscriptions.session_id (saving a new one replaces the session's previous one: push/store.ts). Rows that
 * existing data holds beyond it go first: per session, the most recently saved one stays (ties: the newest row).
 * Each user's rows past the five most recently saved go too (the store keeps that limit from now on).
 */
import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../dialect.ts';
import type { AnyDb } from './columns.ts';

/** Rows ranked within their group, the most recently saved first. */
function ranked(db: Kysely<any>, group: 'session_id' | 'user_id') {
  return db
    .selectFrom('push_subscriptions')
    .select([
      'id',
      sql<number>`row_number() over (partition by ${sql.ref(group)} order by updated_at desc, id desc)`.as('place'),
    ]);
}

export function migration(_dialect: Dialect): Migration {
  return {
    async up(db: AnyDb) {
      const any = db as Kysely<any>;
      await any
        .deleteFrom('push_subscriptions')
        .where('id', 'in', any.selectFrom(ranked(any, 'session_id').as('r')).select('r.id').where('r.place', '>', 1))
        .execute();
      await any
        .deleteFrom('push_subscriptions')
        .where('id', 'in', any.selectFrom(ranked(any, 'user_id').as('r')).select('r.id').where('r.place', '>', 5))
        .execute();
      await db.schema.dropIndex('push_subscriptions_session').execute();
      await db.schema
        .createIndex('push_subscriptions_one_per_session')
        .on('push_subscriptions')
        .column('session_id')
        .unique()
        .execute();
    },
  };
}
