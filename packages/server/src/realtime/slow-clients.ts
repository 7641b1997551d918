/**
 * Clients that stop reading (a phone in a tunnel whose TCP connection stays half alive, a stuck tab): what the
 * server pushes to them waits in memory, in Engine.IO's write buffer and the WebSocket's send buffer. Past
 * MAX_SOCKET_BUFFER_BYTES the connection is cut: the backlog is freed at once, and the client, once it reads
 * again, finds its connection gone and comes back by itself (reconnect, rejoin, fetch what it missed). Other
 * sockets of the room never wait for it: each has its own buffers.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Io } from './context.ts';

/** How often the backlogs are read: between two checks a socket's backlog can grow by what one second pushes. */
export const SLOW_CLIENT_CHECK_MS = 500;

/** The parts of Engine.IO's connection read here (engine.io's Socket and its transport). */
interface EngineConnection {
  writeBuffer?: Array<{ data?: unknown }>;
  transport?: { name?: string; socket?: { bufferedAmount?: number; terminate?: () => void } };
  close(discard?: boolean): void;
}

function sizeOf(data: unknown): number {
  if (typeof data === 'string') return Buffer.byteLength(data);
  if (data instanceof ArrayBuffer || ArrayBuffer.isView(data)) return data.byteLength;
  return 0;
}

/** Bytes waiting to reach this client: packets not yet handed to the transport, and the socket's send buffer. */
export function backlogBytes(conn: EngineConnection): number {
  let bytes = 0;
  for (const packet of conn.writeBuffer ?? []) bytes += sizeOf(packet.data);
  const sending = conn.transport?.socket?.bufferedAmount;
  return bytes + (typeof sending === 'number' ? sending : 0);
}

export function watchSlowClients(io: Io, maxBytes: number, log: FastifyBaseLogger, onCut?: () => void): () => void {
  const timer = setInterval(() => {
    for (const socket of io.of('/').sockets.values()) {
      const conn = socket.conn as unknown as EngineConnection;
      const bytes = backlogBytes(conn);
      if (bytes <= maxBytes) continue;
      log.warn(
        { socketId: socket.id, userId: socket.data.userId, backlogBytes: bytes },
        'a client stopped reading: its connection is cut',
      );
      onCut?.();
      // A WebSocket is torn down now (a close handshake would wait for a peer that does not read); a
      // long-polling connection drops its buffer and closes.
      const websocket = conn.transport?.socket;
      if (conn.transport?.name === 'websocket' && websocket?.terminate) websocket.terminate();
      else conn.close(true);
    }
  }, SLOW_CLIENT_CHECK_MS);
  timer.unref();
  return () => clearInterval(timer);
}
