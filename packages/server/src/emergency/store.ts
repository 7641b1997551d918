/** Emergency alerts (issue 14): rows in, the EmergencyAlert shape out; open ones first. */
import type { EmergencyAlert, EmergencyOutcome, EmergencyReason } from '@talkgroup/protocol';
import type { Selectable, SelectQueryBuilder } from 'kysely';
import type { Database, Db, EmergencyAlertsTable } from '../db/schema.ts';

function toAlert(row: Selectable<EmergencyAlertsTable>): EmergencyAlert {
  return {
    id: row.id,
    userId: row.user_id,
    display_name: row.user_display_name,
    channelId: row.channel_id,
    channelName: row.channel_name,
    lat: row.lat,
    lng: row.lng,
    accuracy: row.accuracy,
    createdAt: row.created_at,
    acknowledgedBy:
      row.acknowledged_at !== null ? { id: row.acknowledged_by, display_name: row.acknowledged_by_name ?? '' } : null,
    acknowledgedAt: row.acknowledged_at,
    closedBy: row.closed_at !== null ? { id: row.closed_by, display_name: row.closed_by_name ?? '' } : null,
    closedAt: row.closed_at,
    outcome: row.outcome,
    reason: row.reason,
    raisedBy: row.raised_by_name !== null ? { id: row.raised_by, display_name: row.raised_by_name } : null,
    okAt: row.ok_at,
  };
}

export interface NewAlert {
  userId: number;
  displayName: string;
  channel?: { id: number; name: string };
  position?: { lat: number; lng: number; accuracy: number | null };
  /** Issue 60: why (default 'sos'), and who raised it for the member, if not the member. */
  reason?: EmergencyReason;
  raisedBy?: { userId: number; displayName: string };
}

export function emergencyStore(db: Db) {
  return {
    async create(alert: NewAlert, at = new Date()): Promise<EmergencyAlert> {
      const row = await db
        .insertInto('emergency_alerts')
        .values({
          user_id: alert.userId,
          user_display_name: alert.displayName,
          channel_id: alert.channel?.id ?? null,
          channel_name: alert.channel?.name ?? null,
          lat: alert.position?.lat ?? null,
          lng: alert.position?.lng ?? null,
          accuracy: alert.position?.accuracy ?? null,
          created_at: at.toISOString(),
          acknowledged_by: null,
          acknowledged_by_name: null,
          acknowledged_at: null,
          reason: alert.reason ?? 'sos',
          raised_by: alert.raisedBy?.userId ?? null,
          raised_by_name: alert.raisedBy?.displayName ?? null,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toAlert(row);
    },

    /**
     * The time of this user's latest alert, if any since `since`; `ownOnly`: only those it raised itself (not one a
     * dispatcher raised for it, issue 69).
     */
    async latestOf(userId: number, since: Date, ownOnly = false): Promise<string | undefined> {
      let query = db
        .selectFrom('emergency_alerts')
        .select('created_at')
        .where('user_id', '=', userId)
        .where('created_at', '>', since.toISOString());
      if (ownOnly) query = query.where('raised_by_name', 'is', null);
      const row = await query.orderBy('created_at', 'desc').executeTakeFirst();
      return row?.created_at;
    },

    /**
     * Marks the alert as taken by `by`, unless someone already took it. `changed` is false when it was already
     * acknowledged (the alert then says by whom); undefined when there is no such alert.
     */
    async acknowledge(
      id: number,
      by: { userId: number; displayName: string },
      at = new Date(),
    ): Promise<{ alert: EmergencyAlert; changed: boolean } | undefined> {
      const updated = await db
        .updateTable('emergency_alerts')
        .set({ acknowledged_by: by.userId, acknowledged_by_name: by.displayName, acknowledged_at: at.toISOString() })
        .where('id', '=', id)
        .where('acknowledged_at', 'is', null)
        .returningAll()
        .executeTakeFirst();
      if (updated) return { alert: toAlert(updated), changed: true };
      const row = await db.selectFrom('emergency_alerts').selectAll().where('id', '=', id).executeTakeFirst();
      return row ? { alert: toAlert(row), changed: false } : undefined;
    },

    /**
     * Closes the alert with its outcome (issue 50), and takes it by the same step if it was open. `changed` is
     * false when it was already closed (the alert then says by whom); undefined when there is no such alert.
     */
    async close(
      id: number,
      by: { userId: number; displayName: string },
      outcome: EmergencyOutcome,
      at = new Date(),
    ): Promise<{ alert: EmergencyAlert; changed: boolean } | undefined> {
      const when = at.toISOString();
      const updated = await db
        .updateTable('emergency_alerts')
        .set((eb) => ({
          closed_by: by.userId,
          closed_by_name: by.displayName,
          closed_at: when,
          outcome,
          // Taken by whoever closes it, unless someone took it before.
          acknowledged_by: eb
            .case()
            .when('acknowledged_at', 'is', null)
            .then(by.userId)
            .else(eb.ref('acknowledged_by'))
            .end(),
          acknowledged_by_name: eb
            .case()
            .when('acknowledged_at', 'is', null)
            .then(by.displayName)
            .else(eb.ref('acknowledged_by_name'))
            .end(),
          acknowledged_at: eb.fn.coalesce('acknowledged_at', eb.val(when)),
        }))
        .where('id', '=', id)
        .where('closed_at', 'is', null)
        .returningAll()
        .executeTakeFirst();
      if (updated) return { alert: toAlert(updated), changed: true };
      const row = await db.selectFrom('emergency_alerts').selectAll().where('id', '=', id).executeTakeFirst();
      return row ? { alert: toAlert(row), changed: false } : undefined;
    },

    /** Issue 70: this user's newest alert that is not closed yet, if any. */
    async openOf(userId: number): Promise<EmergencyAlert | undefined> {
      const row = await db
        .selectFrom('emergency_alerts')
        .selectAll()
        .where('user_id', '=', userId)
        .where('closed_at', 'is', null)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .executeTakeFirst();
      return row && toAlert(row);
    },

    /** Issue 70: the member said "Je vais bien" (again: the latest time is kept); undefined once closed. */
    async markOk(id: number, at = new Date()): Promise<EmergencyAlert | undefined> {
      const row = await db
        .updateTable('emergency_alerts')
        .set({ ok_at: at.toISOString() })
        .where('id', '=', id)
        .where('closed_at', 'is', null)
        .returningAll()
        .executeTakeFirst();
      return row && toAlert(row);
    },

    async byId(id: number): Promise<EmergencyAlert | undefined> {
      const row = await db.selectFrom('emergency_alerts').selectAll().where('id', '=', id).executeTakeFirst();
      return row && toAlert(row);
    },

    /**
     * Open alerts first, newest first within each group. `channelIds`: only the alerts of these channels (an
     * alert without channel counts for its sender's channels); absent: all.
     */
    async page(
      start: number,
      limit: number,
      channelIds?: number[],
    ): Promise<{ alerts: EmergencyAlert[]; totalRecords: number; open: number }> {
      const scoped = <Q extends SelectQueryBuilder<Database, 'emergency_alerts', object>>(query: Q): Q =>
        channelIds === undefined
          ? query
          : (query.where((eb) =>
              eb.or([
                eb('emergency_alerts.channel_id', 'in', channelIds.length > 0 ? channelIds : [0]),
                eb.and([
                  eb('emergency_alerts.channel_id', 'is', null),
                  eb.exists(
                    eb
                      .selectFrom('channel_members')
                      .select('channel_members.user_id')
                      .whereRef('channel_members.user_id', '=', 'emergency_alerts.user_id')
                      .where('channel_members.channel_id', 'in', channelIds.length > 0 ? channelIds : [0]),
                  ),
                ]),
              ]),
            ) as Q);
      const rows = await scoped(db.selectFrom('emergency_alerts').selectAll())
        .orderBy((eb) => eb.case().when('acknowledged_at', 'is', null).then(0).else(1).end())
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .offset(start)
        .execute();
      const counts = await scoped(db.selectFrom('emergency_alerts'))
        .select((eb) => [
          eb.fn.countAll<number | string>().as('total'),
          eb.fn.count<number | string>('id').filterWhere('acknowledged_at', 'is', null).as('open'),
        ])
        .executeTakeFirstOrThrow();
      return { alerts: rows.map(toAlert), totalRecords: Number(counts.total), open: Number(counts.open) };
    },
  };
}

export type EmergencyStore = ReturnType<typeof emergencyStore>;
