/** The order of a tile's people (issue 49): in the channel, connected elsewhere, away; then by name. */
import { displayNameOf, type User } from '@talkgroup/protocol';

export type Presence = 'inChannel' | 'online' | 'offline';

export interface TileMember {
  id: number;
  name: string;
  presence: Presence;
}

const PRESENCE_ORDER: Record<Presence, number> = { inChannel: 0, online: 1, offline: 2 };

export function tileMembers(
  users: ReadonlyArray<Pick<User, 'id' | 'display_name' | 'firstName' | 'lastName' | 'user_sockets'>>,
  channelId: number,
): TileMember[] {
  return users
    .map((user) => {
      const presence: Presence = user.user_sockets.some((socket) => socket.channelId === channelId)
        ? 'inChannel'
        : user.user_sockets.length > 0
          ? 'online'
          : 'offline';
      return { id: user.id, name: displayNameOf(user), presence };
    })
    .sort((a, b) => PRESENCE_ORDER[a.presence] - PRESENCE_ORDER[b.presence] || a.name.localeCompare(b.name));
}
