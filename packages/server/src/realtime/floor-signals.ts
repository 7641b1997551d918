/**
 * The floor's pushes (floor/ decides, knows no socket): who talks now, a free floor and a floor taken back,
 * and a mic that went on or off, each to the rooms that must hear it.
 */
import type { FloorSignals } from '../floor/grants.ts';
import type { TalkDeps } from '../floor/push-to-talk.ts';
import { channelRoom, lobbyRoom, peerRoom } from '../sockets/room-names.ts';
import type { EmitTo } from './io.ts';

/** `aliasOf`: the talker's functional aliases (issue 59), named in floor_taken. */
export function floorSignals(emitTo: EmitTo, aliasOf?: (userId: number) => string | undefined): FloorSignals {
  return {
    taken: (room, claim) => {
      const alias = aliasOf?.(claim.userId);
      emitTo([channelRoom(room)], 'floor_taken', {
        room,
        userId: claim.userId,
        name: claim.name,
        since: claim.since,
        ...(alias ? { alias } : {}),
      });
    },
    idle: (room) => emitTo([channelRoom(room)], 'floor_idle', { room }),
    revoked: (channelId, socketId, room, reason, by) =>
      emitTo([peerRoom(channelId, socketId)], 'floor_revoked', { room, reason, ...(by ? { by } : {}) }),
    // Issue 59: the floor queue.
    queue: (room, queue) =>
      emitTo([channelRoom(room)], 'floor_queue', {
        room,
        queue: queue.map(({ userId, name, priority, since }) => ({ userId, name, priority, since })),
      }),
    position: (channelId, socketId, room, position) =>
      emitTo([peerRoom(channelId, socketId)], 'floor_queue_position', { room, position }),
    offered: (channelId, socketId, room, grantId, acceptMs, until) =>
      emitTo([peerRoom(channelId, socketId)], 'floor_granted', { room, reason: 'queue', grantId, acceptMs, until }),
  };
}

/** onMicStateChanged to the channel's room and to its lobby (the channel lists). */
export function micShown(emitTo: EmitTo): TalkDeps['showMic'] {
  return (room, channelId, change) =>
    emitTo([channelRoom(room), lobbyRoom(channelId)], 'onMicStateChanged', {
      id: change.socketId,
      userId: change.userId,
      name: change.name,
      micState: change.on,
      room,
    });
}
