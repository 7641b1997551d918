/**
 * Sign-in tokens: 32 random bytes sent to the client, only their SHA-256 stored; revocable, with an absolute
 * lifetime (TOKEN_TTL_DAYS) and an idle timeout (SESSION_IDLE_HOURS: unused that long, a token ends).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { SignedInUser } from '@talkgroup/protocol';
import type { Selectable } from 'kysely';
import { inSlices } from '../db/batch.ts';
import type { Db, SignInMethod, UsersTable } from '../db/schema.ts';
import type { TokenOwner } from '../http/route.ts';

/** Where and how a session was opened: listed on the account page. */
export interface SessionOrigin {
  method?: SignInMethod;
  userAgent?: string | undefined;
  address?: string | undefined;
  /** The user must set up a second factor before this session reaches anything else (issue 38). */
  secondFactorPending?: boolean;
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** The user a browser keeps after sign-in (spec section 3, browser storage). */
export function sessionUserOf(row: Selectable<UsersTable>): Omit<SignedInUser, 'authToken'> {
  return {
    id: row.id,
    identifier: row.identifier,
    email: row.identifier,
    firstName: row.first_name,
    lastName: row.last_name,
    display_name: row.display_name,
    pseudo: row.pseudo,
    role: row.role,
    mapRight: row.map_right === 1,
  };
}

/** The last use is written at most this often (not on every request). */
const LAST_SEEN_STEP_MS = 60_000;

export function sessionStore(db: Db, ttlMs: number, idleMs = Number.POSITIVE_INFINITY) {
  return {
    async create(userId: number, origin: SessionOrigin = {}): Promise<string> {
      const token = randomBytes(32).toString('base64url');
      const now = new Date();
      await db
        .insertInto('sessions')
        .values({
          user_id: userId,
          token_hash: hashToken(token),
          created_at: now.toISOString(),
          expires_at: new Date(now.getTime() + ttlMs).toISOString(),
          method: origin.method ?? 'password',
          user_agent: origin.userAgent?.slice(0, 300) ?? null,
          address: origin.address ?? null,
          second_factor_pending: origin.secondFactorPending ? 1 : 0,
          // Signing in proves it is the owner: the sensitive calls are open for a few minutes (auth/confirmation.ts).
          confirmed_at: now.toISOString(),
        })
        .execute();
      return token;
    },

    /** The owner of a live token, or undefined for an unknown, revoked, expired or idle one. */
    async resolve(token: string | undefined): Promise<TokenOwner | undefined> {
      if (!token || token.length > 200) return undefined;
      const now = Date.now();
      const row = await db
        .selectFrom('sessions')
        .innerJoin('users', 'users.id', 'sessions.user_id')
        .select([
          'sessions.id as sessionId',
          'sessions.user_id as userId',
          'users.role as role',
          'sessions.created_at as createdAt',
          'sessions.last_seen_at as lastSeenAt',
          'sessions.second_factor_pending as secondFactorPending',
          'sessions.confirmed_at as confirmedAt',
        ])
        .where('sessions.token_hash', '=', hashToken(token))
        .where('sessions.expires_at', '>', new Date(now).toISOString())
        // A disabled account's sessions were ended; one opened by a sign-in racing the switch is refused here.
        .where('users.disabled_at', 'is', null)
        .executeTakeFirst();
      if (!row) return undefined;
      const lastSeen = Date.parse(row.lastSeenAt ?? row.createdAt);
      if (now - lastSeen >= idleMs) {
        await db.deleteFrom('sessions').where('id', '=', row.sessionId).execute();
        return undefined;
      }
      if (now - lastSeen >= LAST_SEEN_STEP_MS) {
        await db
          .updateTable('sessions')
          .set({ last_seen_at: new Date(now).toISOString() })
          .where('id', '=', row.sessionId)
          .execute();
      }
      return {
        userId: row.userId,
        role: row.role,
        sessionId: row.sessionId,
        ...(row.secondFactorPending === 1 ? { secondFactorPending: true } : {}),
        ...(row.confirmedAt ? { confirmedAt: Date.parse(row.confirmedAt) } : {}),
      };
    },

    /**
     * Which of these sessions still exist and have not outlived TOKEN_TTL_DAYS (the open sockets' check: a
     * session ended by another process, `npm run admin -- reset-password`, is gone from the table).
     */
    async liveIds(sessionIds: readonly number[]): Promise<Set<number>> {
      const now = new Date().toISOString();
      const rows = await inSlices([...new Set(sessionIds)], (slice) =>
        db.selectFrom('sessions').select('id').where('id', 'in', slice).where('expires_at', '>', now).execute(),
      );
      return new Set(rows.map((row) => row.id));
    },

    /** The user's live sessions, newest first (the account page's list). */
    async listOf(userId: number) {
      return db
        .selectFrom('sessions')
        .select(['id', 'user_id', 'method', 'user_agent', 'address', 'created_at', 'last_seen_at'])
        .where('user_id', '=', userId)
        .where('expires_at', '>', new Date().toISOString())
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .execute();
    },

    /** Whose a live session is (undefined: none of that id). */
    async ownerOf(sessionId: number): Promise<number | undefined> {
      const row = await db
        .selectFrom('sessions')
        .select('user_id')
        .where('id', '=', sessionId)
        .where('expires_at', '>', new Date().toISOString())
        .executeTakeFirst();
      return row?.user_id;
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

    /**
     * Deletes the sessions past their lifetime or unused for the idle time (auth/session-sweep.ts runs it on a
     * schedule); what hangs on a session goes with it (push subscriptions: by cascade). Returns how many went.
     */
    async purgeExpired(now = Date.now()): Promise<number> {
      const idleSince = Number.isFinite(idleMs) ? new Date(now - idleMs).toISOString() : undefined;
      const result = await db
        .deleteFrom('sessions')
        .where((eb) => {
          const expired = eb('expires_at', '<=', new Date(now).toISOString());
          return idleSince === undefined
            ? expired
            : eb.or([expired, eb(eb.fn.coalesce('last_seen_at', 'created_at'), '<=', idleSince)]);
        })
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

export type SessionStore = ReturnType<typeof sessionStore>;
