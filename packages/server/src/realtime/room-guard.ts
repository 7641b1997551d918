/**
 * Keeps channel rooms true to the data: after a channel or membership change, every local socket in a
 * channel room is checked; a socket whose channel is gone or whose user may no longer read it leaves the
 * room (the others get user_exit), and a renamed channel's sockets follow it to its new room key. With the
 * Redis adapter the other instances are told to check theirs.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Services } from '../services.ts';
import { followRename, leaveRoom } from './concerns/rooms.ts';
import type { Io, SocketScope, TalkSocket } from './context.ts';

export interface LocalSocket {
  socket: TalkSocket;
  scope: SocketScope;
}

export function roomGuard(
  io: Io,
  deps: { services: Services; log: FastifyBaseLogger; local: Map<string, LocalSocket>; shared: boolean },
) {
  const { services, log, local } = deps;
  let pass: Promise<void> | undefined;
  let again = false;

  /** One pass costs two queries per channel in use. */
  async function revalidateRooms(): Promise<void> {
    const byChannel = new Map<number, LocalSocket[]>();
    for (const entry of local.values()) {
      const channelId = entry.socket.data.channelId;
      if (channelId !== null) byChannel.set(channelId, [...(byChannel.get(channelId) ?? []), entry]);
    }
    for (const [channelId, inChannel] of byChannel) {
      const channel = await services.channels.byId(channelId);
      const readers = channel
        ? await services.access.readersAmong(
            channelId,
            inChannel.map((e) => e.socket.data),
          )
        : new Set<number>();
      for (const { socket, scope } of inChannel) {
        const { data } = socket;
        if (socket.disconnected || data.channelId !== channelId) continue;
        if (!channel || !readers.has(data.userId)) {
          const message = channel
            ? `You are no longer a member of the channel "${channel.name}": you left its room.`
            : 'This channel was deleted: you left its room.';
          void scope.run('revalidate', async () => {
            if (socket.data.channelId !== channelId) return;
            await leaveRoom(socket, scope, 'evicted');
            socket.emit('error', { message });
          });
        } else if (channel.rtcSession !== data.room) {
          void scope.run('revalidate', () => followRename(socket, channel));
        }
      }
    }
  }

  /** One pass at a time; changes announced during a pass get one more pass after it. */
  function revalidateLocal(): void {
    if (pass) {
      again = true;
      return;
    }
    pass = revalidateRooms()
      .catch((error) => log.error({ err: error }, 'could not re-check the channel rooms'))
      .finally(() => {
        pass = undefined;
        if (again) {
          again = false;
          revalidateLocal();
        }
      });
  }

  io.on('revalidateRooms', () => revalidateLocal());
  const offs = (['channelChanged', 'membershipChanged', 'channelDeleted'] as const).map((name) =>
    services.events.on(name, () => {
      revalidateLocal();
      // The in-memory adapter has no other instance to tell (and warns when asked to).
      if (deps.shared) io.serverSideEmit('revalidateRooms');
    }),
  );
  return {
    stop: () => {
      for (const off of offs) off();
    },
  };
}
