/**
 * The latest row of a parent's history (a user's latest position, a channel's latest activity): one index
 * lookup per parent on (parent column, created_at), newest first by (created_at, id).
 */
import type { ExpressionBuilder } from 'kysely';
import type { Database } from './schema.ts';

/** The histories, each with the columns that name its parent row. */
interface Histories {
  activities: 'user_id' | 'channel_id';
  user_positions: 'user_id';
}

/** A history's parent column, as a reference: `activities.channel_id`. */
type ParentColumnRef = { [H in keyof Histories]: `${H}.${Histories[H]}` }[keyof Histories];

/** The tables a history hangs from, by their id. */
type Parent = 'users' | 'channels';

/**
 * The id of the latest row of `history` whose `parentColumn` is `parent`.id: the right side of a join's `on`,
 * `join.on('p.id', '=', latestRowId('user_positions', 'user_id', 'users'))`.
 */
export function latestRowId<H extends keyof Histories>(history: H, parentColumn: Histories[H], parent: Parent) {
  // Any query whose tables include the parent's: the join's own builder, with its aliases, is one of them.
  return <DB extends Database, TB extends keyof DB>(eb: ExpressionBuilder<DB, TB>) =>
    (eb as unknown as ExpressionBuilder<Database, Parent>)
      .selectFrom(history as keyof Histories)
      .select('id')
      .whereRef(`${history}.${parentColumn}` as ParentColumnRef, '=', `${parent}.id`)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(1);
}
