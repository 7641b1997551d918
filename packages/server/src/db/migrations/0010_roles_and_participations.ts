/**
 * One connection, many channels; roles as capabilities (issue 25):
 * - users.role loses its list of allowed values (`check (role in ('admin', 'member'))`): roles are data, kept in
 *   protocol's ROLE_RULES, so that a new role is a new row there and never a rebuild of this table. SQLite
 *   cannot drop a constraint, but its documentation gives the way for removing a CHECK constraint (ALTER TABLE,
 *   "Making Other Kinds Of Table Schema Changes"): rewrite the table's definition in sqlite_schema, which
 *   changes nothing on disk, and bump the schema version.
 * - channel_members.can_talk: per membership, whether the member may take the channel's floor (1, the
 *   default) or only listen (0).
 * - user_sockets.mode: one row per socket and channel, with how the socket is there ('talk' or 'listen').
 */
import { sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../dialect.ts';
import type { AnyDb } from './columns.ts';

const ROLE_CHECK = /\s+check\s*\(\s*"?role"?\s+in\s*\(\s*'admin'\s*,\s*'member'\s*\)\s*\)/i;

async function dropRoleCheckOnSqlite(db: AnyDb): Promise<void> {
  const table = await sql<{
    sql: string;
  }>`select sql from sqlite_schema where type = 'table' and name = 'users'`.execute(db);
  const definition = table.rows[0]?.sql ?? '';
  const relaxed = definition.replace(ROLE_CHECK, '');
  if (relaxed === definition) return;
  const version = await sql<{ schema_version: number }>`pragma schema_version`.execute(db);
  await sql`pragma writable_schema = on`.execute(db);
  try {
    await sql`update sqlite_schema set sql = ${relaxed} where type = 'table' and name = 'users'`.execute(db);
    await sql.raw(`pragma schema_version = ${Number(version.rows[0].schema_version) + 1}`).execute(db);
  } finally {
    await sql`pragma writable_schema = off`.execute(db);
  }
  const check = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(db);
  if (check.rows[0]?.integrity_check !== 'ok')
    throw new Error(`the users table failed its integrity check: ${JSON.stringify(check.rows)}`);
}

export function migration(dialect: Dialect): Migration {
  return {
    async up(db: AnyDb) {
      if (dialect === 'postgres') await sql`alter table users drop constraint if exists users_role_check`.execute(db);
      else await dropRoleCheckOnSqlite(db);
      await db.schema
        .alterTable('channel_members')
        .addColumn('can_talk', 'integer', (c) => c.notNull().defaultTo(1))
        .execute();
      await db.schema
        .alterTable('user_sockets')
        .addColumn('mode', 'text', (c) => c.notNull().defaultTo('talk'))
        .execute();
    },
  };
}
