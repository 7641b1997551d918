/**
 * "Confirm it's you" (issue 47): adding or removing a factor, turning TOTP on or off, linking a provider and
 * changing one's email need the password or a factor given in this session within the last 5 minutes. Signing
 * in counts (sessions.create marks the session); later, confirmIdentity (a password or a code) or a new trip
 * through the provider (a single sign-on user) marks it again. A refused call answers 403 `confirm_identity`:
 * the page asks, then calls again.
 */
import type { Db } from '../db/schema.ts';
import { forbidden } from '../http/errors.ts';
import type { TokenOwner } from '../http/route.ts';

/** How long a confirmation opens the sensitive calls of its session. */
export const CONFIRMATION_WINDOW_MS = 5 * 60_000;

/** Whether this session's owner proved it is them within the window. */
export function isConfirmed(auth: Pick<TokenOwner, 'confirmedAt'>, now = Date.now()): boolean {
  return auth.confirmedAt !== undefined && now - auth.confirmedAt < CONFIRMATION_WINDOW_MS;
}

/** Throws 403 `confirm_identity` unless the session was confirmed within the window. */
export function requireConfirmed(auth: Pick<TokenOwner, 'confirmedAt'>): void {
  if (!isConfirmed(auth)) throw forbidden('confirm_identity');
}

/** Marks the session confirmed now (a password or a factor was given again in it). */
export async function markConfirmed(db: Db, sessionId: number): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ confirmed_at: new Date().toISOString() })
    .where('id', '=', sessionId)
    .execute();
}
