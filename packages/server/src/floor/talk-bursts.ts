/**
 * Talk bursts, the floor's grants as the database keeps them: one row per press of the push-to-talk button
 * (mic on, then off), naming the grant's id. The open burst of a user in a channel is the row without
 * ended_at, so the state survives whichever instance or call reports the end.
 */
import type { CallEvent, MediaKind } from '@talkgroup/protocol';
import type { Selectable } from 'kysely';
import type { Db, TalkBurstsTable } from '../db/schema.ts';

/** A burst is what the legacy calls name a call event (spec section 7, getUserCallEvents). */
export type TalkBurst = CallEvent;

function toTalkBurst(row: Selectable<TalkBurstsTable>): TalkBurst {
  return {
    id: row.id,
    userId: row.user_id,
    channelId: row.channel_id,
    channelName: row.channel_name,
    startedAt: row.started_at,
    endedAt: row.ended_at,
  };
}

export function talkBurstStore(db: Db) {
  return {
    /**
     * Opens a burst unless one is already open; true when this call opened it. `plane`: how the channel's voice
     * goes now ('mesh': the talker's browser records it and uploads it naming `grantId`; 'server': the media
     * server records it).
     */
    async start(
      userId: number,
      channel: { id: number; name: string },
      plane: MediaKind = 'mesh',
      grantId?: string,
    ): Promise<boolean> {
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
          plane,
          grant_id: grantId ?? null,
        })
        .execute();
      return true;
    },

    /**
     * Closes the open bursts of a user in a channel; returns how long the transmission lasted (from its
     * earliest open burst), or undefined when none was open.
     */
    async end(userId: number, channelId: number): Promise<{ durationMs: number } | undefined> {
      const ended = new Date();
      const closed = await db
        .updateTable('talk_bursts')
        .set({ ended_at: ended.toISOString() })
        .where('user_id', '=', userId)
        .where('channel_id', '=', channelId)
        .where('ended_at', 'is', null)
        .returning('started_at')
        .execute();
      if (closed.length === 0) return undefined;
      const started = Math.min(...closed.map((row) => Date.parse(row.started_at)));
      return { durationMs: Math.max(0, ended.getTime() - started) };
    },

    /**
     * Closes the bursts that no socket holds any more (their instance is gone): their real end is unknown,
     * so they count as zero-length rather than as a burst that lasted until the sweep.
     */
    async closeOrphans(): Promise<void> {
      await db
        .updateTable('talk_bursts')
        .set((eb) => ({ ended_at: eb.ref('started_at') }))
        .where('ended_at', 'is', null)
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('user_sockets')
                .select('user_sockets.id')
                .whereRef('user_sockets.user_id', '=', 'talk_bursts.user_id')
                .whereRef('user_sockets.channel_id', '=', 'talk_bursts.channel_id'),
            ),
          ),
        )
        .execute();
    },

    /** The bursts of a user, latest first (at most `limit`). */
    async ofUser(userId: number, limit?: number): Promise<TalkBurst[]> {
      const rows = await db
        .selectFrom('talk_bursts')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('started_at', 'desc')
        .orderBy('id', 'desc')
        .$if(limit !== undefined, (q) => q.limit(limit as number))
        .execute();
      return rows.map(toTalkBurst);
    },

    /**
     * The grant of this id in this channel (an all call's channels share one id), whoever it was given to, and
     * whether an upload used it already; undefined if there is none. `elsewhere`: the grant exists, but only
     * in other channels.
     */
    async grant(grantId: string, channelId: number): Promise<GrantRecord | { elsewhere: true } | undefined> {
      const rows = await db
        .selectFrom('talk_bursts')
        .select(['id', 'user_id', 'channel_id', 'started_at', 'ended_at', 'plane'])
        .select(({ exists, selectFrom }) =>
          exists(
            selectFrom('voice_messages')
              .select('voice_messages.id')
              .whereRef('voice_messages.talk_burst_id', '=', 'talk_bursts.id'),
          ).as('used'),
        )
        .where('grant_id', '=', grantId)
        .execute();
      const here = rows.find((row) => row.channel_id === channelId);
      if (!here) return rows.length > 0 ? { elsewhere: true } : undefined;
      return {
        id: here.id,
        userId: here.user_id,
        startedAt: new Date(here.started_at),
        endedAt: here.ended_at ? new Date(here.ended_at) : null,
        plane: here.plane === 'server' ? 'server' : 'mesh',
        used: Boolean(here.used),
      };
    },

    /**
     * The grant a take recorded by the media server belongs to (issue 58: the take and its grant are one
     * transmission): its talker's in that channel, started within `withinMs` of the take, that no kept take
     * names yet; the nearest. The take starts as the media server unmutes the holder, the grant's row just after.
     */
    async forTake(userId: number, channelId: number, startedAt: Date, withinMs = 5_000): Promise<number | undefined> {
      const rows = await db
        .selectFrom('talk_bursts')
        .select(['id', 'started_at'])
        .where('user_id', '=', userId)
        .where('channel_id', '=', channelId)
        .where('started_at', '>=', new Date(startedAt.getTime() - withinMs).toISOString())
        .where('started_at', '<=', new Date(startedAt.getTime() + withinMs).toISOString())
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('voice_messages')
                .select('voice_messages.id')
                .whereRef('voice_messages.talk_burst_id', '=', 'talk_bursts.id'),
            ),
          ),
        )
        .execute();
      const apart = (row: { started_at: string }) => Math.abs(new Date(row.started_at).getTime() - startedAt.getTime());
      return rows.sort((a, b) => apart(a) - apart(b))[0]?.id;
    },

    async byId(id: number): Promise<TalkBurst | undefined> {
      const row = await db.selectFrom('talk_bursts').selectAll().where('id', '=', id).executeTakeFirst();
      return row && toTalkBurst(row);
    },
  };
}

export type TalkBurstStore = ReturnType<typeof talkBurstStore>;

/** A grant as an upload checks it: whose, when, how the voice went, and whether a transmission used it. */
export interface GrantRecord {
  id: number;
  /** Null once its user was deleted. */
  userId: number | null;
  startedAt: Date;
  endedAt: Date | null;
  plane: MediaKind;
  used: boolean;
}
