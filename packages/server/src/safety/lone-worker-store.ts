/**
 * The lone workers' rows (issue 60, migration 0041): one per member working alone. Every step is one
 * conditional update on the step and its time (`claim`): of two instances, or two passes, one takes it.
 */
import type { LoneWorker, LoneWorkerState } from '@talkgroup/protocol';
import type { Selectable } from 'kysely';
import type { Db, LoneWorkersTable } from '../db/schema.ts';

export type LoneWorkerRow = Selectable<LoneWorkersTable>;

/** 0 answered, 1 asked, 2 reminded, 3 its dispatchers alerted, 4 an SOS raised. */
export const STEP = { ok: 0, asked: 1, reminded: 2, missed: 3, escalated: 4 } as const;

export function stateOf(step: number): LoneWorkerState {
  if (step >= STEP.escalated) return 'escalated';
  if (step >= STEP.missed) return 'missed';
  return step >= STEP.asked ? 'due' : 'ok';
}

const STEP_TIME = ['asked_at', 'reminded_at', 'missed_at', 'escalated_at'] as const;

export function loneWorkerStore(db: Db) {
  const iso = (ms: number) => new Date(ms).toISOString();
  return {
    async get(userId: number): Promise<LoneWorkerRow | undefined> {
      return db.selectFrom('lone_workers').selectAll().where('user_id', '=', userId).executeTakeFirst();
    },

    /** Starts (or starts again: an answer) lone work: the next check one interval from now. */
    async start(userId: number, intervalSeconds: number, graceSeconds: number, now: number): Promise<LoneWorkerRow> {
      const next = iso(now + intervalSeconds * 1000);
      const values = {
        interval_seconds: intervalSeconds,
        grace_seconds: graceSeconds,
        step: STEP.ok,
        step_at: next,
        check_at: next,
        last_check_in: iso(now),
        asked_at: null,
        reminded_at: null,
        missed_at: null,
        escalated_at: null,
        alert_id: null,
      };
      return db
        .insertInto('lone_workers')
        .values({ user_id: userId, started_at: iso(now), ...values })
        .onConflict((oc) => oc.column('user_id').doUpdateSet(values))
        .returningAll()
        .executeTakeFirstOrThrow();
    },

    /** Starts lone work unless a row is there (a start at the same time keeps its own): true when it did. */
    async startIfOff(userId: number, intervalSeconds: number, graceSeconds: number, now: number): Promise<boolean> {
      const next = iso(now + intervalSeconds * 1000);
      const result = await db
        .insertInto('lone_workers')
        .values({
          user_id: userId,
          started_at: iso(now),
          interval_seconds: intervalSeconds,
          grace_seconds: graceSeconds,
          step: STEP.ok,
          step_at: next,
          check_at: next,
          last_check_in: iso(now),
          asked_at: null,
          reminded_at: null,
          missed_at: null,
          escalated_at: null,
          alert_id: null,
        })
        .onConflict((oc) => oc.column('user_id').doNothing())
        .returning('user_id')
        .executeTakeFirst();
      return result !== undefined;
    },

    async remove(userId: number): Promise<boolean> {
      const result = await db.deleteFrom('lone_workers').where('user_id', '=', userId).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    /**
     * An answer: back to step 0, the next check one interval from now. `below`: only from a step below it (a
     * press does not answer an escalated worker: the SOS's own open microphone grants a floor by itself).
     */
    async checkIn(row: LoneWorkerRow, now: number, below = STEP.escalated + 1): Promise<LoneWorkerRow | undefined> {
      const next = iso(now + row.interval_seconds * 1000);
      return db
        .updateTable('lone_workers')
        .set({
          step: STEP.ok,
          step_at: next,
          check_at: next,
          last_check_in: iso(now),
          asked_at: null,
          reminded_at: null,
          missed_at: null,
          escalated_at: null,
        })
        .where('user_id', '=', row.user_id)
        .where('step', '<', below)
        .returningAll()
        .executeTakeFirst();
    },

    /** Rows whose next step is due. */
    async due(now: number): Promise<LoneWorkerRow[]> {
      return db.selectFrom('lone_workers').selectAll().where('step_at', '<=', iso(now)).orderBy('step_at').execute();
    },

    /** How long until the next step of anyone (undefined: none). */
    async nextIn(now: number): Promise<number | undefined> {
      const row = await db
        .selectFrom('lone_workers')
        .select((eb) => eb.fn.min('step_at').as('next'))
        .where('step_at', 'is not', null)
        .executeTakeFirst();
      return row?.next ? Math.max(0, Date.parse(String(row.next)) - now) : undefined;
    },

    /**
     * Takes the row's next step, if it is still the one read: the update is the claim. An escalated row still
     * due (its SOS not yet written: the instance that took it stopped) is taken again at the same step.
     */
    async claim(row: LoneWorkerRow, now: number, nextAt: number): Promise<LoneWorkerRow | undefined> {
      if (row.step_at === null) return undefined;
      const step = Math.min(row.step + 1, STEP.escalated);
      const column = STEP_TIME[step - 1] ?? 'escalated_at';
      return db
        .updateTable('lone_workers')
        .set({ step, step_at: iso(nextAt), [column]: iso(now) })
        .where('user_id', '=', row.user_id)
        .where('step', '=', row.step)
        .where('step_at', '=', row.step_at)
        .returningAll()
        .executeTakeFirst();
    },

    /** The SOS is written: nothing more falls due. */
    async setAlert(userId: number, alertId: number | null): Promise<void> {
      await db
        .updateTable('lone_workers')
        .set({ alert_id: alertId, step_at: null })
        .where('user_id', '=', userId)
        .where('step', '=', STEP.escalated)
        .execute();
    },

    /** Everyone working alone; `channelIds`: only the members of these channels. */
    async list(channelIds?: number[]): Promise<Array<LoneWorkerRow & { name: string; role: string }>> {
      let query = db
        .selectFrom('lone_workers')
        .innerJoin('users', 'users.id', 'lone_workers.user_id')
        .selectAll('lone_workers')
        .select(['users.display_name as name', 'users.role as role']);
      if (channelIds !== undefined)
        query = query.where((eb) =>
          eb.exists(
            eb
              .selectFrom('channel_members')
              .select('channel_members.user_id')
              .whereRef('channel_members.user_id', '=', 'lone_workers.user_id')
              .where('channel_members.channel_id', 'in', channelIds.length > 0 ? channelIds : [0]),
          ),
        );
      return query.orderBy('lone_workers.step', 'desc').orderBy('users.display_name').execute();
    },

    /** The member's latest reported position, for the alert. */
    async lastPosition(userId: number) {
      const row = await db
        .selectFrom('user_positions')
        .select(['lat', 'lng', 'accuracy', 'created_at'])
        .where('user_id', '=', userId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst();
      return row ? { lat: row.lat, lng: row.lng, accuracy: row.accuracy, at: row.created_at } : null;
    },
  };
}

export type LoneWorkerStore = ReturnType<typeof loneWorkerStore>;

export function toLoneWorker(row: LoneWorkerRow, name: string, required: boolean): LoneWorker {
  return {
    userId: row.user_id,
    name,
    state: stateOf(row.step),
    nextCheckAt: row.check_at,
    lastCheckIn: row.last_check_in,
    startedAt: row.started_at,
    intervalSeconds: row.interval_seconds,
    graceSeconds: row.grace_seconds,
    required,
  };
}
