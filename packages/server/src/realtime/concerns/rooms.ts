/** Channel rooms: join_room, leave_room, and what leaving or following a renamed channel means. */
import { JoinRoom, type RoomPeer } from '@talkgroup/protocol';
import type { ChannelSummary } from '../../channels/store.ts';
import type { Concern, RealtimeContext, TalkSocket } from '../context.ts';
import type { PresenceWrite } from '../../presence/group-commit.ts';
import { channelRoom, mapRoom, peerRoom } from '../room-names.ts';
import { parse, SocketInputError } from '../socket-tasks.ts';

/** The Socket.IO rooms a socket is in while in a channel; the map room only for those who may see the map. */
function roomsOf(socket: TalkSocket, room: string, channelId: number): string[] {
  const rooms = [channelRoom(room), peerRoom(channelId, socket.id)];
  if (socket.data.role === 'admin' || socket.data.mapRight) rooms.push(mapRoom(room));
  return rooms;
}

export type LeaveReason = 'leave' | 'disconnect' | 'evicted';

/**
 * Presence writes of each socket, in order, committed with the other writes of the moment (presence/group-commit.ts):
 * a crowd's joins share their commits, and no socket's signalling waits behind another's writes. Whatever
 * reads or removes the socket's row waits for them first (`presenceSettled`).
 */
const presenceWrites = new WeakMap<TalkSocket, Promise<void>>();

export function afterPresence(socket: TalkSocket, ctx: RealtimeContext, write: PresenceWrite): Promise<void> {
  const previous = presenceWrites.get(socket) ?? Promise.resolve();
  const next = previous
    .then(() => ctx.presenceWrites.write(write))
    .catch((error) => ctx.log.error({ err: error }, 'could not write a presence change'));
  presenceWrites.set(socket, next);
  return next;
}

/** Resolves once the socket's presence writes so far are done. */
export function presenceSettled(socket: TalkSocket): Promise<void> {
  return presenceWrites.get(socket) ?? Promise.resolve();
}

/** Out of the room it is in: the others see it go, its talk burst ends, the log says it left. */
export async function leaveRoom(socket: TalkSocket, ctx: RealtimeContext, reason: LeaveReason): Promise<void> {
  await presenceSettled(socket);
  const { room, channelId, userId } = socket.data;
  if (!room || channelId === null) return;
  socket.to(channelRoom(room)).emit('user_exit', { id: socket.id });
  socket.data.room = null;
  socket.data.channelId = null;
  if (reason !== 'disconnect') {
    await Promise.all(roomsOf(socket, room, channelId).map((name) => socket.leave(name)));
    await ctx.services.presence.setChannel(socket.id, null);
  }
  await ctx.floor.free(
    socket.id,
    room,
    channelId,
    reason === 'disconnect' ? undefined : reason === 'evicted' ? 'revoked' : 'left',
  );
  await ctx.endTalkOnLeave(socket, room, channelId);
  await ctx.services.activities.record('channel_leave', { userId, channelId });
  if (reason === 'evicted') ctx.publishStatus(userId, { alsoRooms: [room] });
}

/** The channel was renamed: same channel, new room key. Peers stay connected; pushes follow. */
export async function followRename(socket: TalkSocket, channel: ChannelSummary): Promise<void> {
  const { room, channelId } = socket.data;
  if (!room || channelId !== channel.id) return;
  await Promise.all([socket.leave(channelRoom(room)), socket.leave(mapRoom(room))]);
  await socket.join(roomsOf(socket, channel.rtcSession, channel.id));
  socket.data.room = channel.rtcSession;
}

export const rooms: Concern = (socket, scope) => {
  const { services, io } = scope;
  const { userId } = socket.data;

  scope.on('join_room', async (payload) => {
    const { room } = parse(JoinRoom, payload, 'join_room');
    const found = await services.channels.byRtcSession(room);
    if (!found) throw new SocketInputError(`join_room: there is no channel with the room "${room}".`);
    // One query for the membership and the channel as it is now (requireReader takes two).
    const { channel } = await services.access.requireWriter(socket.data, found.id);
    const rejoin = socket.data.room === room && socket.data.channelId === channel.id;
    if (socket.data.room && !rejoin) await leaveRoom(socket, scope, 'leave');

    socket.data.room = room;
    socket.data.channelId = channel.id;
    if (!rejoin) {
      // The presence row is written before the join is answered (a client may then ask HTTP calls about its
      // socket), committed with the other joins of the moment; the log entry and the status push follow it.
      await afterPresence(socket, scope, async (trx) => {
        if (socket.data.channelId !== channel.id) return undefined;
        await services.presence.place(socket.id, userId, scope.instanceId, channel.id, trx);
        const joined = { userId, channelId: channel.id, channelName: channel.name };
        const activity = await services.activities.recordWith(trx, 'channel_join', joined);
        return () => {
          services.activities.announce(activity);
          scope.publishStatus(userId, { alsoRooms: [room] });
        };
      });
    }
    await socket.join(roomsOf(socket, room, channel.id));
    // Joined first, listed second: of two sockets joining at once, at least one sees the other.
    const peers: RoomPeer[] = (await io.in(channelRoom(room)).fetchSockets())
      .filter((other) => other.id !== socket.id)
      .map((other) => ({ id: other.id, name: other.data.name, userId: other.data.userId }));
    // The peer list once for a client that asked for one push per change, under both names for the spec's.
    socket.emit('all_users', peers);
    if (!socket.data.pushesOnce) socket.emit('usersInThisRoom', peers);
    if (rejoin) return;
    socket.to(channelRoom(room)).emit('user joined', { id: socket.id, name: socket.data.name, userId });
  });

  // Whatever room the client names: a socket is in one room at most, and a client that missed a rename
  // still names the old key.
  scope.on('leave_room', async () => {
    const { room } = scope.requireRoom('leave_room');
    await leaveRoom(socket, scope, 'leave');
    scope.publishStatus(userId, { alsoRooms: [room] });
  });
};
