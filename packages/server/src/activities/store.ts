/** The activity log: recording (with the names kept, so entries survive deletions) and reading. */
import type { Activity, ActivityType } from '@talkgroup/protocol';
import type { Selectable } from 'kysely';
import type { ActivitiesTable, Db } from '../db/schema.ts';
import type { Notifier } from '../realtime/notifier.ts';

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
  };
}

export interface ActivitySubject {
  userId?: number | null;
  channelId?: number | null;
  /** When known, saves a query. */
  channelName?: string;
  at?: Date;
}

export function activityStore(db: Db, notifier: Notifier) {
  return {
    async record(type: ActivityType, subject: ActivitySubject): Promise<Activity> {
      const user = subject.userId
        ? await db
            .selectFrom('users')
            .select(['first_name', 'last_name', 'display_name'])
            .where('id', '=', subject.userId)
            .executeTakeFirst()
        : undefined;
      const channelName =
        subject.channelName ??
        (subject.channelId
          ? (await db.selectFrom('channels').select('name').where('id', '=', subject.channelId).executeTakeFirst())
              ?.name
          : undefined);
      const row = await db
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
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      const activity = toActivity(row);
      notifier.toAdmins('onActivity', activity);
      return activity;
    },

    /** Latest first. */
    async latest(limit: number, offset = 0): Promise<Activity[]> {
      const rows = await db
        .selectFrom('activities')
        .selectAll()
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .offset(offset)
        .execute();
      return rows.map(toActivity);
    },

    async count(): Promise<number> {
      const row = await db
        .selectFrom('activities')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
  };
}

export type ActivityStore = ReturnType<typeof activityStore>;
