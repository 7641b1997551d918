import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { AnyDb } from './columns.ts';

// A day in the console (issue 17): names stored trimmed with inner runs of whitespace collapsed (rows written
// before the rule), and indexes for the activity log's filters by type (member and channel have theirs).
export function migration(): Migration {
  return {
    async up(db: AnyDb) {
      const tidy = (value: string) => value.trim().replace(/\s+/g, ' ');
      const channels = await (db as Kysely<any>).selectFrom('channels').select(['id', 'name']).execute();
      for (const channel of channels) {
        if (tidy(channel.name) === channel.name) continue;
        await (db as Kysely<any>)
          .updateTable('channels')
          .set({ name: tidy(channel.name) })
          .where('id', '=', channel.id)
          .execute();
      }
      const users = await (db as Kysely<any>)
        .selectFrom('users')
        .select(['id', 'first_name', 'last_name', 'pseudo', 'display_name'])
        .execute();
      for (const user of users) {
        const tidied = {
          first_name: tidy(user.first_name),
          last_name: tidy(user.last_name),
          pseudo: tidy(user.pseudo),
          display_name: tidy(user.display_name),
        };
        if (Object.entries(tidied).every(([column, value]) => (user as Record<string, unknown>)[column] === value))
          continue;
        await (db as Kysely<any>).updateTable('users').set(tidied).where('id', '=', user.id).execute();
      }
      await db.schema
        .createIndex('activities_type_time')
        .on('activities')
        .columns(['type', 'created_at', 'id'])
        .execute();
    },
  };
}
