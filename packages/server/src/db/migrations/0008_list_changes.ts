import { sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../dialect.ts';
import type { AnyDb } from './columns.ts';

// Issue 18: the whole lists are built again entry by entry. Every write to what they show leaves, in its own
// transaction, one row per entry it changed: kind 1 a user of getAllUsers, 2 a channel of getAllChannels (its
// row or its members), 3 a channel's connected count or latest activity (lists/change-log.ts reads them).
// Append-only: writers never wait on each other for it (list_version's one row, which it replaces, made them
// wait). On PostgreSQL each
// row carries its transaction's id: a reader reads from the oldest transaction still running, since ids are
// handed out before commit and commit in any order; on SQLite writers take turns, and the row id is enough.
// Writes that show nowhere (a password hash, search_text, a microphone state) leave nothing, and on SQLite a
// deleted activity or position leaves a row only when it was its user's or channel's latest.
export function migration(dialect: Dialect): Migration {
  return {
    async up(db: AnyDb) {
      const run = (statement: ReturnType<typeof sql>) => statement.execute(db);
      const userShown = [
        ...['first_name', 'last_name', 'identifier', 'pseudo', 'display_name', 'phone_number', 'map_right'],
        ...['role', 'photo_url', 'created_at'],
      ];
      // What a channel's members list shows of each member (getAllChannels).
      const memberShown = ['first_name', 'last_name', 'identifier', 'pseudo', 'display_name'];
      const channelShown = ['name', 'rtc_session', 'created_at', 'floor_control', 'recording'];
      // What a user's channels show of each channel (getAllUsers).
      const channelRefShown = ['name', 'rtc_session'];
      const socketShown = ['user_id', 'channel_id', 'socket_id'];

      if (dialect === 'postgres') {
        await run(sql`create table list_changes (
            txid xid8 not null default pg_current_xact_id(),
            kind smallint not null,
            entity_id integer not null)`);
        await run(sql`create index list_changes_txid on list_changes (txid)`);
        const distinct = (columns: string[]) =>
          `(${columns.map((c) => `o.${c}`).join(', ')}) is distinct from (${columns.map((c) => `n.${c}`).join(', ')})`;
        const differ = (columns: string[]) => sql.raw(distinct(columns));
        /** One statement trigger per table and event; `body` selects (kind, entity_id) from the transition tables. */
        const onEach = async (table: string, event: 'insert' | 'update' | 'delete', body: ReturnType<typeof sql>) => {
          const name = `list_changes_${table}_${event}`;
          const tables =
            event === 'insert'
              ? sql`new table as new_rows`
              : event === 'delete'
                ? sql`old table as old_rows`
                : sql`old table as old_rows new table as new_rows`;
          await run(sql`create function ${sql.id(name)}() returns trigger language plpgsql as $$
              begin insert into list_changes (kind, entity_id) ${body}; return null; end $$`);
          await run(sql`create trigger ${sql.id(name)} after ${sql.raw(event)} on ${sql.table(table)}
              referencing ${tables} for each statement execute function ${sql.id(name)}()`);
        };
        const changed = sql`new_rows n join old_rows o on o.id = n.id`;

        await onEach('users', 'insert', sql`select 1, id from new_rows`);
        await onEach(
          'users',
          'update',
          sql`select 1, n.id from ${changed} where ${differ(userShown)}
              union select 2, m.channel_id from ${changed} join channel_members m on m.user_id = n.id
                where ${differ(memberShown)}`,
        );
        await onEach('users', 'delete', sql`select 1, id from old_rows`);

        await onEach('channels', 'insert', sql`select 2, id from new_rows`);
        await onEach(
          'channels',
          'update',
          sql`select 2, n.id from ${changed} where ${differ(channelShown)}
              union select 1, m.user_id from ${changed} join channel_members m on m.channel_id = n.id
                where ${differ(channelRefShown)}`,
        );
        await onEach('channels', 'delete', sql`select 2, id from old_rows`);

        // Rows of the other tables: each names a user (kind 1) and maybe a channel (kind 2 or 3).
        const entries = (rows: string, channelKind: 2 | 3 | undefined) =>
          channelKind === undefined
            ? sql`select 1, user_id from ${sql.raw(rows)} where user_id is not null group by user_id`
            : sql`select 1, user_id from ${sql.raw(rows)} where user_id is not null
                  union select ${sql.lit(channelKind)}, channel_id from ${sql.raw(rows)} where channel_id is not null`;
        // A socket's microphone state shows nowhere: only rows whose shown columns changed count.
        const socketMoved = `new_rows n join old_rows o on o.id = n.id where ${distinct(socketShown)}`;
        for (const [table, channelKind] of [
          ['channel_members', 2],
          ['user_sockets', 3],
          ['user_positions', undefined],
          ['activities', 3],
        ] as const) {
          await onEach(table, 'insert', entries('new_rows', channelKind));
          await onEach(table, 'delete', entries('old_rows', channelKind));
          const beforeAfter =
            table === 'user_sockets'
              ? `(select o.* from ${socketMoved} union all select n.* from ${socketMoved}) as moved`
              : '(select * from old_rows union all select * from new_rows) as moved';
          await onEach(table, 'update', entries(beforeAfter, channelKind));
        }
      } else {
        // Row ids are never reused while the newest row stays (list_changes pruning keeps it).
        await run(sql`create table list_changes (
            id integer primary key,
            kind integer not null,
            entity_id integer not null)`);
        const differ = (columns: string[]) => sql.raw(columns.map((c) => `old.${c} is not new.${c}`).join(' or '));
        const trigger = async (
          name: string,
          event: string,
          body: ReturnType<typeof sql>,
          when?: ReturnType<typeof sql>,
        ) =>
          run(sql`create trigger ${sql.id(`list_changes_${name}`)} after ${sql.raw(event)}
              ${when ? sql`when ${when}` : sql``} begin ${body}; end`);
        const log = (kind: number, id: string) =>
          sql`insert into list_changes (kind, entity_id) select ${sql.lit(kind)}, ${sql.raw(id)} where ${sql.raw(id)} is not null`;

        await trigger('users_insert', 'insert on users', log(1, 'new.id'));
        await trigger('users_update', 'update on users', log(1, 'new.id'), differ(userShown));
        await trigger(
          'users_update_names',
          'update on users',
          sql`insert into list_changes (kind, entity_id) select 2, channel_id from channel_members where user_id = new.id`,
          differ(memberShown),
        );
        await trigger('users_delete', 'delete on users', log(1, 'old.id'));

        await trigger('channels_insert', 'insert on channels', log(2, 'new.id'));
        await trigger('channels_update', 'update on channels', log(2, 'new.id'), differ(channelShown));
        await trigger(
          'channels_update_names',
          'update on channels',
          sql`insert into list_changes (kind, entity_id) select 1, user_id from channel_members where channel_id = new.id`,
          differ(channelRefShown),
        );
        await trigger('channels_delete', 'delete on channels', log(2, 'old.id'));

        const both = (channelKind: number, row: 'new' | 'old') =>
          sql`${log(1, `${row}.user_id`)}; ${log(channelKind, `${row}.channel_id`)}`;
        await trigger('channel_members_insert', 'insert on channel_members', both(2, 'new'));
        await trigger('channel_members_delete', 'delete on channel_members', both(2, 'old'));
        await trigger('channel_members_update', 'update on channel_members', sql`${both(2, 'old')}; ${both(2, 'new')}`);

        await trigger('user_sockets_insert', 'insert on user_sockets', both(3, 'new'));
        await trigger('user_sockets_delete', 'delete on user_sockets', both(3, 'old'));
        await trigger(
          'user_sockets_update',
          'update on user_sockets',
          sql`${both(3, 'old')}; ${both(3, 'new')}`,
          differ(socketShown),
        );

        // A user's or channel's latest row of `table` is the one no other row of it follows (created_at, id).
        const latest = (table: string, owner: 'user_id' | 'channel_id', row: 'new' | 'old') =>
          sql.raw(`not exists (select 1 from ${table} t where t.${owner} = ${row}.${owner}
              and t.created_at >= ${row}.created_at and (t.created_at > ${row}.created_at or t.id > ${row}.id))`);
        const ifLatest = (table: string, kind: number, owner: 'user_id' | 'channel_id', row: 'new' | 'old') =>
          sql`${log(kind, `${row}.${owner}`)} and ${latest(table, owner, row)}`;

        await trigger('user_positions_insert', 'insert on user_positions', log(1, 'new.user_id'));
        await trigger(
          'user_positions_delete',
          'delete on user_positions',
          ifLatest('user_positions', 1, 'user_id', 'old'),
        );
        await trigger(
          'user_positions_update',
          'update on user_positions',
          sql`${log(1, 'old.user_id')}; ${log(1, 'new.user_id')}`,
        );

        await trigger('activities_insert', 'insert on activities', both(3, 'new'));
        // Deleting old activities leaves a row only where the latest went (the newest is never preceded by a newer).
        await trigger(
          'activities_delete',
          'delete on activities',
          sql`${ifLatest('activities', 1, 'user_id', 'old')}; ${ifLatest('activities', 3, 'channel_id', 'old')}`,
        );
        // A deleted user or channel empties user_id or channel_id of its activities (on delete set null).
        await trigger(
          'activities_update',
          'update on activities',
          sql`${ifLatest('activities', 1, 'user_id', 'old')}; ${ifLatest('activities', 3, 'channel_id', 'old')};
              ${ifLatest('activities', 1, 'user_id', 'new')}; ${ifLatest('activities', 3, 'channel_id', 'new')}`,
        );
      }

      // list_version (0007) is read no more: its triggers made every writer of these tables wait for one row.
      const versioned = ['users', 'channels', 'channel_members', 'user_sockets', 'user_positions', 'activities'];
      if (dialect === 'postgres') {
        for (const table of versioned) await run(sql`drop trigger aa_list_version on ${sql.table(table)}`);
        await run(sql`drop function list_version_bump()`);
      } else {
        for (const table of versioned)
          for (const op of ['insert', 'update', 'delete'])
            await run(sql`drop trigger ${sql.id(`list_version_${table}_${op}`)}`);
      }
      await db.schema.dropTable('list_version').execute();
    },
  };
}
