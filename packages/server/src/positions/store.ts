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
  };
}

export type PositionStore = ReturnType<typeof positionStore>;
