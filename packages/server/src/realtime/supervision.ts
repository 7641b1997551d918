/**
 * Puts the sockets of dispatchers (users who hold `channel.alerts` or `channel.activities` in the channels they
 * belong to) in the supervisor room of each of those channels, so that the channels' alerts, activities and
 * presence reach their console pages wherever they are. Administrators hold these everywhere and hear them in
 * ADMINS_ROOM. Placed at connection and again when memberships change (on any instance: revalidateRooms).
 */
import { may, mayAnywhere } from '@talkgroup/protocol';
import type { Services } from '../services.ts';
import type { Io, TalkSocket } from './context.ts';
import type { LocalSocket } from './room-guard.ts';
import { supervisorRoom } from './room-names.ts';

/** Whether the socket's user supervises its own channels (and not all of them from ADMINS_ROOM). */
function supervisesOwn(socket: TalkSocket): boolean {
  const actor = { role: socket.data.role, mapRight: socket.data.mapRight };
  return (
    !may(actor, null, 'channel.alerts') &&
    (mayAnywhere(actor, 'channel.alerts') || mayAnywhere(actor, 'channel.activities'))
  );
}

export function supervision(io: Io, services: Services, local: Map<string, LocalSocket>) {
  async function place(socket: TalkSocket): Promise<void> {
    if (!supervisesOwn(socket)) return;
    const wanted = new Set(
      (await services.memberships.channelsOfMember(socket.data.userId)).map((channel) => supervisorRoom(channel.id)),
    );
    if (socket.disconnected) return;
    for (const room of socket.rooms) if (room.startsWith('supervise:') && !wanted.has(room)) socket.leave(room);
    await socket.join([...wanted]);
  }

  function placeAll(userIds?: Set<number>): void {
    for (const { socket, scope } of local.values()) {
      if (socket.disconnected || !supervisesOwn(socket)) continue;
      if (userIds && !userIds.has(socket.data.userId)) continue;
      void scope.run('supervision', () => place(socket));
    }
  }

  io.on('revalidateRooms', () => placeAll());
  const offs = [
    services.events.on('membershipChanged', ({ userIds }) => placeAll(new Set(userIds))),
    services.events.on('channelDeleted', ({ memberIds }) => placeAll(new Set(memberIds))),
  ];
  return {
    place,
    stop: () => {
      for (const off of offs) off();
    },
  };
}
