/**
 * Push subscriptions (issue 34, migration 0017): one row per endpoint, for a user and the session that saved
 * it. Rows go with their session or user (foreign keys with cascade: logout, revocation, expiry, deletion).
 */
import type { PushSubscriptionInput, ServerLanguage } from '@talkgroup/protocol';
import { inSlices } from '../db/batch.ts';
import type { Db } from '../db/schema.ts';

export interface StoredSubscription {
  id: number;
  userId: number;
  endpoint: string;
  keys: { p256dh: string; auth: string };
  language: ServerLanguage;
}

export function pushSubscriptionStore(db: Db) {
  return {
    /** Saves the subscription for this session; the same endpoint saved again (any user) is replaced. */
    async save(
      owner: { userId: number; sessionId: number },
      subscription: PushSubscriptionInput,
      language: ServerLanguage,
    ): Promise<void> {
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
      await db
        .insertInto('push_subscriptions')
        .values({ ...values, endpoint: subscription.endpoint, created_at: now })
        .onConflict((oc) => oc.column('endpoint').doUpdateSet(values))
        .execute();
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

    async ofUsers(userIds: readonly number[]): Promise<StoredSubscription[]> {
      const now = Date.now();
      const rows = await inSlices([...new Set(userIds)], (slice) =>
        db
          .selectFrom('push_subscriptions')
          .select(['id', 'user_id', 'endpoint', 'p256dh', 'auth', 'language', 'expiration_time'])
          .where('user_id', 'in', slice)
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
