/**
 * Presence: one user_sockets row per connected socket and channel it is in, with how it is there (talk or
 * listen), or a single row without channel while it is in none (the spec's entity: userId, channelId,
 * socket_id). It lives in the database so that any instance answers "who is connected" the same way.
 */
import type { ParticipationMode, UserStatus } from '@talkgroup/protocol';
import type { Db } from '../db/schema.ts';

/** Who holds the socket: its user and the server instance it is connected to. */
export interface SocketOwner {
  socketId: string;
  userId: number;
  instanceId: string;
}

export function presenceStore(db: Db) {
  const insert = (via: Db, owner: SocketOwner, channelId: number | null, mode: ParticipationMode) =>
    via
      .insertInto('user_sockets')
      .values({
        user_id: owner.userId,
        channel_id: channelId,
        socket_id: owner.socketId,
        instance_id: owner.instanceId,
        mic_state: 0,
        mode,
        created_at: new Date().toISOString(),
      })
      .execute();

  /**
   * Puts the socket in a channel, beside the others it is in (its row without channel becomes this one). A
   * row is written again if it is gone: deleting a channel deletes the presence rows that pointed at it,
   * while the socket itself is still connected. `via`: a transaction (group-commit.ts gathers a crowd's).
   */
  async function join(owner: SocketOwner, channelId: number, mode: ParticipationMode, via: Db = db): Promise<void> {
    const here = await via
      .updateTable('user_sockets')
      .set({ mode })
      .where('socket_id', '=', owner.socketId)
      .where('channel_id', '=', channelId)
      .executeTakeFirst();
    if (Number(here.numUpdatedRows) > 0) return;
    const moved = await via
      .updateTable('user_sockets')
      .set({ channel_id: channelId, mode, mic_state: 0 })
      .where('socket_id', '=', owner.socketId)
      .where('channel_id', 'is', null)
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) > 0) return;
    await insert(via, owner, channelId, mode);
  }

  /** Takes the socket out of a channel; out of its last one, it keeps its row without channel. */
  async function leave(owner: SocketOwner, channelId: number, via: Db = db): Promise<void> {
    const rest = await via
      .selectFrom('user_sockets')
      .select('channel_id')
      .where('socket_id', '=', owner.socketId)
      .execute();
    if (rest.length === 1 && rest[0].channel_id === channelId) {
      await via
        .updateTable('user_sockets')
        .set({ channel_id: null, mode: 'talk', mic_state: 0 })
        .where('socket_id', '=', owner.socketId)
        .execute();
      return;
    }
    await via
      .deleteFrom('user_sockets')
      .where('socket_id', '=', owner.socketId)
      .where('channel_id', '=', channelId)
      .execute();
    if (rest.length === 0) await insert(via, owner, null, 'talk');
  }

  return {
    /** A socket connected: its row without channel. */
    async add(owner: SocketOwner, via: Db = db): Promise<void> {
      const row = await via
        .selectFrom('user_sockets')
        .select('id')
        .where('socket_id', '=', owner.socketId)
        .executeTakeFirst();
      if (!row) await insert(via, owner, null, 'talk');
    },

    join,
    leave,

    /**
     * Writes a socket's rows again as they should be (its channels, or none): after its instance was taken
     * for dead and its rows removed while the socket stayed connected.
     */
    async restore(owner: SocketOwner, channels: Array<{ channelId: number; mode: ParticipationMode }>) {
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('user_sockets').where('socket_id', '=', owner.socketId).execute();
        if (channels.length === 0) await insert(trx, owner, null, 'talk');
        for (const { channelId, mode } of channels) await insert(trx, owner, channelId, mode);
      });
    },

    /** The channels a socket is in, by its rows (any instance's socket). */
    async socketRows(socketId: string) {
      return db
        .selectFrom('user_sockets')
        .select(['user_id', 'channel_id', 'instance_id'])
        .where('socket_id', '=', socketId)
        .execute();
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

    /** A socket of this user in this channel (its latest) and how it is there, for calls that come over HTTP. */
    async socketIn(
      userId: number,
      channelId: number,
    ): Promise<{ socketId: string; mode: ParticipationMode } | undefined> {
      const row = await db
        .selectFrom('user_sockets')
        .select(['socket_id', 'mode'])
        .where('user_id', '=', userId)
        .where('channel_id', '=', channelId)
        .orderBy('id', 'desc')
        .executeTakeFirst();
      return row && { socketId: row.socket_id, mode: row.mode };
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

    /** Connected sockets of a user (one socket in several channels counts once). */
    async socketCount(userId: number, via: Db = db): Promise<number> {
      const row = await via
        .selectFrom('user_sockets')
        .select((eb) => eb.fn.count<number>('socket_id').distinct().as('n'))
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
