/** Sign-in tokens: 32 random bytes sent to the client, only their SHA-256 stored; revocable, with an expiry. */
import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../db/schema.ts';

export interface TokenOwner {
  userId: number;
  role: 'admin' | 'member';
  sessionId: number;
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function sessionStore(db: Db, ttlMs: number) {
  return {
    async create(userId: number): Promise<string> {
      const token = randomBytes(32).toString('base64url');
      const now = new Date();
      await db
        .insertInto('sessions')
        .values({
          user_id: userId,
          token_hash: hashToken(token),
          created_at: now.toISOString(),
          expires_at: new Date(now.getTime() + ttlMs).toISOString(),
        })
        .execute();
      return token;
    },

    /** The owner of a live token, or undefined for an unknown, revoked or expired one. */
    async resolve(token: string | undefined): Promise<TokenOwner | undefined> {
      if (!token || token.length > 200) return undefined;
      const row = await db
        .selectFrom('sessions')
        .innerJoin('users', 'users.id', 'sessions.user_id')
        .select(['sessions.id as sessionId', 'sessions.user_id as userId', 'users.role as role'])
        .where('sessions.token_hash', '=', hashToken(token))
        .where('sessions.expires_at', '>', new Date().toISOString())
        .executeTakeFirst();
      return row ? { userId: row.userId, role: row.role, sessionId: row.sessionId } : undefined;
    },

    async revoke(sessionId: number): Promise<void> {
      await db.deleteFrom('sessions').where('id', '=', sessionId).execute();
    },

    async revokeAll(userId: number): Promise<number> {
      const result = await db.deleteFrom('sessions').where('user_id', '=', userId).executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    /** Every session of the user but one (a password changed from that session). */
    async revokeOthers(userId: number, keepSessionId: number): Promise<number> {
      const result = await db
        .deleteFrom('sessions')
        .where('user_id', '=', userId)
        .where('id', '!=', keepSessionId)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    async purgeExpired(): Promise<void> {
      await db.deleteFrom('sessions').where('expires_at', '<=', new Date().toISOString()).execute();
    },
  };
}

export type SessionStore = ReturnType<typeof sessionStore>;
