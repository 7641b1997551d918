/** Versioned migrations, run at start on SQLite and PostgreSQL. Append new ones; never edit a shipped one. */
import { type ColumnDataType, type CreateTableBuilder, type Kysely, sql } from 'kysely';
import { type Migration, Migrator } from 'kysely/migration';
import type { Dialect } from './open.ts';
import { searchTextOf } from './search-text.ts';

type AnyDb = Kysely<unknown>;

function migrationsFor(dialect: Dialect): Record<string, Migration> {
  const time: ColumnDataType = dialect === 'postgres' ? 'timestamptz' : 'text';
  const real: ColumnDataType = dialect === 'postgres' ? 'double precision' : 'real';
  const withId = <T extends string>(table: CreateTableBuilder<T, never>) =>
    dialect === 'postgres'
      ? table.addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity())
      : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());

  return {
    '0001_initial': {
      async up(db: AnyDb) {
        await withId(db.schema.createTable('users'))
          .addColumn('first_name', 'text', (c) => c.notNull())
          .addColumn('last_name', 'text', (c) => c.notNull())
          .addColumn('identifier', 'text', (c) => c.notNull().unique())
          .addColumn('pseudo', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('display_name', 'text', (c) => c.notNull())
          .addColumn('phone_number', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('password_hash', 'text', (c) => c.notNull())
          .addColumn('map_right', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ('admin', 'member')`))
          .addColumn('photo_url', 'text')
          .addColumn('created_at', time, (c) => c.notNull())
          .execute();
        await db.schema.createIndex('users_created_at').on('users').column('created_at').execute();

        await withId(db.schema.createTable('sessions'))
          .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
          .addColumn('token_hash', 'text', (c) => c.notNull().unique())
          .addColumn('created_at', time, (c) => c.notNull())
          .addColumn('expires_at', time, (c) => c.notNull())
          .execute();
        await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();

        await withId(db.schema.createTable('channels'))
          .addColumn('name', 'text', (c) => c.notNull().unique())
          .addColumn('rtc_session', 'text', (c) => c.notNull().unique())
          .addColumn('created_at', time, (c) => c.notNull())
          .execute();
        await db.schema.createIndex('channels_created_at').on('channels').column('created_at').execute();

        await db.schema
          .createTable('channel_members')
          .addColumn('channel_id', 'integer', (c) => c.notNull().references('channels.id').onDelete('cascade'))
          .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
          .addColumn('created_at', time, (c) => c.notNull())
          .addPrimaryKeyConstraint('channel_members_pk', ['channel_id', 'user_id'])
          .execute();
        await db.schema.createIndex('channel_members_user').on('channel_members').column('user_id').execute();

        await withId(db.schema.createTable('user_sockets'))
          .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
          .addColumn('channel_id', 'integer', (c) => c.references('channels.id').onDelete('cascade'))
          .addColumn('socket_id', 'text', (c) => c.notNull())
          .addColumn('instance_id', 'text', (c) => c.notNull())
          .addColumn('mic_state', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('created_at', time, (c) => c.notNull())
          .execute();
        await db.schema.createIndex('user_sockets_user').on('user_sockets').column('user_id').execute();
        await db.schema.createIndex('user_sockets_channel').on('user_sockets').column('channel_id').execute();
        await db.schema.createIndex('user_sockets_socket').on('user_sockets').column('socket_id').execute();
        await db.schema.createIndex('user_sockets_instance').on('user_sockets').column('instance_id').execute();

        await withId(db.schema.createTable('user_positions'))
          .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
          .addColumn('lat', real, (c) => c.notNull())
          .addColumn('lng', real, (c) => c.notNull())
          .addColumn('accuracy', real)
          .addColumn('created_at', time, (c) => c.notNull())
          .execute();
        await db.schema
          .createIndex('user_positions_user_time')
          .on('user_positions')
          .columns(['user_id', 'created_at'])
          .execute();

        await withId(db.schema.createTable('activities'))
          .addColumn('type', 'text', (c) => c.notNull())
          .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
          .addColumn('user_first_name', 'text')
          .addColumn('user_last_name', 'text')
          .addColumn('user_display_name', 'text')
          .addColumn('channel_id', 'integer', (c) => c.references('channels.id').onDelete('set null'))
          .addColumn('channel_name', 'text')
          .addColumn('created_at', time, (c) => c.notNull())
          .execute();
        await db.schema.createIndex('activities_created_at').on('activities').columns(['created_at', 'id']).execute();
        await db.schema
          .createIndex('activities_user_time')
          .on('activities')
          .columns(['user_id', 'created_at'])
          .execute();
        await db.schema
          .createIndex('activities_channel_time')
          .on('activities')
          .columns(['channel_id', 'created_at'])
          .execute();

        await withId(db.schema.createTable('messages'))
          .addColumn('channel_id', 'integer', (c) => c.notNull().references('channels.id').onDelete('cascade'))
          .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
          .addColumn('user_display_name', 'text', (c) => c.notNull())
          .addColumn('text_msg', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('file_path', 'text')
          .addColumn('file_name', 'text')
          .addColumn('file_mime', 'text')
          .addColumn('created_at', time, (c) => c.notNull())
          .execute();
        await db.schema.createIndex('messages_channel').on('messages').columns(['channel_id', 'id']).execute();

        await withId(db.schema.createTable('talk_bursts'))
          .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
          .addColumn('channel_id', 'integer', (c) => c.references('channels.id').onDelete('set null'))
          .addColumn('channel_name', 'text', (c) => c.notNull())
          .addColumn('started_at', time, (c) => c.notNull())
          .addColumn('ended_at', time)
          .execute();
        await db.schema.createIndex('talk_bursts_user').on('talk_bursts').columns(['user_id', 'started_at']).execute();

        await withId(db.schema.createTable('devices'))
          .addColumn('display_name', 'text', (c) => c.notNull())
          .addColumn('mac_address', 'text', (c) => c.notNull().unique())
          .addColumn('type', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('manufacturer', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('product_ref', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('created_at', time, (c) => c.notNull())
          .execute();

        await withId(db.schema.createTable('material_types'))
          .addColumn('name', 'text', (c) => c.notNull().unique())
          .addColumn('created_at', time, (c) => c.notNull())
          .execute();
      },
    },
    // The activity log's size, kept by triggers: counting a million rows on every page of the Activities page
    // took 20 to 90 ms (bench/activities); reading this row takes none.
    '0002_activity_count': {
      async up(db: AnyDb) {
        await db.schema
          .createTable('activity_count')
          .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
          .addColumn('n', 'bigint', (c) => c.notNull())
          .execute();
        await sql`insert into activity_count (id, n) select 1, count(*) from activities`.execute(db);
        if (dialect === 'postgres') {
          // Statement triggers with transition tables: one update per statement, even for a bulk delete.
          await sql`create function activity_count_added() returns trigger language plpgsql as $$
            begin update activity_count set n = n + (select count(*) from added_rows) where id = 1; return null; end $$`.execute(
            db,
          );
          await sql`create function activity_count_removed() returns trigger language plpgsql as $$
            begin update activity_count set n = n - (select count(*) from removed_rows) where id = 1; return null; end $$`.execute(
            db,
          );
          await sql`create trigger activity_count_insert after insert on activities
            referencing new table as added_rows for each statement execute function activity_count_added()`.execute(db);
          await sql`create trigger activity_count_delete after delete on activities
            referencing old table as removed_rows for each statement execute function activity_count_removed()`.execute(
            db,
          );
        } else {
          await sql`create trigger activity_count_insert after insert on activities
            begin update activity_count set n = n + 1 where id = 1; end`.execute(db);
          await sql`create trigger activity_count_delete after delete on activities
            begin update activity_count set n = n - 1 where id = 1; end`.execute(db);
        }
      },
    },
    '0003_floor_and_emergency': {
      async up(db: AnyDb) {
        // Floor control on by default: a channel behaves like a radio net unless a team turns it off.
        await db.schema
          .alterTable('channels')
          .addColumn('floor_control', 'integer', (c) => c.notNull().defaultTo(1))
          .execute();
        // How long a transmission lasted (channel_talk); other activities have none.
        await db.schema.alterTable('activities').addColumn('duration_ms', 'integer').execute();

        // Names are kept (like activities) so that an alert still reads after its user or channel is deleted.
        await withId(db.schema.createTable('emergency_alerts'))
          .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
          .addColumn('user_display_name', 'text', (c) => c.notNull())
          .addColumn('channel_id', 'integer', (c) => c.references('channels.id').onDelete('set null'))
          .addColumn('channel_name', 'text')
          .addColumn('lat', real)
          .addColumn('lng', real)
          .addColumn('accuracy', real)
          .addColumn('created_at', time, (c) => c.notNull())
          .addColumn('acknowledged_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
          .addColumn('acknowledged_by_name', 'text')
          .addColumn('acknowledged_at', time)
          .execute();
        await db.schema
          .createIndex('emergency_alerts_open')
          .on('emergency_alerts')
          .columns(['acknowledged_at', 'created_at'])
          .execute();
        await db.schema
          .createIndex('emergency_alerts_user')
          .on('emergency_alerts')
          .columns(['user_id', 'created_at'])
          .execute();
      },
    },
    // Voice history (issue 15): one row per recorded transmission; its audio lives under DATA_DIR/voice.
    '0004_voice_history': {
      async up(db: AnyDb) {
        // Recording on by default; a team that must not record turns it off per channel.
        await db.schema
          .alterTable('channels')
          .addColumn('recording', 'integer', (c) => c.notNull().defaultTo(1))
          .execute();
        await withId(db.schema.createTable('voice_messages'))
          .addColumn('channel_id', 'integer', (c) => c.notNull().references('channels.id').onDelete('cascade'))
          // A deleted account leaves its transmissions, with the name they had.
          .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
          .addColumn('user_display_name', 'text', (c) => c.notNull())
          .addColumn('file_name', 'text', (c) => c.notNull().unique())
          .addColumn('mime', 'text', (c) => c.notNull())
          .addColumn('size_bytes', 'integer', (c) => c.notNull())
          .addColumn('duration_ms', 'integer', (c) => c.notNull())
          .addColumn('client_id', 'text')
          .addColumn('created_at', time, (c) => c.notNull())
          .addColumn('uploaded_at', time, (c) => c.notNull())
          .execute();
        await db.schema
          .createIndex('voice_messages_channel_time')
          .on('voice_messages')
          .columns(['channel_id', 'created_at', 'id'])
          .execute();
        await db.schema.createIndex('voice_messages_time').on('voice_messages').column('created_at').execute();
        await db.schema
          .createIndex('voice_messages_client')
          .on('voice_messages')
          .columns(['user_id', 'client_id'])
          .unique()
          .execute();
      },
    },
    // Hardening (issue 16): a session's last use (idle timeout) and the administrators' audit log.
    '0005_hardening': {
      async up(db: AnyDb) {
        await db.schema.alterTable('sessions').addColumn('last_seen_at', time).execute();
        // Names are kept so that a row still reads after its actor or target is deleted; never pruned.
        await withId(db.schema.createTable('audit_log'))
          .addColumn('created_at', time, (c) => c.notNull())
          .addColumn('actor_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
          .addColumn('actor_name', 'text', (c) => c.notNull())
          .addColumn('action', 'text', (c) => c.notNull())
          .addColumn('target_type', 'text', (c) => c.notNull())
          .addColumn('target_id', 'integer')
          .addColumn('target_name', 'text')
          .addColumn('changes', 'text')
          .addColumn('address', 'text')
          .addColumn('request_id', 'text')
          .execute();
        await db.schema.createIndex('audit_log_time').on('audit_log').columns(['created_at', 'id']).execute();
        await db.schema.createIndex('audit_log_actor').on('audit_log').columns(['actor_id', 'id']).execute();
        await db.schema.createIndex('audit_log_target').on('audit_log').columns(['target_type', 'id']).execute();
      },
    },
    // A day in the console (issue 17): names stored trimmed with inner runs of whitespace collapsed (rows written
    // before the rule), and indexes for the activity log's filters by type (member and channel have theirs).
    '0006_console_day': {
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
    },
    // Issue 18: the whole lists (getAllUsers, getAllChannels) are rebuilt only when something they show changed.
    // list_version counts the writes to the tables they read, kept by triggers in the writing transaction, so a
    // reader sees a new number only with the data that made it (every instance shares it: it is in the
    // database). On PostgreSQL the triggers run per statement and are named to fire before activity_count's:
    // every transaction takes the two counters' locks in the same order.
    '0007_performance': {
      async up(db: AnyDb) {
        await db.schema
          .createTable('list_version')
          .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
          .addColumn('n', 'bigint', (c) => c.notNull())
          .execute();
        await sql`insert into list_version (id, n) values (1, 0)`.execute(db);
        const tables = ['users', 'channels', 'channel_members', 'user_sockets', 'user_positions', 'activities'];
        if (dialect === 'postgres') {
          await sql`create function list_version_bump() returns trigger language plpgsql as $$
            begin update list_version set n = n + 1 where id = 1; return null; end $$`.execute(db);
          for (const table of tables) {
            await sql`create trigger aa_list_version after insert or update or delete on ${sql.table(table)}
              for each statement execute function list_version_bump()`.execute(db);
          }
        } else {
          for (const table of tables) {
            for (const op of ['insert', 'update', 'delete']) {
              await sql`create trigger ${sql.id(`list_version_${table}_${op}`)} after ${sql.raw(op)} on ${sql.table(table)}
                begin update list_version set n = n + 1 where id = 1; end`.execute(db);
            }
          }
        }
      },
    },
    // Issue 18: the whole lists are built again entry by entry. Every write to what they show leaves, in its own
    // transaction, one row per entry it changed: kind 1 a user of getAllUsers, 2 a channel of getAllChannels (its
    // row or its members), 3 a channel's connected count or latest activity (lists/change-log.ts reads them).
    // Append-only: writers never wait on each other for it (list_version's one row, which it replaces, made them
    // wait). On PostgreSQL each
    // row carries its transaction's id: a reader reads from the oldest transaction still running, since ids are
    // handed out before commit and commit in any order; on SQLite writers take turns, and the row id is enough.
    // Writes that show nowhere (a password hash, search_text, a microphone state) leave nothing, and on SQLite a
    // deleted activity or position leaves a row only when it was its user's or channel's latest.
    '0008_list_changes': {
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
          await trigger(
            'channel_members_update',
            'update on channel_members',
            sql`${both(2, 'old')}; ${both(2, 'new')}`,
          );

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
    },
    // Issue 18: past USERS_PAGED_ABOVE users the console searches the users list on the server (getUsersPage).
    // Accents cannot be folded in SQL on both databases, so each user keeps its folded names in search_text.
    '0009_user_search': {
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
    },
  };
}

export async function migrate(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const migrations = migrationsFor(dialect);
  // Kysely looks for its migration tables in every schema unless told which one: on a PostgreSQL database
  // that holds other schemas (parallel test runs, other apps), it would find theirs and skip creating its own.
  const migrationTableSchema =
    dialect === 'postgres'
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db as AnyDb)).rows[0]?.schema
      : undefined;
  const migrator = new Migrator({
    db: db as AnyDb,
    provider: { getMigrations: async () => migrations },
    // Features land in parallel with their own numbers; a database that has a later one may still lack an earlier one.
    allowUnorderedMigrations: true,
    ...(migrationTableSchema ? { migrationTableSchema } : {}),
  });
  // Kysely's PostgreSQL introspection reads every schema's tables; a schema dropped meanwhile by another
  // process (parallel test runs) makes that read fail with "does not exist". Nothing was applied: try again.
  for (let attempt = 1; ; attempt++) {
    const { error, results } = await migrator.migrateToLatest();
    const failed = results?.find((r) => r.status === 'Error');
    if (!error && !failed) return;
    const racedWithADrop = dialect === 'postgres' && !failed && /does not exist/.test(String(error));
    if (!racedWithADrop || attempt === 3) {
      throw new Error(`database migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
    }
  }
}
