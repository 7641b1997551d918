/**
 * Issue 69, "an area is a place, not a power": a membership may give a member's rights only, whatever its user's
 * role (`channel_members.member_rights_only` 1, protocol's `ChannelStanding.memberRightsOnly`): one an area made
 * (0040's `via_area`), and a regroup's for anyone but its creator. `history_from` is when an area's membership
 * began: such a member reads the channel's messages, voice, video and activities from then on, not before (null,
 * a membership made by hand or by a regroup: everything, as before).
 *
 * The memberships that exist are marked as they would be now: those an area made (their history from the time
 * they were made), and those of open regroups but their creators'. No `down`: SQLite drops no column of a table
 * that others reference without rebuilding it, and the marks cannot be told apart again once gone.
 */
import { sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../dialect.ts';
import { type AnyDb, columnsFor } from './columns.ts';

export function migration(dialect: Dialect): Migration {
  const { time } = columnsFor(dialect);
  return {
    async up(db: AnyDb) {
      await db.schema
        .alterTable('channel_members')
        .addColumn('member_rights_only', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.alterTable('channel_members').addColumn('history_from', time).execute();
      await sql`update channel_members set member_rights_only = 1, history_from = created_at where via_area = 1`.execute(
        db,
      );
      await sql`update channel_members set member_rights_only = 1
        where exists (
          select 1 from regroups r
          where r.channel_id = channel_members.channel_id and r.ended_at is null
            and (r.created_by_id is null or r.created_by_id <> channel_members.user_id)
        )`.execute(db);
    },
  };
}
