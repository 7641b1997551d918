/**
 * Watching channels from outside their rooms (the members' channel list, issue 13): `watch_channels` names
 * the channels a socket wants to hear about; it is put in their lobby rooms (those it may read, the others
 * are left out) and hears who starts and stops talking there (onMicStateChanged). A new call replaces the
 * last one.
 */
import { WatchChannels } from '@talkgroup/protocol';
import { lobbyRoom } from '../../sockets/room-names.ts';
import type { Concern } from '../context.ts';
import { parse } from '../socket-tasks.ts';

export const lobby: Concern = (socket, scope) => {
  let watched: string[] = [];
  scope.answer('watch_channels', async (payload) => {
    const { channelIds } = parse(WatchChannels, payload, 'watch_channels');
    const allowed: number[] = [];
    for (const channelId of new Set(channelIds)) {
      if (await scope.services.access.may(socket.data, channelId, 'channel.read')) allowed.push(channelId);
    }
    const rooms = allowed.map(lobbyRoom);
    for (const room of watched) if (!rooms.includes(room)) socket.leave(room);
    await socket.join(rooms);
    watched = rooms;
    return { success: true, channelIds: allowed };
  });
};
