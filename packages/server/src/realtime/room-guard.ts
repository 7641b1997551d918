/**
 * Keeps channel rooms true to the data: after a channel or membership change, every local socket's channels
 * are checked; a socket whose channel is gone or whose user may no longer listen there leaves that channel
 * (the others get user_exit), a member made listen-only loses the floor, and a renamed channel's sockets
 * follow it to its new room key. With the Redis adapter the other instances are told to check theirs.
 */
import { type ChannelStanding, may } from '@talkgroup/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { Services } from '../services.ts';
import { followRename, leaveChannel } from './concerns/rooms.ts';
import { talkerOf } from './concerns/talk.ts';
import type { Io, SocketScope, TalkSocket } from './context.ts';
import { participationIn } from './participations.ts';

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
      for (const { channelId } of entry.socket.data.participations)
        byChannel.set(channelId, [...(byChannel.get(channelId) ?? []), entry]);
    }
    for (const [channelId, inChannel] of byChannel) {
      const channel = await services.channels.byId(channelId);
      const standings = channel
        ? await services.access.standingsAmong(
            channelId,
            inChannel.map((e) => e.socket.data),
          )
        : new Map<number, ChannelStanding>();
      for (const { socket, scope } of inChannel) {
        const { data } = socket;
        const at = participationIn(data, channelId);
        if (socket.disconnected || !at) continue;
        const standing = standings.get(data.userId);
        if (!channel || !standing || !may(data, standing, 'channel.listen')) {
          const message = channel
            ? `You are no longer a member of the channel "${channel.name}": you left its room.`
            : 'This channel was deleted: you left its room.';
          void scope.run('revalidate', async () => {
            const still = participationIn(socket.data, channelId);
            if (!still) return;
            await leaveChannel(socket, scope, still, 'evicted');
            socket.emit('error', { message });
          });
          continue;
        }
        // A member made listen-only: a floor it holds goes back, its next press is refused.
        const mayTalk = may(data, standing, 'channel.talk');
        if (at.mayTalk && !mayTalk) {
          at.mayTalk = false;
          void scope.run('revalidate', async () => {
            if (await scope.floor.free(socket.id, at.room, channelId, 'revoked'))
              await scope.talk.endTalkOnLeave(talkerOf(socket), at);
          });
        } else at.mayTalk = mayTalk;
        if (channel.rtcSession !== at.room) void scope.run('revalidate', () => followRename(socket, channel));
      }
      // Its voice set to go another way (the media server, or peer to peer): the pages here switch.
      if (channel) await inChannel[0]?.scope.media.follow(channel);
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
