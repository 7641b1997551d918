/**
 * Regroups and selected channels (migration 0038, issue 59): one store owns regroups, regroup_members and
 * selected_channels, and the regroup's side of its channel (made temporary, then retired: listed nowhere,
 * nobody's, kept for its history).
 */
import { rtcSessionOf } from '@talkgroup/protocol';
import type { Selectable } from 'kysely';
import { inSlices } from '../db/batch.ts';
import type { Dialect } from '../db/dialect.ts';
import type { Db, RegroupsTable, SelectedChannelsTable, SelectionReason } from '../db/schema.ts';

export type RegroupRow = Selectable<RegroupsTable>;
export type SelectionRow = Selectable<SelectedChannelsTable>;
export interface Person {
  userId: number;
  name: string;
}
/** A person with its role (whose rank a remote selection asks). */
export interface RankedPerson extends Person {
  role: string;
}

/** channels.temporary (migration 0038). */
const TEMPORARY_OPEN = 1;
const TEMPORARY_ENDED = 2;

export function regroupStore(db: Db, dialect: Dialect) {
  return {
    /**
     * How many regroups this user made that are open now. In a transaction, PostgreSQL first locks the user's row:
     * two creations at once by the same user are counted one after the other (SQLite has one writer).
     */
    async openCountOf(userId: number): Promise<number> {
      if (dialect === 'postgres')
        await db.selectFrom('users').select('id').where('id', '=', userId).forUpdate().executeTakeFirst();
      const row = await db
        .selectFrom('regroups')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('created_by_id', '=', userId)
        .where('ended_at', 'is', null)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /** These users, by id (those that exist and are people, not a gateway's account), with their names and roles. */
    async people(ids: readonly number[]): Promise<RankedPerson[]> {
      const rows = await inSlices([...new Set(ids)], (slice) =>
        db
          .selectFrom('users')
          .select(['id', 'display_name', 'role'])
          .where('id', 'in', slice)
          .where('gateway', '=', 0)
          .execute(),
      );
      return rows.map((row) => ({ userId: row.id, name: row.display_name, role: row.role }));
    },

    /** The members of these channels (ids). */
    async membersOf(channelIds: readonly number[]): Promise<number[]> {
      if (channelIds.length === 0) return [];
      const rows = await inSlices([...new Set(channelIds)], (slice) =>
        db.selectFrom('channel_members').select('user_id').distinct().where('channel_id', 'in', slice).execute(),
      );
      return [...new Set(rows.map((row) => row.user_id))];
    },

    /** Of these users, those who belong to at least one of these channels. */
    async within(userIds: readonly number[], channelIds: readonly number[]): Promise<Set<number>> {
      if (userIds.length === 0 || channelIds.length === 0) return new Set();
      const rows = await inSlices([...new Set(userIds)], (slice) =>
        db
          .selectFrom('channel_members')
          .select('user_id')
          .distinct()
          .where('user_id', 'in', slice)
          .where('channel_id', 'in', [...channelIds])
          .execute(),
      );
      return new Set(rows.map((row) => row.user_id));
    },

    /** Whether the user belongs to the channel. */
    async isMember(userId: number, channelId: number): Promise<boolean> {
      const row = await db
        .selectFrom('channel_members')
        .select('user_id')
        .where('user_id', '=', userId)
        .where('channel_id', '=', channelId)
        .executeTakeFirst();
      return row !== undefined;
    },

    /** The channel each of these users has selected now. */
    async selections(userIds: readonly number[]): Promise<Map<number, SelectionRow>> {
      const rows = await inSlices([...new Set(userIds)], (slice) =>
        db.selectFrom('selected_channels').selectAll().where('user_id', 'in', slice).execute(),
      );
      return new Map(rows.map((row) => [row.user_id, row]));
    },

    async select(
      userId: number,
      channelId: number,
      reason: SelectionReason | 'self',
      by: Person | null,
      at = new Date(),
    ): Promise<SelectionRow> {
      const values = {
        channel_id: channelId,
        reason,
        by_id: by?.userId ?? null,
        by_name: by?.name ?? null,
        selected_at: at.toISOString(),
      };
      return db
        .insertInto('selected_channels')
        .values({ user_id: userId, ...values })
        .onConflict((oc) => oc.column('user_id').doUpdateSet(values))
        .returningAll()
        .executeTakeFirstOrThrow();
    },

    /** A user's first channel by name (where a regroup's end brings one who had none selected). */
    async firstChannelOf(userId: number, except: number): Promise<{ id: number; name: string } | undefined> {
      return db
        .selectFrom('channels')
        .innerJoin('channel_members', 'channel_members.channel_id', 'channels.id')
        .select(['channels.id', 'channels.name'])
        .where('channel_members.user_id', '=', userId)
        .where('channels.hidden', '=', 0)
        .where('channels.temporary', '!=', TEMPORARY_ENDED)
        .where('channels.id', '!=', except)
        .orderBy('channels.name')
        .executeTakeFirst();
    },

    /**
     * A regroup's temporary channel with its members; throws a unique violation when the name is taken. Only its
     * creator's membership gives its role's rights: being regrouped gives a member's (issue 69), so that a
     * dispatcher regrouped by someone else dispatches nobody there.
     */
    async createChannel(name: string, creatorId: number, memberIds: number[], at: Date): Promise<number> {
      const channel = await db
        .insertInto('channels')
        .values({ name, rtc_session: rtcSessionOf(name), created_at: at.toISOString(), temporary: TEMPORARY_OPEN })
        .returning('id')
        .executeTakeFirstOrThrow();
      for (let i = 0; i < memberIds.length; i += 500) {
        await db
          .insertInto('channel_members')
          .values(
            memberIds.slice(i, i + 500).map((userId) => ({
              channel_id: channel.id,
              user_id: userId,
              created_at: at.toISOString(),
              member_rights_only: userId === creatorId ? 0 : 1,
            })),
          )
          .execute();
      }
      return channel.id;
    },

    async insert(
      regroup: Omit<RegroupRow, 'id' | 'ended_at' | 'end_reason' | 'ended_by_id' | 'ended_by_name'>,
      members: Array<{ userId: number; previousChannelId: number | null }>,
    ): Promise<RegroupRow> {
      const row = await db.insertInto('regroups').values(regroup).returningAll().executeTakeFirstOrThrow();
      for (let i = 0; i < members.length; i += 500) {
        await db
          .insertInto('regroup_members')
          .values(
            members.slice(i, i + 500).map((member) => ({
              regroup_id: row.id,
              user_id: member.userId,
              previous_channel_id: member.previousChannelId,
            })),
          )
          .execute();
      }
      return row;
    },

    byId: (id: number) => db.selectFrom('regroups').selectAll().where('id', '=', id).executeTakeFirst(),

    /** Open regroups (of these channels only, when given), oldest first. */
    open: (channelIds?: readonly number[]) =>
      db
        .selectFrom('regroups')
        .selectAll()
        .where('ended_at', 'is', null)
        .$if(channelIds !== undefined, (q) =>
          q.where('channel_id', 'in', channelIds && channelIds.length > 0 ? [...channelIds] : [-1]),
        )
        .orderBy('created_at')
        .orderBy('id')
        .execute(),

    /** When the next open regroup runs out (ISO time), if any. */
    async nextExpiry(): Promise<string | undefined> {
      const row = await db
        .selectFrom('regroups')
        .select('expires_at')
        .where('ended_at', 'is', null)
        .orderBy('expires_at')
        .limit(1)
        .executeTakeFirst();
      return row?.expires_at;
    },

    /** Open regroups whose minutes ran out at `at`. */
    due: (at: Date) =>
      db
        .selectFrom('regroups')
        .selectAll()
        .where('ended_at', 'is', null)
        .where('expires_at', '<=', at.toISOString())
        .execute(),

    /** Who a regroup holds (its channel's members now) and where each was before. */
    async members(regroupId: number): Promise<Array<Person & { previousChannelId: number | null }>> {
      const rows = await db
        .selectFrom('regroup_members')
        .innerJoin('users', 'users.id', 'regroup_members.user_id')
        .select(['users.id', 'users.display_name', 'regroup_members.previous_channel_id'])
        .where('regroup_members.regroup_id', '=', regroupId)
        .orderBy('users.display_name')
        .execute();
      return rows.map((row) => ({
        userId: row.id,
        name: row.display_name,
        previousChannelId: row.previous_channel_id,
      }));
    },

    /**
     * Ends it, once: the conditional write that one caller (of two instances sweeping at once, or an end and an
     * expiry) makes; undefined for the others.
     */
    finish: (id: number, reason: 'ended' | 'expired', by: Person | null, at: Date) =>
      db
        .updateTable('regroups')
        .set({
          ended_at: at.toISOString(),
          end_reason: reason,
          ended_by_id: by?.userId ?? null,
          ended_by_name: by?.name ?? null,
        })
        .where('id', '=', id)
        .where('ended_at', 'is', null)
        .returningAll()
        .executeTakeFirst(),

    /**
     * The ended regroup's channel leaves every list: nobody belongs to it any more (the rooms follow), it is marked
     * ended, and its name is freed for a channel of tomorrow (`<name> #<regroup>`); its history stays under its id.
     */
    async retireChannel(channelId: number, regroupId: number): Promise<number[]> {
      const members = await db
        .selectFrom('channel_members')
        .select('user_id')
        .where('channel_id', '=', channelId)
        .execute();
      const channel = await db.selectFrom('channels').select('name').where('id', '=', channelId).executeTakeFirst();
      const name = `${(channel?.name ?? '').slice(0, 180)} #${regroupId}`;
      const taken = await db
        .selectFrom('channels')
        .select('id')
        .where((eb) => eb.or([eb('name', '=', name), eb('rtc_session', '=', rtcSessionOf(name))]))
        .where('id', '!=', channelId)
        .executeTakeFirst();
      const freed = taken ? `${name}-${channelId}-${Date.now().toString(36)}` : name;
      await db
        .updateTable('channels')
        .set({ temporary: TEMPORARY_ENDED, name: freed, rtc_session: rtcSessionOf(freed) })
        .where('id', '=', channelId)
        .execute();
      await db.deleteFrom('channel_members').where('channel_id', '=', channelId).execute();
      return members.map((row) => row.user_id);
    },

    /** The selected channel of these users who are still on `channelId` (a regroup's end moves only them). */
    async stillOn(channelId: number): Promise<Set<number>> {
      const rows = await db
        .selectFrom('selected_channels')
        .select('user_id')
        .where('channel_id', '=', channelId)
        .execute();
      return new Set(rows.map((row) => row.user_id));
    },

    async channelName(channelId: number): Promise<string | null> {
      const row = await db.selectFrom('channels').select('name').where('id', '=', channelId).executeTakeFirst();
      return row?.name ?? null;
    },
  };
}

export type RegroupStore = ReturnType<typeof regroupStore>;
