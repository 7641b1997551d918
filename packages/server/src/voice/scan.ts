/**
 * Scan (issue 34): while /talk is open, a member hears every one of its channels (getMyChannels's list) except
 * those it took out of the scan (scan_off, migration 0024), for all its devices. No row: scanned.
 */
import type { ScanEntry } from '@talkgroup/protocol';
import type { ChannelStore } from '../channels/store.ts';
import type { Db } from '../db/schema.ts';

export function scanStore(db: Db, channels: ChannelStore) {
  return {
    /** Each of the member's channels, in getMyChannels's order, and whether it is scanned. */
    async list(userId: number): Promise<ScanEntry[]> {
      const [ids, off] = await Promise.all([
        channels.idsOfUser(userId),
        db.selectFrom('scan_off').select('channel_id').where('user_id', '=', userId).execute(),
      ]);
      const out = new Set(off.map((row) => row.channel_id));
      return ids.map((channelId) => ({ channelId, scan: !out.has(channelId) }));
    },

    /** Takes one of the member's channels out of the scan or puts it back; false if the channel is not theirs. */
    async set(userId: number, channelId: number, scan: boolean): Promise<boolean> {
      if (!(await channels.idsOfUser(userId)).includes(channelId)) return false;
      if (scan)
        await db.deleteFrom('scan_off').where('user_id', '=', userId).where('channel_id', '=', channelId).execute();
      else
        await db
          .insertInto('scan_off')
          .values({ user_id: userId, channel_id: channelId })
          .onConflict((conflict) => conflict.doNothing())
          .execute();
      return true;
    },
  };
}

export type ScanStore = ReturnType<typeof scanStore>;
