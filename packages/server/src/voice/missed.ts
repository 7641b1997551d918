/**
 * Nothing missed (issue 34): per member and transmission, whether the member heard it (voice_heard, migration
 * 0023). A transmission is heard live by every member with a page in its channel when it is kept, unless busy;
 * a member plays the others later (markHeard), for all its devices. Missed: a recorded transmission of the last
 * MISSED_WINDOW_HOURS in one of the member's channels, made by someone else after the member joined it, heard
 * by none of the member's pages. A private call's hidden channel has no missed list (its id never leaves it).
 */
import { MISSED_WINDOW_HOURS, type MissedCount } from '@talkgroup/protocol';
import type { Db } from '../db/schema.ts';
import type { VoiceRow } from './store.ts';

const WINDOW_MS = MISSED_WINDOW_HOURS * 3600_000;

export function missedStore(db: Db) {
  /** The member's missed transmissions, as a query on voice_messages (alias vm). */
  const missedOf = (userId: number, now = Date.now()) =>
    db
      .selectFrom('voice_messages as vm')
      .innerJoin('channel_members as cm', (join) =>
        join.onRef('cm.channel_id', '=', 'vm.channel_id').on('cm.user_id', '=', userId),
      )
      .innerJoin('channels as c', 'c.id', 'vm.channel_id')
      .where('c.hidden', '=', 0)
      .where('vm.created_at', '>=', new Date(now - WINDOW_MS).toISOString())
      .whereRef('vm.created_at', '>=', 'cm.created_at')
      .where((eb) => eb.or([eb('vm.user_id', 'is', null), eb('vm.user_id', '!=', userId)]))
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('voice_heard as h')
              .select('h.user_id')
              .whereRef('h.voice_message_id', '=', 'vm.id')
              .where('h.user_id', '=', userId),
          ),
        ),
      );

  return {
    /**
     * A transmission just kept: heard live by the talker and by every member not busy with a page in the channel
     * now. The channel's members who did not hear it (their missed lists grew).
     */
    async heardLive(voiceMessageId: number, channelId: number, talkerId: number | null): Promise<number[]> {
      const now = new Date().toISOString();
      // From the channel's sockets (an index), not from every user; a user's second socket conflicts: nothing.
      await db
        .insertInto('voice_heard')
        .columns(['voice_message_id', 'user_id', 'heard_at'])
        .expression((eb) =>
          eb
            .selectFrom('user_sockets')
            .innerJoin('users', 'users.id', 'user_sockets.user_id')
            .select((inner) => [
              inner.val(voiceMessageId).as('voice_message_id'),
              'user_sockets.user_id as user_id',
              inner.val(now).as('heard_at'),
            ])
            .where('user_sockets.channel_id', '=', channelId)
            .where('users.busy', '=', 0),
        )
        .onConflict((conflict) => conflict.doNothing())
        .execute();
      if (talkerId !== null)
        await db
          .insertInto('voice_heard')
          .values({ voice_message_id: voiceMessageId, user_id: talkerId, heard_at: now })
          .onConflict((conflict) => conflict.doNothing())
          .execute();
      const missing = await db
        .selectFrom('channel_members')
        .select('user_id')
        .where('channel_id', '=', channelId)
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('voice_heard')
                .select('voice_heard.user_id')
                .whereRef('voice_heard.user_id', '=', 'channel_members.user_id')
                .where('voice_heard.voice_message_id', '=', voiceMessageId),
            ),
          ),
        )
        .execute();
      return missing.map((row) => row.user_id);
    },

    /** Per channel of the member's, how many transmissions it missed (channels with none left out). */
    async counts(userId: number): Promise<MissedCount[]> {
      const rows = await missedOf(userId)
        .select(['vm.channel_id', (eb) => eb.fn.countAll<number>().as('n')])
        .groupBy('vm.channel_id')
        .orderBy('vm.channel_id')
        .execute();
      return rows.map((row) => ({ channelId: row.channel_id, count: Number(row.n) }));
    },

    /** The member's missed transmissions in one channel, oldest first. */
    in(userId: number, channelId: number, limit = 100): Promise<VoiceRow[]> {
      return missedOf(userId)
        .selectAll('vm')
        .where('vm.channel_id', '=', channelId)
        .orderBy('vm.created_at')
        .orderBy('vm.id')
        .limit(limit)
        .execute();
    },

    /** These transmissions were played by the member: heard. The channels whose missed list changed. */
    async markHeard(userId: number, ids: readonly number[]): Promise<number[]> {
      const mine = await missedOf(userId)
        .select(['vm.id', 'vm.channel_id'])
        .where('vm.id', 'in', [...new Set(ids)])
        .execute();
      if (mine.length === 0) return [];
      const now = new Date().toISOString();
      await db
        .insertInto('voice_heard')
        .values(mine.map((row) => ({ voice_message_id: row.id, user_id: userId, heard_at: now, live: 0 })))
        .onConflict((conflict) => conflict.doNothing())
        .execute();
      return [...new Set(mine.map((row) => row.channel_id))];
    },

    async isBusy(userId: number): Promise<boolean> {
      const row = await db.selectFrom('users').select('busy').where('id', '=', userId).executeTakeFirst();
      return row?.busy === 1;
    },

    async setBusy(userId: number, busy: boolean): Promise<void> {
      await db
        .updateTable('users')
        .set({ busy: busy ? 1 : 0 })
        .where('id', '=', userId)
        .execute();
    },
  };
}

export type MissedStore = ReturnType<typeof missedStore>;
