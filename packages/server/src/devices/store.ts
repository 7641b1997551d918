/**
 * The latest device status of each user (table device_statuses, migration 0042; issue 60 item 4): one row per
 * user, replaced by each report; the report is kept as the validated JSON /talk sent.
 */
import type { DeviceStatusReport } from '@talkgroup/protocol';
import type { z } from 'zod';
import type { Db } from '../db/schema.ts';

export type Report = z.output<typeof DeviceStatusReport>;

export interface StoredDeviceStatus extends Report {
  userId: number;
  sessionId: number | null;
  reportedAt: string;
}

export function deviceStatusStore(db: Db) {
  return {
    /** Keeps this report as the user's latest (an insert, or the row replaced). */
    async save(userId: number, sessionId: number, report: Report, at = new Date()): Promise<StoredDeviceStatus> {
      const values = { session_id: sessionId, status: JSON.stringify(report), reported_at: at.toISOString() };
      await db
        .insertInto('device_statuses')
        .values({ user_id: userId, ...values })
        .onConflict((conflict) => conflict.column('user_id').doUpdateSet(values))
        .execute();
      return { ...report, userId, sessionId, reportedAt: values.reported_at };
    },

    /** The user's latest report; undefined when none came. */
    async latest(userId: number): Promise<StoredDeviceStatus | undefined> {
      const row = await db
        .selectFrom('device_statuses')
        .select(['session_id', 'status', 'reported_at'])
        .where('user_id', '=', userId)
        .executeTakeFirst();
      if (!row) return undefined;
      return {
        ...(JSON.parse(row.status) as Report),
        userId,
        sessionId: row.session_id,
        reportedAt: new Date(row.reported_at).toISOString(),
      };
    },
  };
}

export type DeviceStatusStore = ReturnType<typeof deviceStatusStore>;
