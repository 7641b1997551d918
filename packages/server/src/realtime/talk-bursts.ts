/**
 * Talk bursts: one row per press of the push-to-talk button (mic on, then off). The open burst of a user in
 * a channel is the row without ended_at, so the state survives whichever instance or call reports the end.
 */
import type { Db } from '../db/schema.ts';

export interface TalkBurst {
  id: number;
  userId: number | null;
  channelId: number | null;
  startedAt: string;
  endedAt: string | null;
}

export function talkBurstStore(db: Db) {
  return {
    /** Opens a burst unless one is already open; true when this call opened it. */
    async start(userId: number, channel: { id: number; name: string }): Promise<boolean> {
      const open = await db
        .selectFrom('talk_bursts')
        .select('id')
        .where('user_id', '=', userId)
        .where('channel_id', '=', channel.id)
        .where('ended_at', 'is', null)
        .executeTakeFirst();
      if (open) return false;
      await db
        .insertInto('talk_bursts')
        .values({
          user_id: userId,
          channel_id: channel.id,
          channel_name: channel.name,
          started_at: new Date().toISOString(),
          ended_at: null,
        })
        .execute();
      return true;
    },

    /** Closes the open bursts of a user in a channel; returns how many were open. */
    async end(userId: number, channelId: number): Promise<number> {
      const result = await db
        .updateTable('talk_bursts')
        .set({ ended_at: new Date().toISOString() })
        .where('user_id', '=', userId)
        .where('channel_id', '=', channelId)
        .where('ended_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },

    async ofUser(userId: number): Promise<TalkBurst[]> {
      const rows = await db
        .selectFrom('talk_bursts')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('started_at', 'desc')
        .orderBy('id', 'desc')
        .execute();
      return rows.map((r) => ({
        id: r.id,
        userId: r.user_id,
        channelId: r.channel_id,
        startedAt: r.started_at,
        endedAt: r.ended_at,
      }));
    },
  };
}

export type TalkBurstStore = ReturnType<typeof talkBurstStore>;
