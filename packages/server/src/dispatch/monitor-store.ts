/** Each user's monitor list (the dispatch console's tiles, in order, with their volumes) and unselected level. */
import { type MonitoredChannel, UNSELECTED_VOLUME_DEFAULT } from '@talkgroup/protocol';
import type { Db } from '../db/schema.ts';

export interface MonitorList {
  channels: MonitoredChannel[];
  unselectedVolume: number;
}

/** A saved list, or the defaults of a user who never saved one (`saved` false). */
export interface StoredMonitorList extends MonitorList {
  saved: boolean;
}

export function monitorStore(db: Db) {
  return {
    /** The user's list in its order; a channel deleted meanwhile is gone from it (the rows cascade). */
    async of(userId: number): Promise<StoredMonitorList> {
      const [rows, preferences] = await Promise.all([
        db
          .selectFrom('monitored_channels')
          .select(['channel_id', 'volume', 'muted'])
          .where('user_id', '=', userId)
          .orderBy('position')
          .execute(),
        db
          .selectFrom('dispatch_preferences')
          .select('unselected_volume')
          .where('user_id', '=', userId)
          .executeTakeFirst(),
      ]);
      return {
        channels: rows.map((row) => ({ channelId: row.channel_id, volume: row.volume, muted: row.muted === 1 })),
        unselectedVolume: preferences?.unselected_volume ?? UNSELECTED_VOLUME_DEFAULT,
        // Every save writes the preferences' row: without one, the user never chose its tiles.
        saved: preferences !== undefined,
      };
    },

    /** Replaces the user's list and level, in one transaction. */
    async set(userId: number, list: MonitorList): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('monitored_channels').where('user_id', '=', userId).execute();
        if (list.channels.length > 0)
          await trx
            .insertInto('monitored_channels')
            .values(
              list.channels.map((entry, position) => ({
                user_id: userId,
                channel_id: entry.channelId,
                position,
                volume: entry.volume,
                muted: entry.muted ? 1 : 0,
              })),
            )
            .execute();
        await trx
          .insertInto('dispatch_preferences')
          .values({ user_id: userId, unselected_volume: list.unselectedVolume })
          .onConflict((oc) => oc.column('user_id').doUpdateSet({ unselected_volume: list.unselectedVolume }))
          .execute();
      });
    },
  };
}

export type MonitorStore = ReturnType<typeof monitorStore>;
