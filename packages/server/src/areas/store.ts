/**
 * Area channels (issue 59, migration 0040): which channels follow a zone, who is in each zone now
 * (`area_presence`), and the memberships an area made (`channel_members.via_area`). Every change that decides an
 * entry or an exit is one conditional statement, so that of two instances (or a report and the sweep) only one
 * makes it and tells of it.
 */
import type { GeofenceShape } from '@talkgroup/protocol';
import { latestRowId } from '../db/latest-row.ts';
import type { Db } from '../db/schema.ts';
import type { StoredPosition } from '../positions/store.ts';

/** A channel that follows a zone, its shape parsed once. */
export interface AreaChannel {
  channelId: number;
  channelName: string;
  fence: { id: number; name: string; shape: GeofenceShape; activeUntil: string | null };
}

/** A presence row the sweep found due, as it read it (the delete that ends it checks nothing changed since). */
export interface DuePresence {
  channelId: number;
  userId: number;
  lastReportAt: string;
  outsideSince: string | null;
}

export function areaStore(db: Db) {
  return {
    /** The listed channels that follow a zone, with their zones. */
    async channels(): Promise<AreaChannel[]> {
      const rows = await db
        .selectFrom('channels')
        .innerJoin('geofences', 'geofences.id', 'channels.area_geofence_id')
        .select([
          'channels.id as channel_id',
          'channels.name as channel_name',
          'geofences.id as fence_id',
          'geofences.name as fence_name',
          'geofences.shape',
          'geofences.active_until',
        ])
        .where('channels.hidden', '=', 0)
        .execute();
      return rows.map((row) => ({
        channelId: row.channel_id,
        channelName: row.channel_name,
        fence: {
          id: row.fence_id,
          name: row.fence_name,
          shape: JSON.parse(row.shape) as GeofenceShape,
          activeUntil: row.active_until,
        },
      }));
    },

    /** A first position inside: true only for the report that began this stay (none was recorded). */
    async enter(channelId: number, userId: number, at: string): Promise<boolean> {
      const result = await db
        .insertInto('area_presence')
        .values({ channel_id: channelId, user_id: userId, entered_at: at, outside_since: null, last_report_at: at })
        .onConflict((oc) => oc.columns(['channel_id', 'user_id']).doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    },

    /**
     * Each user with map access (not disabled) whose latest position was reported since `since`, with it: who
     * may be in a zone given to a channel now.
     */
    async recentlyReported(since: string): Promise<Array<{ userId: number; position: StoredPosition }>> {
      const rows = await db
        .selectFrom('users')
        .innerJoin('user_positions as p', (join) =>
          join.on('p.id', '=', latestRowId('user_positions', 'user_id', 'users')),
        )
        .select(['users.id as user_id', 'p.id', 'p.lat', 'p.lng', 'p.accuracy', 'p.created_at'])
        .where('users.map_right', '=', 1)
        .where('users.disabled_at', 'is', null)
        .where('p.created_at', '>=', since)
        .execute();
      return rows.map((row) => ({
        userId: row.user_id,
        position: { id: row.id, lat: row.lat, lng: row.lng, accuracy: row.accuracy, createdAt: row.created_at },
      }));
    },

    /** The channels whose zone this user is in now (its stays). */
    async staysOf(userId: number): Promise<Set<number>> {
      const rows = await db.selectFrom('area_presence').select('channel_id').where('user_id', '=', userId).execute();
      return new Set(rows.map((row) => row.channel_id));
    },

    /**
     * A report of a member already in the area: `inside` true clears a running exit; false starts one (kept
     * from its first position outside); undefined (a fix too near the edge for its accuracy) only says it reports.
     */
    async report(channelId: number, userId: number, at: string, inside: boolean | undefined): Promise<void> {
      await db
        .updateTable('area_presence')
        .set((eb) => ({
          last_report_at: at,
          ...(inside === true ? { outside_since: null } : {}),
          ...(inside === false ? { outside_since: eb.fn.coalesce('outside_since', eb.val(at)) } : {}),
        }))
        .where('channel_id', '=', channelId)
        .where('user_id', '=', userId)
        .execute();
    },

    /**
     * The rows whose stay is over: outside since `exitBefore`, silent since `silentBefore`, a member who lost map
     * access or was disabled, or a channel that follows no zone (or an expired one) any more.
     */
    async due(exitBefore: string, silentBefore: string, now: string): Promise<DuePresence[]> {
      const rows = await db
        .selectFrom('area_presence as p')
        .innerJoin('users', 'users.id', 'p.user_id')
        .innerJoin('channels', 'channels.id', 'p.channel_id')
        .leftJoin('geofences', 'geofences.id', 'channels.area_geofence_id')
        .select(['p.channel_id', 'p.user_id', 'p.last_report_at', 'p.outside_since'])
        .where((eb) =>
          eb.or([
            eb('p.outside_since', '<=', exitBefore),
            eb('p.last_report_at', '<=', silentBefore),
            eb('users.map_right', '=', 0),
            eb('users.disabled_at', 'is not', null),
            eb('geofences.id', 'is', null),
            eb('geofences.active_until', '<=', now),
          ]),
        )
        .limit(500)
        .execute();
      return rows.map((row) => ({
        channelId: row.channel_id,
        userId: row.user_id,
        lastReportAt: row.last_report_at,
        outsideSince: row.outside_since,
      }));
    },

    /** Every presence row of a channel (its zone changed or went): they all end. */
    async ofChannel(channelId: number): Promise<DuePresence[]> {
      const rows = await db
        .selectFrom('area_presence')
        .select(['channel_id', 'user_id', 'last_report_at', 'outside_since'])
        .where('channel_id', '=', channelId)
        .execute();
      return rows.map((row) => ({
        channelId: row.channel_id,
        userId: row.user_id,
        lastReportAt: row.last_report_at,
        outsideSince: row.outside_since,
      }));
    },

    /** Ends a stay as it was read: false when a report changed it meanwhile, or another instance ended it. */
    async leave(row: DuePresence): Promise<boolean> {
      const result = await db
        .deleteFrom('area_presence')
        .where('channel_id', '=', row.channelId)
        .where('user_id', '=', row.userId)
        .where('last_report_at', '=', row.lastReportAt)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    /**
     * Makes the user a member as the area's (listening, may talk), with a member's rights only whatever its role,
     * reading the channel's history from `since` on (issue 69); false when it already was one.
     */
    async join(channelId: number, userId: number, at: string, since: string): Promise<boolean> {
      const result = await db
        .insertInto('channel_members')
        .values({
          channel_id: channelId,
          user_id: userId,
          created_at: at,
          via_area: 1,
          member_rights_only: 1,
          history_from: since,
        })
        .onConflict((oc) => oc.columns(['channel_id', 'user_id']).doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    },

    /** Takes back a membership the area made; one made by hand stays. True when one went. */
    async part(channelId: number, userId: number): Promise<boolean> {
      const result = await db
        .deleteFrom('channel_members')
        .where('channel_id', '=', channelId)
        .where('user_id', '=', userId)
        .where('via_area', '=', 1)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    /**
     * An administrator added this member by hand: the area never takes it back, and it is a membership like any
     * other (its role's rights, the whole history).
     */
    async keepByHand(channelId: number, userIds: number[]): Promise<void> {
      if (userIds.length === 0) return;
      await db
        .updateTable('channel_members')
        .set({ via_area: 0, member_rights_only: 0, history_from: null })
        .where('channel_id', '=', channelId)
        .where('user_id', 'in', userIds)
        .where('via_area', '=', 1)
        .execute();
    },

    /** Who is in a channel's zone now, by name, with how each is a member. */
    async members(channelId: number) {
      const rows = await db
        .selectFrom('area_presence as p')
        .innerJoin('users', 'users.id', 'p.user_id')
        .leftJoin('channel_members as m', (join) =>
          join.onRef('m.channel_id', '=', 'p.channel_id').onRef('m.user_id', '=', 'p.user_id'),
        )
        .select([
          'p.user_id',
          'p.entered_at',
          'p.outside_since',
          'users.display_name',
          'users.first_name',
          'users.last_name',
          'm.via_area',
        ])
        .where('p.channel_id', '=', channelId)
        .orderBy('users.display_name')
        .orderBy('p.user_id')
        .execute();
      return rows.map((row) => ({
        userId: row.user_id,
        display_name: row.display_name,
        firstName: row.first_name,
        lastName: row.last_name,
        enteredAt: row.entered_at,
        outsideSince: row.outside_since,
        membership: row.via_area === null ? null : row.via_area === 1 ? ('area' as const) : ('hand' as const),
      }));
    },
  };
}

export type AreaStore = ReturnType<typeof areaStore>;
