/** Channels: rows in, the Channel shape of spec section 3 out (members, connected count, latest activity). */
import {
  type Activity,
  type Channel,
  type ChannelOverview,
  type PreemptionMode,
  rtcSessionOf,
  type VideoAudience,
  type VoiceMode,
} from '@talkgroup/protocol';
import type { Updateable } from 'kysely';
import { toActivity } from '../activities/store.ts';
import { inSlices } from '../db/batch.ts';
import { latestRowId } from '../db/latest-row.ts';
import type { ChannelsTable, Db } from '../db/schema.ts';
import { privateChannelOf } from './private-channel.ts';
import { type ChannelRow, type ChannelSummary, TEMPORARY_ENDED, toSummary } from './summary.ts';

export type { ChannelSummary } from './summary.ts';

/** What a listed channel shows of its life, after its members (getAllChannels). */
export type ChannelActivity = Pick<Channel, 'connected' | 'userActivities'>;

/** A channel as the lists show it: its summary without what only the server needs. */
function shown(row: ChannelRow) {
  const { hidden: _, ...summary } = toSummary(row);
  return summary;
}

export function channelStore(db: Db) {
  /** Reads rows for these ids in slices, or for every id in one pass (undefined). */
  const bySlices = <R>(ids: number[] | undefined, read: (slice: number[] | undefined) => Promise<R[]>): Promise<R[]> =>
    ids === undefined ? read(undefined) : inSlices(ids, read);

  /** The members of these channels (undefined: of every channel), by first name. */
  async function membersOf(ids: number[] | undefined): Promise<Map<number, Channel['users']>> {
    const members = await bySlices(ids, (slice) =>
      db
        .selectFrom('channel_members')
        .innerJoin('users', 'users.id', 'channel_members.user_id')
        .select([
          'channel_members.channel_id as channelId',
          'users.id',
          'users.first_name',
          'users.last_name',
          'users.identifier',
          'users.pseudo',
          'users.display_name',
        ])
        .$if(slice !== undefined, (q) => q.where('channel_members.channel_id', 'in', slice as number[]))
        .orderBy('users.first_name')
        .orderBy('users.id')
        .execute(),
    );
    const membersBy = new Map<number, Channel['users']>();
    for (const m of members) {
      const list = membersBy.get(m.channelId) ?? [];
      list.push({
        id: m.id,
        firstName: m.first_name,
        lastName: m.last_name,
        identifier: m.identifier,
        pseudo: m.pseudo,
        display_name: m.display_name,
      });
      membersBy.set(m.channelId, list);
    }
    return membersBy;
  }

  /**
   * What changes with the channels' life: connected count and latest activity, for these channels (undefined:
   * every channel). A listed channel ends with exactly these fields (the whole list builds them on their own).
   */
  async function activityOf(ids: number[] | undefined): Promise<Map<number, ChannelActivity>> {
    const connected = await bySlices(ids, (slice) =>
      db
        .selectFrom('user_sockets')
        .select(['channel_id', (eb) => eb.fn.count<number>('user_id').distinct().as('n')])
        .where('channel_id', 'is not', null)
        .$if(slice !== undefined, (q) => q.where('channel_id', 'in', slice as number[]))
        .groupBy('channel_id')
        .execute(),
    );
    // One index lookup per channel: its latest activity.
    const latest = await bySlices(ids, (slice) =>
      db
        .selectFrom('channels')
        .innerJoin('activities as a', (join) =>
          join.on('a.id', '=', latestRowId('activities', 'channel_id', 'channels')),
        )
        .selectAll('a')
        .$if(slice !== undefined, (q) => q.where('channels.id', 'in', slice as number[]))
        .execute(),
    );
    const connectedBy = new Map(connected.map((c) => [c.channel_id as number, Number(c.n)]));
    const latestBy = new Map<number, Activity>(latest.map((a) => [a.channel_id as number, toActivity(a)]));
    const activity = new Map<number, ChannelActivity>();
    for (const id of ids ?? new Set([...connectedBy.keys(), ...latestBy.keys()])) {
      const last = latestBy.get(id);
      activity.set(id, { connected: connectedBy.get(id) ?? 0, userActivities: last ? [last] : [] });
    }
    return activity;
  }

  /**
   * Members, connected count and latest activity of these channels. `everyone`: the rows are the whole table,
   * read in one pass; otherwise ids are asked in slices of at most 500 (db/batch.ts), whatever their number.
   */
  async function detail(rows: ChannelRow[], everyone = false): Promise<Channel[]> {
    if (rows.length === 0) return [];
    const ids = everyone ? undefined : rows.map((r) => r.id);
    const membersBy = await membersOf(ids);
    const activityBy = await activityOf(ids);
    return rows.map((row) => ({
      ...shown(row),
      users: membersBy.get(row.id) ?? [],
      ...(activityBy.get(row.id) ?? { connected: 0, userActivities: [] }),
    }));
  }

  /** Changes one channel's row; the summary after, or undefined when there is no such channel. */
  async function update(id: number, values: Updateable<ChannelsTable>): Promise<ChannelSummary | undefined> {
    const row = await db.updateTable('channels').set(values).where('id', '=', id).returningAll().executeTakeFirst();
    return row ? toSummary(row) : undefined;
  }

  /** The listed channels a user belongs to (not private calls' hidden ones), by name: what getMyChannels lists. */
  const userChannels = (userId: number) =>
    db
      .selectFrom('channels')
      .innerJoin('channel_members', 'channel_members.channel_id', 'channels.id')
      .where('channel_members.user_id', '=', userId)
      .where('channels.hidden', '=', 0)
      .orderBy('channels.name');

  /** The listed channels' rows (not private calls' hidden ones), newest first. */
  const listedNewestFirst = () =>
    db
      .selectFrom('channels')
      .selectAll()
      .where('hidden', '=', 0)
      .where('temporary', '!=', TEMPORARY_ENDED)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();

  return {
    async byId(id: number): Promise<ChannelSummary | undefined> {
      const row = await db.selectFrom('channels').selectAll().where('id', '=', id).executeTakeFirst();
      return row ? toSummary(row) : undefined;
    },

    /** These channels, by id (those that exist). */
    async byIds(ids: readonly number[]): Promise<Map<number, ChannelSummary>> {
      const rows = await inSlices([...new Set(ids)], (slice) =>
        db.selectFrom('channels').selectAll().where('id', 'in', slice).execute(),
      );
      return new Map(rows.map((row) => [row.id, toSummary(row)]));
    },

    async byRtcSession(rtcSession: string): Promise<ChannelSummary | undefined> {
      const row = await db.selectFrom('channels').selectAll().where('rtc_session', '=', rtcSession).executeTakeFirst();
      return row ? toSummary(row) : undefined;
    },

    /** By name first; the room key (rtcSession) is accepted too, since the call views only know that. */
    async byNameOrRoom(name: string): Promise<ChannelSummary | undefined> {
      const row =
        (await db.selectFrom('channels').selectAll().where('name', '=', name).executeTakeFirst()) ??
        (await db.selectFrom('channels').selectAll().where('rtc_session', '=', name).executeTakeFirst());
      return row ? toSummary(row) : undefined;
    },

    /** Room keys of these channels. */
    async roomsOf(ids: number[]): Promise<string[]> {
      const rows = await inSlices(ids, (slice) =>
        db.selectFrom('channels').select('rtc_session').where('id', 'in', slice).execute(),
      );
      return rows.map((r) => r.rtc_session);
    },

    /** The channel that has this name, or one whose name differs only by whitespace (same room key). */
    async conflicting(name: string, exceptId?: number): Promise<ChannelSummary | undefined> {
      const row = await db
        .selectFrom('channels')
        .selectAll()
        .where((eb) => eb.or([eb('name', '=', name), eb('rtc_session', '=', rtcSessionOf(name))]))
        .$if(exceptId !== undefined, (q) => q.where('id', '!=', exceptId as number))
        .executeTakeFirst();
      return row ? toSummary(row) : undefined;
    },

    /** Whether this is a private call's hidden channel (false for a channel, or none). */
    async isHidden(id: number): Promise<boolean> {
      const row = await db.selectFrom('channels').select('hidden').where('id', '=', id).executeTakeFirst();
      return row?.hidden === 1;
    },

    /** A channel the console manages and lists: undefined for a private call's hidden channel. */
    async listed(id: number): Promise<ChannelSummary | undefined> {
      const row = await db
        .selectFrom('channels')
        .selectAll()
        .where('id', '=', id)
        .where('hidden', '=', 0)
        .where('temporary', '!=', TEMPORARY_ENDED)
        .executeTakeFirst();
      return row ? toSummary(row) : undefined;
    },

    /** The hidden channel of two users' private calls (private-channel.ts), made on their first call. */
    privateChannel: (userIds: [number, number], at?: Date) => privateChannelOf(db, userIds, at),

    async one(id: number): Promise<Channel | undefined> {
      const row = await db.selectFrom('channels').selectAll().where('id', '=', id).executeTakeFirst();
      return row ? (await detail([row]))[0] : undefined;
    },

    /** Every channel, newest first. */
    async all(): Promise<Channel[]> {
      return detail(await listedNewestFirst(), true);
    },

    /** Every channel, newest first, with the number of its members instead of their list (issue 18). */
    async overviews(): Promise<ChannelOverview[]> {
      const [rows, counts, activityBy] = await Promise.all([
        listedNewestFirst(),
        db
          .selectFrom('channel_members')
          .select(['channel_id', (eb) => eb.fn.countAll<number | string>().as('n')])
          .groupBy('channel_id')
          .execute(),
        activityOf(undefined),
      ]);
      const countBy = new Map(counts.map((c) => [c.channel_id, Number(c.n)]));
      return rows.map((row) => ({
        ...shown(row),
        usersCount: countBy.get(row.id) ?? 0,
        ...(activityBy.get(row.id) ?? { connected: 0, userActivities: [] }),
      }));
    },

    /** These channels as the whole list shows them, in no order; ids no longer there are left out. */
    async listedByIds(ids: number[]): Promise<Channel[]> {
      const rows = await inSlices(ids, (slice) =>
        db
          .selectFrom('channels')
          .selectAll()
          .where('id', 'in', slice)
          .where('hidden', '=', 0)
          .where('temporary', '!=', TEMPORARY_ENDED)
          .execute(),
      );
      return detail(rows);
    },

    /** Connected count and latest activity of these channels (a listed channel's last fields). */
    activityOf: (ids: number[]) => activityOf(ids),

    /** The channels a user belongs to, by name (getMyChannels's list). */
    async ofUser(userId: number): Promise<Channel[]> {
      return detail(await userChannels(userId).selectAll('channels').execute());
    },

    /** The ids of the channels ofUser lists, in its order, without their members and activity. */
    async idsOfUser(userId: number): Promise<number[]> {
      const rows = await userChannels(userId).select('channels.id').execute();
      return rows.map((row) => row.id);
    },

    async exportRows(): Promise<Array<{ name: string; createdAt: string }>> {
      const rows = await db
        .selectFrom('channels')
        .select(['name', 'created_at'])
        .where('hidden', '=', 0)
        .where('temporary', '!=', TEMPORARY_ENDED)
        .orderBy('name')
        .execute();
      return rows.map((r) => ({ name: r.name, createdAt: r.created_at }));
    },

    /** Existing channels among these names (exact name or same room key). */
    async existingNames(names: string[]): Promise<{ names: Set<string>; rtcSessions: Set<string> }> {
      const found = { names: new Set<string>(), rtcSessions: new Set<string>() };
      for (let i = 0; i < names.length; i += 500) {
        const chunk = names.slice(i, i + 500);
        const rows = await db
          .selectFrom('channels')
          .select(['name', 'rtc_session'])
          .where((eb) => eb.or([eb('name', 'in', chunk), eb('rtc_session', 'in', chunk.map(rtcSessionOf))]))
          .execute();
        for (const r of rows) {
          found.names.add(r.name);
          found.rtcSessions.add(r.rtc_session);
        }
      }
      return found;
    },

    /** Throws a unique violation when the name or its room key is taken (see isUniqueViolation). */
    async create(name: string, at = new Date()): Promise<ChannelSummary> {
      const row = await db
        .insertInto('channels')
        .values({ name, rtc_session: rtcSessionOf(name), created_at: at.toISOString() })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toSummary(row);
    },

    /** Turns the channel's floor control on or off; the summary after, or undefined when there is no such channel. */
    setFloorControl: (id: number, on: boolean) => update(id, { floor_control: on ? 1 : 0 }),

    /** Sets how the channel's voice travels; the summary after, or undefined when there is no such channel. */
    setVoiceMode: (id: number, mode: VoiceMode) => update(id, { voice_mode: mode }),

    /** Turns the channel's voice recording on or off; the summary after, or undefined when there is no such channel. */
    setRecording: (id: number, on: boolean) => update(id, { recording: on ? 1 : 0 }),

    /** Issue 59: the channel's floor queue and pre-emption (absent: unchanged). */
    setFloorQueue: (id: number, change: { floorQueue?: boolean; preemption?: PreemptionMode }) =>
      update(id, {
        ...(change.floorQueue === undefined ? {} : { floor_queue: change.floorQueue ? 1 : 0 }),
        ...(change.preemption === undefined ? {} : { preemption: change.preemption }),
      }),

    /** Issue 61: who watches the channel's live video. */
    setVideoAudience: (id: number, audience: VideoAudience) => update(id, { video_audience: audience }),

    /** The geofence the channel follows (issue 59; null: none); the summary after, or undefined without the channel. */
    setArea: (id: number, geofenceId: number | null) => update(id, { area_geofence_id: geofenceId }),

    rename: (id: number, name: string) => update(id, { name, rtc_session: rtcSessionOf(name) }),

    async remove(id: number): Promise<boolean> {
      const result = await db.deleteFrom('channels').where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    /**
     * For a message: the channel (if any), whether this user is one of its members, and the user's names, in
     * one query (the chat path checks who may write and records who wrote).
     */
    async forWriter(channelId: number, userId: number) {
      const row = await db
        .selectFrom('users')
        .leftJoin('channels', (join) => join.on('channels.id', '=', channelId))
        .leftJoin('channel_members as m', (join) =>
          join.onRef('m.channel_id', '=', 'channels.id').onRef('m.user_id', '=', 'users.id'),
        )
        .selectAll('channels')
        .select([
          'users.first_name',
          'users.last_name',
          'users.display_name',
          'm.user_id as member_id',
          'm.can_talk',
          'm.member_rights_only',
          'm.history_from',
        ])
        .where('users.id', '=', userId)
        .executeTakeFirst();
      if (!row) return undefined;
      const { first_name, last_name, display_name, member_id, can_talk, member_rights_only, history_from, ...channel } =
        row;
      return {
        channel: channel.id === null ? undefined : toSummary(channel as ChannelRow),
        member: member_id !== null,
        /** The membership may take the floor (listen-only members may not). */
        canTalk: can_talk !== 0,
        /** The membership gives a member's rights only (an area's, a regroup's but its creator's: issue 69). */
        memberRightsOnly: member_rights_only === 1,
        /** An area's membership: from when it reads the channel's history (null: all of it). */
        historyFrom: history_from ?? null,
        author: { first_name, last_name, display_name },
      };
    },

    async count(): Promise<number> {
      const row = await db
        .selectFrom('channels')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('hidden', '=', 0)
        .where('temporary', '!=', TEMPORARY_ENDED)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
  };
}

export type ChannelStore = ReturnType<typeof channelStore>;
