/**
 * Puts the sockets of dispatchers (users who hold `channel.alerts` or `channel.activities` in the channels they
 * belong to) in the supervisor room of each of those channels, so that the channels' alerts, activities and
 * presence reach their console pages wherever they are. Administrators hold these everywhere and hear them in
 * ADMINS_ROOM. Placed at connection, and again by the room guard whenever the user's rights change
 * (room-guard.ts, on every instance).
 */
import { type Actor, may, mayAnywhere } from '@talkgroup/protocol';
import { type MembershipRights, type MembershipStore, standingOf } from '../channels/membership.ts';
import { supervisedChannelOf, supervisorRoom } from '../sockets/room-names.ts';
import type { TalkSocket } from './io.ts';

/** What this part uses of the services (app.ts hands them over). */
export interface SupervisionServices {
  memberships: MembershipStore;
}

/**
 * The supervisor rooms of a user with this role, given its memberships (channel id -> their rights): none through
 * a membership that gives a member's rights only (an area's, a regroup's: issue 69).
 */
export function supervisorRoomsOf(actor: Actor, own: ReadonlyMap<number, MembershipRights>): string[] {
  // Whoever takes every channel's alerts hears them all in ADMINS_ROOM.
  if (may(actor, null, 'channel.alerts')) return [];
  const rooms: string[] = [];
  for (const [channelId, rights] of own) {
    const standing = standingOf(rights);
    if (
      may(actor, standing, 'channel.alerts') ||
      may(actor, standing, 'channel.activities') ||
      may(actor, standing, 'channel.dispatch')
    )
      rooms.push(supervisorRoom(channelId));
  }
  return rooms;
}

/** Makes these the socket's supervisor rooms; the channels of those it left. */
export async function placeSupervision(socket: TalkSocket, wanted: string[]): Promise<number[]> {
  const keep = new Set(wanted);
  const left: number[] = [];
  for (const room of [...socket.rooms]) {
    const channelId = supervisedChannelOf(room);
    if (channelId === undefined || keep.has(room)) continue;
    await socket.leave(room);
    left.push(channelId);
  }
  if (wanted.length > 0) await socket.join(wanted);
  return left;
}

export function supervision(services: SupervisionServices) {
  return {
    /** At connection: the socket's supervisor rooms from its user's memberships. */
    async place(socket: TalkSocket): Promise<void> {
      const actor = socket.data;
      // Most sockets are members': they supervise nothing, and ask the database nothing here.
      if (may(actor, null, 'channel.alerts')) return;
      if (!mayAnywhere(actor, 'channel.alerts') && !mayAnywhere(actor, 'channel.activities')) return;
      const own = await services.memberships.channelsWithRights(socket.data.userId);
      if (socket.disconnected) return;
      await placeSupervision(socket, supervisorRoomsOf(socket.data, new Map(own.map((c) => [c.id, c]))));
    },
  };
}
