/**
 * Push subscriptions (issue 34, migrations 0017 and 0027): one row per endpoint, for a user and the session that
 * saved it; at most one per session (a unique index: a new one replaces the session's previous one) and five per
 * user (past five, the least recently saved goes). Rows go with their session or user (foreign keys with cascade:
 * logout, revocation, expiry and idle timeout through the sessions' sweep, deletion), and pushes go only to rows
 * whose session is still alive.
 */
import type { PushSubscriptionInput, ServerLanguage } from '@talkgroup/protocol';
import { inSlices } from '../db/batch.ts';
import type { Dialect } from '../db/dialect.ts';
import type { Db } from '../db/schema.ts';
import { isUniqueViolation } from '../db/unique.ts';

/** The most subscriptions one user keeps (a phone, a tablet, a few browsers). */
export const SUBSCRIPTIONS_PER_USER = 5;

export interface StoredSubscription {
  id: number;
  userId: number;
  endpoint: string;
  keys: { p256dh: string; auth: string };
  language: ServerLanguage;
}

/** What saving did: `taken` when the endpoint is another user's subscription (nothing changed). */
export type SaveOutcome = 'saved' | 'taken';

export function pushSubscriptionStore(
  db: Db,
  options: {
    dialect: Dialect;
    /** A session unused this long has ended (SESSION_IDLE_HOURS), whether or not the sweep has deleted it yet. */
    sessionIdleMs: number;
  },
) {
  return {
    /**
     * Saves the subscription for this session, in one transaction that holds the user's row (PostgreSQL; SQLite
     * writes one transaction at a time), so that two saves at once never leave more than five: the session's
     * previous subscription goes, the user's least recently saved ones past five go. An endpoint the same user
     * saved from another session moves to this one; one that another user saved is refused, untouched.
     */
    async save(
      owner: { userId: number; sessionId: number },
      subscription: PushSubscriptionInput,
      language: ServerLanguage,
    ): Promise<SaveOutcome> {
      const now = new Date().toISOString();
      const values = {
        user_id: owner.userId,
        session_id: owner.sessionId,
        p256dh: subscription.keys.p256dh,
        auth: subscription.keys.auth,
        expiration_time: subscription.expirationTime ?? null,
        language,
        updated_at: now,
      };
      try {
        return await db.transaction().execute(async (trx) => {
          await trx
            .selectFrom('users')
            .select('id')
            .where('id', '=', owner.userId)
            .$if(options.dialect === 'postgres', (query) => query.forUpdate())
            .execute();
          const existing = await trx
            .selectFrom('push_subscriptions')
            .select(['id', 'user_id'])
            .where('endpoint', '=', subscription.endpoint)
            .executeTakeFirst();
          if (existing && existing.user_id !== owner.userId) return 'taken';
          await trx
            .deleteFrom('push_subscriptions')
            .where('session_id', '=', owner.sessionId)
            .where('endpoint', '!=', subscription.endpoint)
            .execute();
          if (existing) await trx.updateTable('push_subscriptions').set(values).where('id', '=', existing.id).execute();
          else
            await trx
              .insertInto('push_subscriptions')
              .values({ ...values, endpoint: subscription.endpoint, created_at: now })
              .execute();
          const older = await trx
            .selectFrom('push_subscriptions')
            .select('id')
            .where('user_id', '=', owner.userId)
            .orderBy('updated_at', 'desc')
            .orderBy('id', 'desc')
            .offset(SUBSCRIPTIONS_PER_USER)
            .limit(1000)
            .execute();
          if (older.length > 0)
            await trx
              .deleteFrom('push_subscriptions')
              .where(
                'id',
                'in',
                older.map((row) => row.id),
              )
              .execute();
          return 'saved';
        });
      } catch (error) {
        // Another user's save of the same endpoint committed first (the endpoint is unique).
        if (isUniqueViolation(error)) return 'taken';
        throw error;
      }
    },

    /** The user's own subscription of this endpoint; true when there was one. */
    async remove(userId: number, endpoint: string): Promise<boolean> {
      const result = await db
        .deleteFrom('push_subscriptions')
        .where('user_id', '=', userId)
        .where('endpoint', '=', endpoint)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    /** A push service said the endpoint is gone (404, 410): only that row, if it was not saved again since. */
    async removeGone(id: number, endpoint: string): Promise<void> {
      await db.deleteFrom('push_subscriptions').where('id', '=', id).where('endpoint', '=', endpoint).execute();
    },

    /** The users' subscriptions whose session is alive (not past its lifetime nor idle) and not expired. */
    async ofUsers(userIds: readonly number[]): Promise<StoredSubscription[]> {
      const now = Date.now();
      const nowIso = new Date(now).toISOString();
      const idleSince = Number.isFinite(options.sessionIdleMs)
        ? new Date(now - options.sessionIdleMs).toISOString()
        : undefined;
      const rows = await inSlices([...new Set(userIds)], (slice) =>
        db
          .selectFrom('push_subscriptions')
          .innerJoin('sessions', 'sessions.id', 'push_subscriptions.session_id')
          .select([
            'push_subscriptions.id',
            'push_subscriptions.user_id',
            'push_subscriptions.endpoint',
            'push_subscriptions.p256dh',
            'push_subscriptions.auth',
            'push_subscriptions.language',
            'push_subscriptions.expiration_time',
          ])
          .where('push_subscriptions.user_id', 'in', slice)
          .where('sessions.expires_at', '>', nowIso)
          .$if(idleSince !== undefined, (query) =>
            query.where(
              (eb) => eb.fn.coalesce('sessions.last_seen_at', 'sessions.created_at'),
              '>',
              idleSince as string,
            ),
          )
          .execute(),
      );
      return rows
        .filter((row) => row.expiration_time === null || Number(row.expiration_time) > now)
        .map((row) => ({
          id: row.id,
          userId: row.user_id,
          endpoint: row.endpoint,
          keys: { p256dh: row.p256dh, auth: row.auth },
          language: row.language,
        }));
    },

    async countOfUser(userId: number): Promise<number> {
      const row = await db
        .selectFrom('push_subscriptions')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },
  };
}

export type PushSubscriptionStore = ReturnType<typeof pushSubscriptionStore>;
