/**
 * "The member's app is open" (issue 60: device status's `appOpen`, ambient listening's 409): a /talk page of the
 * member is connected, on any instance. The console or another page of the same account does not count: only
 * sockets tagged as /talk (realtime/handshake.ts's `isTalkPage`, or a `device_status` reported) do.
 */
import type { Io } from '../sockets/io.ts';
import { userRoom } from '../sockets/room-names.ts';

/** How many /talk pages of this member are connected now (the Redis adapter asks the other instances). */
export async function talkPagesOf(io: Io, userId: number): Promise<number> {
  const sockets = await io.in(userRoom(userId)).fetchSockets();
  return sockets.filter((socket) => socket.data.talkPage === true).length;
}
