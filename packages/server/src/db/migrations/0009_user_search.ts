import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { searchTextOf } from '../search-text.ts';
import type { AnyDb } from './columns.ts';

// Issue 18: past USERS_PAGED_ABOVE users the console searches the users list on the server (getUsersPage).
// Accents cannot be folded in SQL on both databases, so each user keeps its folded names in search_text.
export function migration(): Migration {
  return {
    async up(db: AnyDb) {
      await db.schema
        .alterTable('users')
        .addColumn('search_text', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
      const typed = db as Kysely<any>;
      for (let after = 0; ; ) {
        const users = await typed
          .selectFrom('users')
          .select(['id', 'first_name', 'last_name', 'identifier', 'pseudo', 'display_name'])
          .where('id', '>', after)
          .orderBy('id')
          .limit(1000)
          .execute();
        if (users.length === 0) break;
        for (const user of users) {
          await typed
            .updateTable('users')
            .set({ search_text: searchTextOf(user) })
            .where('id', '=', user.id)
            .execute();
        }
        after = users[users.length - 1].id;
      }
    },
  };
}
