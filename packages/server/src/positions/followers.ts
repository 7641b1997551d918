/**
 * Whose positions one may read and export (the `trails` access of docs/api.md): one's own; anyone's for one who
 * holds channel.trails everywhere (administrators); else the members of the channels where one holds it (a
 * dispatcher's channels). A member, even with mapRight, follows only itself.
 */
import { may } from '@talkgroup/protocol';
import type { ChannelAccess, Reader } from '../channels/access.ts';
import type { Db } from '../db/schema.ts';
import { forbidden, HttpError } from '../http/errors.ts';

export function followers(db: Db, access: ChannelAccess) {
  /** Of these users, those that exist and `reader` may follow; a refusal for any other. */
  async function requireFollowable(reader: Reader, userIds: number[]): Promise<Array<{ id: number; name: string }>> {
    const wanted = [...new Set(userIds)];
    const everywhere = may(reader, null, 'channel.trails');
    const channels = everywhere ? undefined : await access.channelsWhere(reader, 'channel.trails');
    const users = await db
      .selectFrom('users')
      .select(['id', 'display_name'])
      .where('id', 'in', wanted)
      .orderBy('id')
      .execute();
    const followable = new Set<number>([reader.userId]);
    if (!everywhere && channels && channels.length > 0) {
      const rows = await db
        .selectFrom('channel_members')
        .select('user_id')
        .where('channel_id', 'in', channels)
        .where('user_id', 'in', wanted)
        .execute();
      for (const row of rows) followable.add(row.user_id);
    }
    const known = new Set(users.map((user) => user.id));
    for (const id of wanted) {
      if (everywhere && !known.has(id)) throw new HttpError(404, 'user_not_found');
      if (!everywhere && !followable.has(id)) throw forbidden('not_allowed');
    }
    // A reader that follows itself exists; another id, known and allowed, is in `users`.
    return users.map((user) => ({ id: user.id, name: user.display_name }));
  }

  return {
    requireFollowable,

    /** A channel's members (those of `only`, when given), if `reader` holds channel.trails there. */
    async requireChannelMembers(
      reader: Reader,
      channelId: number,
      only?: number[],
    ): Promise<Array<{ id: number; name: string }>> {
      await access.require(reader, channelId, 'channel.trails');
      return db
        .selectFrom('channel_members')
        .innerJoin('users', 'users.id', 'channel_members.user_id')
        .select(['users.id', 'users.display_name as name'])
        .where('channel_members.channel_id', '=', channelId)
        .$if(only !== undefined, (q) => q.where('users.id', 'in', only as number[]))
        .orderBy('users.id')
        .execute();
    },
  };
}

export type Followers = ReturnType<typeof followers>;
