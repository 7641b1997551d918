/**
 * Members' statuses (issue 49): the organisation's list (`statuses`, in its order) and each user's status
 * (users.status_id, with when and by whom it was set).
 */
import type { MemberStatus, Status } from '@talkgroup/protocol';
import type { Selectable } from 'kysely';
import type { Db, StatusesTable } from '../db/schema.ts';

/** An entry of setStatuses: with `id`, a status kept; without, a new one. */
export interface StatusEntry {
  id?: number;
  label: Status['label'];
  color: string;
}

/** Who set a status, when not the member itself (a dispatcher, an administrator). */
export interface StatusSetter {
  userId: number;
  name: string;
}

function toStatus(row: Selectable<StatusesTable>): Status {
  return { id: row.id, label: { fr: row.label_fr, en: row.label_en, de: row.label_de }, color: row.color };
}

type UserStatusRow = {
  id: number;
  status_id: number | null;
  status_at: string | null;
  status_by_id: number | null;
  status_by_name: string | null;
};

function toMemberStatus(row: UserStatusRow): MemberStatus {
  return {
    userId: row.id,
    statusId: row.status_id,
    since: row.status_id === null ? null : row.status_at,
    setBy:
      row.status_id !== null && row.status_by_name !== null
        ? { userId: row.status_by_id, name: row.status_by_name }
        : null,
  };
}

const STATUS_COLUMNS = ['users.id', 'status_id', 'status_at', 'status_by_id', 'status_by_name'] as const;

export function statusStore(db: Db) {
  async function list(via: Db = db): Promise<Status[]> {
    const rows = await via.selectFrom('statuses').selectAll().orderBy('position').orderBy('id').execute();
    return rows.map(toStatus);
  }

  return {
    list: () => list(),

    async find(id: number): Promise<Status | undefined> {
      const row = await db.selectFrom('statuses').selectAll().where('id', '=', id).executeTakeFirst();
      return row ? toStatus(row) : undefined;
    },

    /**
     * Replaces the list in one transaction: entries with an id keep that status (and its members), new ones are
     * inserted, the statuses left out are deleted and their members have none. Answers the ids of `entries`
     * that are not statuses (nothing written then), or the new list.
     */
    async replace(entries: StatusEntry[]): Promise<{ unknownIds: number[] } | { statuses: Status[] }> {
      return db.transaction().execute(async (trx) => {
        const existing = new Set((await trx.selectFrom('statuses').select('id').execute()).map((row) => row.id));
        const unknownIds = entries.flatMap((entry) =>
          entry.id !== undefined && !existing.has(entry.id) ? [entry.id] : [],
        );
        if (unknownIds.length > 0) return { unknownIds };
        const kept = new Set(entries.flatMap((entry) => (entry.id !== undefined ? [entry.id] : [])));
        const removed = [...existing].filter((id) => !kept.has(id));
        if (removed.length > 0) {
          await trx
            .updateTable('users')
            .set({ status_id: null, status_at: null, status_by_id: null, status_by_name: null })
            .where('status_id', 'in', removed)
            .execute();
          await trx.deleteFrom('statuses').where('id', 'in', removed).execute();
        }
        for (const [position, entry] of entries.entries()) {
          const values = {
            label_fr: entry.label.fr,
            label_en: entry.label.en,
            label_de: entry.label.de,
            color: entry.color.toLowerCase(),
            position,
          };
          if (entry.id !== undefined)
            await trx.updateTable('statuses').set(values).where('id', '=', entry.id).execute();
          else await trx.insertInto('statuses').values(values).execute();
        }
        return { statuses: await list(trx) };
      });
    },

    /** A user's status now, or undefined when there is no such user. */
    async of(userId: number): Promise<MemberStatus | undefined> {
      const row = await db.selectFrom('users').select(STATUS_COLUMNS).where('id', '=', userId).executeTakeFirst();
      return row ? toMemberStatus(row) : undefined;
    },

    /** Sets a user's status (null: none); `by` is who set it when not the member itself. */
    async set(
      userId: number,
      statusId: number | null,
      by: StatusSetter | null,
      at = new Date(),
    ): Promise<MemberStatus> {
      const row = await db
        .updateTable('users')
        .set({
          status_id: statusId,
          status_at: statusId === null ? null : at.toISOString(),
          status_by_id: statusId === null ? null : (by?.userId ?? null),
          status_by_name: statusId === null ? null : (by?.name ?? null),
        })
        .where('id', '=', userId)
        .returning(STATUS_COLUMNS)
        .executeTakeFirstOrThrow();
      return toMemberStatus(row);
    },

    /**
     * The users with a status among those `viewerId` may see: everyone (`everyone`), else the users who share a
     * channel with it (a private call's hidden channel does not count) and itself; only `userIds` when given.
     */
    async visibleTo(viewerId: number, everyone: boolean, userIds?: number[]): Promise<MemberStatus[]> {
      if (userIds && userIds.length === 0) return [];
      let query = db
        .selectFrom('users')
        .select(STATUS_COLUMNS)
        .where('status_id', 'is not', null)
        .where('users.gateway', '=', 0);
      if (userIds) query = query.where('users.id', 'in', userIds);
      if (!everyone)
        query = query.where((eb) =>
          eb.or([
            eb('users.id', '=', viewerId),
            eb.exists(
              eb
                .selectFrom('channel_members as theirs')
                .innerJoin('channel_members as mine', 'mine.channel_id', 'theirs.channel_id')
                .innerJoin('channels', 'channels.id', 'theirs.channel_id')
                .select('theirs.channel_id')
                .whereRef('theirs.user_id', '=', 'users.id')
                .where('mine.user_id', '=', viewerId)
                .where('channels.hidden', '=', 0),
            ),
          ]),
        );
      const rows = await query.orderBy('users.id').execute();
      return rows.map(toMemberStatus);
    },

    /** The user's channels (not a private call's hidden one): where its status is pushed, who may set it. */
    async channelsOf(userId: number): Promise<Array<{ id: number; rtcSession: string }>> {
      const rows = await db
        .selectFrom('channel_members')
        .innerJoin('channels', 'channels.id', 'channel_members.channel_id')
        .select(['channels.id', 'channels.rtc_session'])
        .where('channel_members.user_id', '=', userId)
        .where('channels.hidden', '=', 0)
        .execute();
      return rows.map((row) => ({ id: row.id, rtcSession: row.rtc_session }));
    },

    /** The user's name as the log and the pages show it, or undefined when there is no such user. */
    async nameOf(userId: number): Promise<string | undefined> {
      const row = await db
        .selectFrom('users')
        .select(['display_name', 'first_name', 'last_name', 'identifier'])
        .where('id', '=', userId)
        .executeTakeFirst();
      return row ? row.display_name || `${row.first_name} ${row.last_name}`.trim() || row.identifier : undefined;
    },
  };
}

export type StatusStore = ReturnType<typeof statusStore>;
