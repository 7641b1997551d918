/**
 * A private call's hidden channel (issue 27): one per pair of users, made on their first call and kept for its
 * voice history. No list shows it (the channel store's lists leave out `hidden` rows), and it has no members
 * (issue 35): no role's right comes from it. Its two parties enter its room while one of their calls is answered
 * (private-calls.ts `mayEnter`), and read its voice history (`partyIn`); for everyone else, administrators
 * included, it is a channel that does not exist (channels/access.ts).
 */
import type { Db } from '../db/schema.ts';
import { isUniqueViolation } from '../db/unique.ts';
import { type ChannelSummary, toSummary } from './summary.ts';

/**
 * The hidden channel of two users' private calls: its name and room key hold runs of spaces, which a channel's
 * name (normalised) and room key (no whitespace) never do, so it can never take a channel's name.
 */
export function privateRoomOf(userIds: [number, number]): string {
  const [low, high] = [...userIds].sort((a, b) => a - b);
  return `private  call  ${low}  ${high}`;
}

/**
 * The hidden channel of these two users' private calls, made on their first call. Made at most once whoever
 * calls first (the room key is unique).
 */
export async function privateChannelOf(db: Db, userIds: [number, number], at = new Date()): Promise<ChannelSummary> {
  const room = privateRoomOf(userIds);
  const existing = await db.selectFrom('channels').selectAll().where('rtc_session', '=', room).executeTakeFirst();
  if (existing) return toSummary(existing);
  try {
    const row = await db
      .insertInto('channels')
      .values({ name: room, rtc_session: room, created_at: at.toISOString(), hidden: 1 })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toSummary(row);
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const raced = await db.selectFrom('channels').selectAll().where('rtc_session', '=', room).executeTakeFirst();
    if (!raced) throw error;
    return toSummary(raced);
  }
}
