/** Member positions: every report is kept (the map and a user's history read them latest first). */
import type { UserPosition } from '@talkgroup/protocol';
import type { Db } from '../db/schema.ts';

export function positionStore(db: Db) {
  return {
    async add(userId: number, position: { lat: number; lng: number; accuracy?: number }): Promise<UserPosition> {
      const row = await db
        .insertInto('user_positions')
        .values({
          user_id: userId,
          lat: position.lat,
          lng: position.lng,
          accuracy: position.accuracy ?? null,
          created_at: new Date().toISOString(),
        })
        .returning(['lat', 'lng', 'accuracy', 'created_at'])
        .executeTakeFirstOrThrow();
      return { lat: row.lat, lng: row.lng, accuracy: row.accuracy, createdAt: row.created_at };
    },

    /** Was a position_update activity recorded for this user since `since`? */
    async activitySince(userId: number, since: Date): Promise<boolean> {
      const row = await db
        .selectFrom('activities')
        .select('id')
        .where('user_id', '=', userId)
        .where('type', '=', 'position_update')
        .where('created_at', '>', since.toISOString())
        .executeTakeFirst();
      return row !== undefined;
    },
  };
}

export type PositionStore = ReturnType<typeof positionStore>;
