/**
 * Presence: one user_sockets row per connected socket, with the channel it is in (null until it joins
 * one). It lives in the database so that any instance answers "who is connected" the same way.
 */
import type { UserStatus } from '@talkgroup/protocol';
import type { Db } from '../db/schema.ts';

export function presenceStore(db: Db) {
  /**
   * Puts the socket in a channel (or in none). The row is written again if it is gone: deleting a channel
   * deletes the presence rows that pointed at it, while the socket itself is still connected.
   */
  async function place(
    socketId: string,
    userId: number,
    instanceId: string,
    channelId: number | null,
    via: Db = db,
  ): Promise<void> {
    const result = await via
      .updateTable('user_sockets')
      .set({ channel_id: channelId, mic_state: 0 })
      .where('socket_id', '=', socketId)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) > 0) return;
    await via
      .insertInto('user_sockets')
      .values({
        user_id: userId,
        channel_id: channelId,
        socket_id: socketId,
        instance_id: instanceId,
        mic_state: 0,
        created_at: new Date().toISOString(),
      })
      .execute();
  }

  return {
    /** `via`: a transaction to write in (group-commit.ts gathers the writes of a crowd). */
    async add(socketId: string, userId: number, instanceId: string, via: Db = db): Promise<void> {
      await place(socketId, userId, instanceId, null, via);
    },

    place,

    /** Points an existing socket row at a channel (connectAdminToChannel); false when the row is gone. */
    async setChannel(socketId: string, channelId: number | null): Promise<boolean> {
      const result = await db
        .updateTable('user_sockets')
        .set({ channel_id: channelId, mic_state: 0 })
        .where('socket_id', '=', socketId)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    async socketRow(socketId: string) {
      return db
        .selectFrom('user_sockets')
        .select(['user_id', 'channel_id', 'instance_id'])
        .where('socket_id', '=', socketId)
        .executeTakeFirst();
    },

    async remove(socketId: string): Promise<void> {
      await db.deleteFrom('user_sockets').where('socket_id', '=', socketId).execute();
    },

    async setMicState(userId: number, channelId: number, on: boolean): Promise<void> {
      await db
        .updateTable('user_sockets')
        .set({ mic_state: on ? 1 : 0 })
        .where('user_id', '=', userId)
        .where('channel_id', '=', channelId)
        .execute();
    },

    /** A socket of this user in this channel, for pushes that did not come from a socket (HTTP). */
    async socketIn(userId: number, channelId: number): Promise<string | undefined> {
      const row = await db
        .selectFrom('user_sockets')
        .select('socket_id')
        .where('user_id', '=', userId)
        .where('channel_id', '=', channelId)
        .orderBy('id', 'desc')
        .executeTakeFirst();
      return row?.socket_id;
    },

    async status(userId: number): Promise<UserStatus> {
      const rows = await db.selectFrom('user_sockets').select('channel_id').where('user_id', '=', userId).execute();
      const channelIds = [...new Set(rows.map((r) => r.channel_id).filter((id): id is number => id !== null))];
      return { userId, online: rows.length > 0, channelIds: channelIds.sort((a, b) => a - b) };
    },

    /** Who is talking now in these channels (their mic is on), by channel. */
    async talkingIn(channelIds: number[]): Promise<Map<number, Array<{ userId: number; name: string }>>> {
      const byChannel = new Map<number, Array<{ userId: number; name: string }>>();
      if (channelIds.length === 0) return byChannel;
      const rows = await db
        .selectFrom('user_sockets')
        .innerJoin('users', 'users.id', 'user_sockets.user_id')
        .select(['user_sockets.channel_id', 'users.id as user_id', 'users.display_name'])
        .where('user_sockets.mic_state', '=', 1)
        .where('user_sockets.channel_id', 'in', channelIds.slice(0, 1000))
        .execute();
      for (const row of rows) {
        const channelId = row.channel_id as number;
        const talking = byChannel.get(channelId) ?? [];
        if (!talking.some((t) => t.userId === row.user_id))
          talking.push({ userId: row.user_id, name: row.display_name });
        byChannel.set(channelId, talking);
      }
      return byChannel;
    },

    /**
     * Distinct connected users of these channels (by id, or by room key for rooms just left), as
     * getAllChannels counts them (`connected`); a channel nobody is in counts 0.
     */
    async connectedCounts(
      channelIds: number[],
      rooms: string[],
    ): Promise<Array<{ channelId: number; connected: number }>> {
      if (channelIds.length === 0 && rooms.length === 0) return [];
      const rows = await db
        .selectFrom('channels')
        .leftJoin('user_sockets', 'user_sockets.channel_id', 'channels.id')
        .select(['channels.id', (eb) => eb.fn.count<number>('user_sockets.user_id').distinct().as('n')])
        .where((eb) =>
          eb.or([
            ...(channelIds.length > 0 ? [eb('channels.id', 'in', channelIds.slice(0, 500))] : []),
            ...(rooms.length > 0 ? [eb('channels.rtc_session', 'in', rooms.slice(0, 500))] : []),
          ]),
        )
        .groupBy('channels.id')
        .execute();
      return rows.map((r) => ({ channelId: r.id, connected: Number(r.n) }));
    },

    async socketCount(userId: number, via: Db = db): Promise<number> {
      const row = await via
        .selectFrom('user_sockets')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /** Removes the rows of every instance not in `alive` (a crashed or restarted process); returns how many. */
    async sweep(alive: string[]): Promise<number> {
      const result = await db
        .deleteFrom('user_sockets')
        .$if(alive.length > 0, (q) => q.where('instance_id', 'not in', alive))
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    async socketIdsOf(instanceId: string): Promise<Set<string>> {
      const rows = await db
        .selectFrom('user_sockets')
        .select('socket_id')
        .where('instance_id', '=', instanceId)
        .execute();
      return new Set(rows.map((r) => r.socket_id));
    },

    async removeInstance(instanceId: string): Promise<void> {
      await db.deleteFrom('user_sockets').where('instance_id', '=', instanceId).execute();
    },
  };
}

export type PresenceStore = ReturnType<typeof presenceStore>;
