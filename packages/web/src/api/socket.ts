/**
 * Socket.IO client factory: the token travels in the handshake query (`?token=`, spec section 7), and the
 * events are typed by packages/protocol. Import this file only from lazily loaded pages (it pulls in
 * socket.io-client).
 */
import type { ClientToServerEvents, ServerToClientEvents } from '@talkgroup/protocol';
import { io, type ManagerOptions, type Socket, type SocketOptions } from 'socket.io-client';
import { getToken } from './session.ts';

export type TalkgroupSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

export function createSocket(
  options: Partial<ManagerOptions & SocketOptions> & { token?: string } = {},
): TalkgroupSocket {
  const { token = getToken() ?? '', ...rest } = options;
  return io({ path: '/socket.io', query: { token }, transports: ['websocket', 'polling'], ...rest });
}
