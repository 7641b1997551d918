/** The activity log: recording (with the names kept, so entries survive deletions) and reading. */
import type { Activity, ActivityType } from '@talkgroup/protocol';
import type { Selectable } from 'kysely';
import type { ActivitiesTable, Db } from '../db/schema.ts';
import type { EventBus } from '../events.ts';
import { loopTurn } from '../process/loop-turn.ts';
import { type ActivityFilter, activityPaging, applyFilter, isFiltered } from './paging.ts';

export function toActivity(row: Selectable<ActivitiesTable>): Activity {
  return {
    id: row.id,
    type: row.type as ActivityType,
    createdAt: row.created_at,
    user:
      row.user_id !== null || row.user_display_name !== null
        ? {
            id: row.user_id,
            firstName: row.user_first_name ?? '',
            lastName: row.user_last_name ?? '',
            display_name: row.user_display_name ?? '',
          }
        : null,
    channel:
      row.channel_id !== null || row.channel_name !== null
        ? { id: row.channel_id, name: row.channel_name ?? '' }
        : null,
    ...(row.duration_ms !== null && row.duration_ms !== undefined ? { durationMs: row.duration_ms } : {}),
    ...(row.geofence_name !== null && row.geofence_name !== undefined
      ? { geofence: { id: row.geofence_id ?? null, name: row.geofence_name } }
      : {}),
    ...detailOf(row),
  };
}

/**
 * A dispatch step's, a status change's or an SOS close's own fields (migrations 0030, 0031), from the row's
 * columns and JSON detail.
 */
function detailOf(row: Selectable<ActivitiesTable>): Pick<Activity, 'dispatch' | 'status' | 'emergency' | 'alert'> {
  if (!row.detail) return {};
  const detail = JSON.parse(row.detail) as ActivityDetail;
  if (detail.status) return { status: detail.status };
  if (detail.emergency) return { emergency: detail.emergency };
  if (detail.alert) return { alert: detail.alert };
  if (!detail.dispatch) return {};
  return {
    dispatch: {
      ...detail.dispatch,
      waitedMs: row.waited_ms ?? 0,
      ...(row.handled_ms !== null && row.handled_ms !== undefined ? { handledMs: row.handled_ms } : {}),
    },
  };
}

/**
 * What an activity's `detail` column holds: a dispatch step (its times are columns of their own), a status, or
 * a closed SOS (emergency_close: the alert, its outcome, how long it was open, who sent it).
 */
export interface ActivityDetail {
  dispatch?: Omit<NonNullable<Activity['dispatch']>, 'waitedMs' | 'handledMs'>;
  status?: NonNullable<Activity['status']>;
  emergency?: NonNullable<Activity['emergency']>;
  /** emergency (issue 60): why the SOS was raised, and by whom for the member. */
  alert?: NonNullable<Activity['alert']>;
}

export interface ActivitySubject {
  userId?: number | null;
  channelId?: number | null;
  /** When known, saves a query. */
  channelName?: string;
  /** The user's names, when known: saves a query. */
  user?: { first_name: string; last_name: string; display_name: string };
  at?: Date;
  /** channel_talk: how long the transmission lasted. */
  durationMs?: number;
  /** geofence_enter, geofence_exit: the fence crossed. */
  geofence?: { id: number; name: string };
  /** dispatch_*: how long the request had waited, and been handled, at that step. */
  waitedMs?: number;
  handledMs?: number;
  /** dispatch_*, status_change, emergency_close: what the step names. */
  detail?: ActivityDetail;
}

const PUSHED_PER_BATCH = 8;
/** Activities deleted per statement by deleteOlderThan (a few ms each on SQLite). */
const DELETED_PER_STATEMENT = 2000;

/** Records announce themselves on the event bus (`activityRecorded`); real time pushes them. */
export function activityStore(db: Db, events: EventBus) {
  const paging = activityPaging(db);

  /**
   * Records through `via` (a transaction: the chat path writes its message and its activity in one) without
   * pushing it: once `via` is committed, `announce` the activity.
   */
  async function recordWith(via: Db, type: ActivityType, subject: ActivitySubject): Promise<Activity> {
    const user = subject.userId
      ? (subject.user ??
        (await via
          .selectFrom('users')
          .select(['first_name', 'last_name', 'display_name'])
          .where('id', '=', subject.userId)
          .executeTakeFirst()))
      : undefined;
    const channelName =
      subject.channelName ??
      (subject.channelId
        ? (await via.selectFrom('channels').select('name').where('id', '=', subject.channelId).executeTakeFirst())?.name
        : undefined);
    const row = await via
      .insertInto('activities')
      .values({
        type,
        user_id: user ? (subject.userId ?? null) : null,
        user_first_name: user?.first_name ?? null,
        user_last_name: user?.last_name ?? null,
        user_display_name: user?.display_name ?? null,
        channel_id: channelName !== undefined ? (subject.channelId ?? null) : null,
        channel_name: channelName ?? null,
        created_at: (subject.at ?? new Date()).toISOString(),
        ...(subject.durationMs !== undefined ? { duration_ms: Math.round(subject.durationMs) } : {}),
        ...(subject.geofence ? { geofence_id: subject.geofence.id, geofence_name: subject.geofence.name } : {}),
        ...(subject.waitedMs !== undefined ? { waited_ms: Math.round(subject.waitedMs) } : {}),
        ...(subject.handledMs !== undefined ? { handled_ms: Math.round(subject.handledMs) } : {}),
        ...(subject.detail ? { detail: JSON.stringify(subject.detail) } : {}),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    if (subject.at) paging.written(row.created_at);
    return toActivity(row);
  }

  return {
    recordWith,

    async record(type: ActivityType, subject: ActivitySubject): Promise<Activity> {
      const activity = await recordWith(db, type, subject);
      events.emit('activityRecorded', { activity });
      return activity;
    },

    announce(activity: Activity): void {
      events.emit('activityRecorded', { activity });
    },

    /**
     * One activity per channel for one user (an import): inserted in chunks; only the latest few are pushed,
     * since a timeline never shows more than a page of them.
     */
    async recordForChannels(
      type: ActivityType,
      userId: number,
      channels: Array<{ id: number; name: string }>,
    ): Promise<number> {
      if (channels.length === 0) return 0;
      const user = await db
        .selectFrom('users')
        .select(['first_name', 'last_name', 'display_name'])
        .where('id', '=', userId)
        .executeTakeFirst();
      const at = new Date().toISOString();
      const inserted: Activity[] = [];
      for (let i = 0; i < channels.length; i += 500) {
        const rows = await db
          .insertInto('activities')
          .values(
            channels.slice(i, i + 500).map((channel) => ({
              type,
              user_id: user ? userId : null,
              user_first_name: user?.first_name ?? null,
              user_last_name: user?.last_name ?? null,
              user_display_name: user?.display_name ?? null,
              channel_id: channel.id,
              channel_name: channel.name,
              created_at: at,
            })),
          )
          .returningAll()
          .execute();
        inserted.push(...rows.map(toActivity));
      }
      for (const activity of inserted.slice(-PUSHED_PER_BATCH)) events.emit('activityRecorded', { activity });
      return inserted.length;
    },

    /** Was an activity of this type recorded for this user since `since`? */
    async recordedSince(userId: number, type: ActivityType, since: Date): Promise<boolean> {
      const row = await db
        .selectFrom('activities')
        .select('id')
        .where('user_id', '=', userId)
        .where('type', '=', type)
        .where('created_at', '>', since.toISOString())
        .executeTakeFirst();
      return row !== undefined;
    },

    /** Deletes the activities created before `cutoff`; returns how many. */
    async deleteOlderThan(cutoff: Date): Promise<number> {
      // A year of a large team is a million rows: deleted a batch per statement, the event loop turning between
      // them (on SQLite a statement holds the main thread: issue 57).
      let deleted = 0;
      try {
        for (;;) {
          const result = await db
            .deleteFrom('activities')
            .where(
              'id',
              'in',
              db
                .selectFrom('activities')
                .select('id')
                .where('created_at', '<', cutoff.toISOString())
                .limit(DELETED_PER_STATEMENT),
            )
            .executeTakeFirst();
          const count = Number(result.numDeletedRows);
          deleted += count;
          if (count < DELETED_PER_STATEMENT) return deleted;
          await loopTurn();
        }
      } finally {
        paging.forget();
      }
    },

    /** The latest entries (the dashboard's timeline); `channelIds`: only those of these channels. */
    async latest(limit: number, channelIds?: number[]): Promise<Activity[]> {
      const rows = await applyFilter(db.selectFrom('activities').selectAll(), { channelIds })
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
      return rows.map(toActivity);
    },

    /**
     * A page of the log, latest first, `offset` entries after the newest, with how many entries the filter
     * keeps: every page costs what the first does (paging.ts).
     */
    async page(
      filter: ActivityFilter,
      limit: number,
      offset: number,
    ): Promise<{ activities: Activity[]; totalRecords: number }> {
      const totalRecords = isFiltered(filter) ? await paging.countFiltered(filter) : await this.count();
      const ids = await paging.pageIds(filter, limit, offset, totalRecords);
      if (ids.length === 0) return { activities: [], totalRecords };
      const rows = await db
        .selectFrom('activities')
        .selectAll()
        .where('id', 'in', ids)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .execute();
      return { activities: rows.map(toActivity), totalRecords };
    },

    /** Read from the row the triggers keep (migration 0002), not counted. */
    async count(): Promise<number> {
      const row = await db.selectFrom('activity_count').select('n').where('id', '=', 1).executeTakeFirstOrThrow();
      return Number(row.n);
    },
  };
}

export type ActivityStore = ReturnType<typeof activityStore>;
