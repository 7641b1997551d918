/** Who belongs to which channel. Adding twice keeps one membership. */
import { type Capability, type ChannelStanding, may, ROLES, type Role } from '@talkgroup/protocol';
import { inSlices } from '../db/batch.ts';
import type { Db } from '../db/schema.ts';

/**
 * What a membership gives: whether it may talk, and whether it gives a member's rights only whatever the role
 * (issue 69: an area's membership, a regroup's for anyone but its creator; protocol's `memberRightsOnly`).
 */
export interface MembershipRights {
  canTalk: boolean;
  memberRightsOnly: boolean;
}

/** The standing a membership gives in its channel (none: not a member), for protocol's `may`. */
export function standingOf(rights: MembershipRights | undefined): ChannelStanding {
  return rights
    ? { member: true, canTalk: rights.canTalk, memberRightsOnly: rights.memberRightsOnly }
    : { member: false };
}

/**
 * The roles that hold `capability` in the channels they belong to (not everywhere: ask `may(..., null, ...)`):
 * `inMembership` through a membership that gives the role's rights, `inMemberRightsOnly` through any membership,
 * one that gives a member's rights only included. A query for "the members who hold it" keeps a member of the
 * first whose membership is not a member's only (`member_rights_only` 0), and any member of the second.
 */
export function rolesHoldingInChannels(capability: Capability): { inMembership: Role[]; inMemberRightsOnly: Role[] } {
  const outside = (role: Role) => !may({ role }, null, capability);
  return {
    inMembership: ROLES.filter((role) => outside(role) && may({ role }, { member: true, canTalk: true }, capability)),
    inMemberRightsOnly: ROLES.filter(
      (role) => outside(role) && may({ role }, { member: true, canTalk: true, memberRightsOnly: true }, capability),
    ),
  };
}

const rightsOfRow = (row: { can_talk: number; member_rights_only: number }): MembershipRights => ({
  canTalk: row.can_talk === 1,
  memberRightsOnly: row.member_rights_only === 1,
});

async function missing(ids: number[], found: (chunk: number[]) => Promise<number[]>): Promise<number[]> {
  const unique = [...new Set(ids)];
  const known = new Set<number>();
  for (let i = 0; i < unique.length; i += 500) for (const id of await found(unique.slice(i, i + 500))) known.add(id);
  return unique.filter((id) => !known.has(id));
}

/**
 * Removes the memberships of one user (or one channel) whose other side is not in `keep`, in slices: the kept
 * ones stay as they are, with their rights (a listen-only member stays listen-only).
 */
async function removeAllBut(
  db: Db,
  fixed: { user_id: number } | { channel_id: number },
  other: 'channel_id' | 'user_id',
  keep: Set<number>,
): Promise<void> {
  const [column, value] = Object.entries(fixed)[0] as ['user_id' | 'channel_id', number];
  // A private call's hidden channel has no members (issue 35): left out, whatever older rows say.
  const current = await db
    .selectFrom('channel_members')
    .innerJoin('channels', 'channels.id', 'channel_members.channel_id')
    .select(`channel_members.${other}` as const)
    .where(`channel_members.${column}`, '=', value)
    .where('channels.hidden', '=', 0)
    .execute();
  const gone = current.map((row) => (row as Record<typeof other, number>)[other]).filter((id) => !keep.has(id));
  for (let i = 0; i < gone.length; i += 500) {
    await db
      .deleteFrom('channel_members')
      .where(column, '=', value)
      .where(other, 'in', gone.slice(i, i + 500))
      .execute();
  }
}

/**
 * Of these channel ids, those that are channels one may belong to: never a private call's hidden channel, which
 * has no members (issue 35): whatever call asks, by id or by name, nobody joins it.
 */
async function joinable(db: Db, channelIds: number[]): Promise<number[]> {
  return inSlices([...new Set(channelIds)], async (slice) =>
    (await db.selectFrom('channels').select('id').where('id', 'in', slice).where('hidden', '=', 0).execute()).map(
      (row) => row.id,
    ),
  );
}

export function membershipStore(db: Db) {
  return {
    /** Adds members to a channel (never to a hidden one: nothing is written then). */
    async add(channelId: number, userIds: number[]): Promise<void> {
      if (userIds.length === 0) return;
      if ((await joinable(db, [channelId])).length === 0) return;
      const at = new Date().toISOString();
      for (let i = 0; i < userIds.length; i += 500) {
        await db
          .insertInto('channel_members')
          .values(
            userIds.slice(i, i + 500).map((userId) => ({ channel_id: channelId, user_id: userId, created_at: at })),
          )
          .onConflict((oc) => oc.columns(['channel_id', 'user_id']).doNothing())
          .execute();
      }
    },

    /** Adds a user to channels (hidden ones are left out). */
    async addUserToChannels(userId: number, ids: number[]): Promise<void> {
      const channelIds = ids.length > 0 ? await joinable(db, ids) : [];
      const at = new Date().toISOString();
      for (let i = 0; i < channelIds.length; i += 500) {
        await db
          .insertInto('channel_members')
          .values(
            channelIds
              .slice(i, i + 500)
              .map((channelId) => ({ channel_id: channelId, user_id: userId, created_at: at })),
          )
          .onConflict((oc) => oc.columns(['channel_id', 'user_id']).doNothing())
          .execute();
      }
    },

    async remove(channelId: number, userId: number): Promise<boolean> {
      const result = await db
        .deleteFrom('channel_members')
        .where('channel_id', '=', channelId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    /** Makes `channelIds` the exact set of channels of a user; the memberships it keeps keep their rights. */
    async setChannelsOfUser(userId: number, channelIds: number[]): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await removeAllBut(trx, { user_id: userId }, 'channel_id', new Set(channelIds));
        await membershipStore(trx).addUserToChannels(userId, [...new Set(channelIds)]);
      });
    },

    /** Makes `userIds` the exact set of members of a channel; the memberships it keeps keep their rights. */
    async setUsersOfChannel(channelId: number, userIds: number[]): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await removeAllBut(trx, { channel_id: channelId }, 'user_id', new Set(userIds));
        await membershipStore(trx).add(channelId, [...new Set(userIds)]);
      });
    },

    /**
     * The rights of a user's membership of a channel, and from when it reads the channel's history (`historyFrom`,
     * an area's membership: its entry; null: all of it); undefined when it is not a member.
     */
    async rights(
      channelId: number,
      userId: number,
    ): Promise<(MembershipRights & { historyFrom: string | null }) | undefined> {
      const row = await db
        .selectFrom('channel_members')
        .select(['can_talk', 'member_rights_only', 'history_from'])
        .where('channel_id', '=', channelId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return row && { ...rightsOfRow(row), historyFrom: row.history_from };
    },

    /** Each member of a channel and the rights of its membership. */
    async rightsOfChannel(channelId: number): Promise<Map<number, MembershipRights>> {
      const rows = await db
        .selectFrom('channel_members')
        .select(['user_id', 'can_talk', 'member_rights_only'])
        .where('channel_id', '=', channelId)
        .execute();
      return new Map(rows.map((r) => [r.user_id, rightsOfRow(r)]));
    },

    /** Sets whether a member may talk in a channel; false when it is not a member. */
    async setCanTalk(channelId: number, userId: number, canTalk: boolean): Promise<boolean> {
      const result = await db
        .updateTable('channel_members')
        .set({ can_talk: canTalk ? 1 : 0 })
        .where('channel_id', '=', channelId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    async memberIds(channelId: number): Promise<Set<number>> {
      const rows = await db
        .selectFrom('channel_members')
        .select('user_id')
        .where('channel_id', '=', channelId)
        .execute();
      return new Set(rows.map((r) => r.user_id));
    },

    /** The channels a user belongs to, with the rights of its membership. */
    async channelsWithRights(userId: number): Promise<Array<{ id: number } & MembershipRights>> {
      const rows = await db
        .selectFrom('channel_members')
        .select(['channel_id', 'can_talk', 'member_rights_only'])
        .where('user_id', '=', userId)
        .execute();
      return rows.map((r) => ({ id: r.channel_id, ...rightsOfRow(r) }));
    },

    /** The memberships of these users: for each, its channels and the rights of its membership there. */
    async rightsOfUsers(userIds: readonly number[]): Promise<Map<number, Map<number, MembershipRights>>> {
      const rows = await inSlices([...new Set(userIds)], (slice) =>
        db
          .selectFrom('channel_members')
          .select(['user_id', 'channel_id', 'can_talk', 'member_rights_only'])
          .where('user_id', 'in', slice)
          .execute(),
      );
      const byUser = new Map<number, Map<number, MembershipRights>>();
      for (const row of rows) {
        const own = byUser.get(row.user_id) ?? new Map<number, MembershipRights>();
        own.set(row.channel_id, rightsOfRow(row));
        byUser.set(row.user_id, own);
      }
      return byUser;
    },

    /** The channels a user belongs to: their ids and room keys (rtcSession). */
    async channelsOfMember(userId: number): Promise<Array<{ id: number; rtcSession: string }>> {
      const rows = await db
        .selectFrom('channel_members')
        .innerJoin('channels', 'channels.id', 'channel_members.channel_id')
        .select(['channels.id', 'channels.rtc_session'])
        .where('channel_members.user_id', '=', userId)
        .execute();
      return rows.map((r) => ({ id: r.id, rtcSession: r.rtc_session }));
    },

    /**
     * The channels two users both belong to (a private call's hidden channel does not count), with the rights of
     * each one's membership there: the user's (`mine`) and the other's (`theirs`).
     */
    async sharedChannels(
      userId: number,
      otherId: number,
    ): Promise<Array<{ mine: MembershipRights; theirs: MembershipRights }>> {
      const rows = await db
        .selectFrom('channel_members as a')
        .innerJoin('channel_members as b', 'b.channel_id', 'a.channel_id')
        .innerJoin('channels', 'channels.id', 'a.channel_id')
        .select([
          'a.can_talk as my_can_talk',
          'a.member_rights_only as my_rights_only',
          'b.can_talk as their_can_talk',
          'b.member_rights_only as their_rights_only',
        ])
        .where('a.user_id', '=', userId)
        .where('b.user_id', '=', otherId)
        .where('channels.hidden', '=', 0)
        .execute();
      return rows.map((row) => ({
        mine: rightsOfRow({ can_talk: row.my_can_talk, member_rights_only: row.my_rights_only }),
        theirs: rightsOfRow({ can_talk: row.their_can_talk, member_rights_only: row.their_rights_only }),
      }));
    },

    /** The ids among these that are not users (to refuse them before writing). */
    async unknownUserIds(ids: number[]): Promise<number[]> {
      return missing(ids, async (chunk) =>
        (await db.selectFrom('users').select('id').where('id', 'in', chunk).execute()).map((r) => r.id),
      );
    },

    /** The ids among these that are not channels. */
    async unknownChannelIds(ids: number[]): Promise<number[]> {
      return missing(ids, async (chunk) =>
        (await db.selectFrom('channels').select('id').where('id', 'in', chunk).where('hidden', '=', 0).execute()).map(
          (r) => r.id,
        ),
      );
    },

    /** Ids of the channels with these names; unknown names (and a private call's hidden channel) are left out. */
    async channelIdsByNames(names: string[]): Promise<Map<string, number>> {
      const map = new Map<string, number>();
      if (names.length === 0) return map;
      const rows = await db
        .selectFrom('channels')
        .select(['id', 'name'])
        .where('name', 'in', [...new Set(names)])
        .where('hidden', '=', 0)
        .execute();
      for (const r of rows) map.set(r.name, r.id);
      return map;
    },
  };
}

export type MembershipStore = ReturnType<typeof membershipStore>;
