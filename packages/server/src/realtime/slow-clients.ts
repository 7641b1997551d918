/**
 * Clients that stop reading (a phone in a tunnel whose TCP connection stays half alive, a stuck tab): what the
 * server pushes to them waits in memory, in Engine.IO's write buffer and then the WebSocket's send buffer.
 * Past MAX_SOCKET_BUFFER_BYTES the connection is cut: the backlog is freed at once, and the client, once it
 * reads again, finds its connection gone and comes back by itself (reconnect, rejoin, fetch what it missed).
 * Other sockets of the room never wait for it: each has its own buffers. Checked on each packet sent, in
 * constant time: a running count of what was queued since the buffer last went out, plus the socket's
 * bufferedAmount.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Io } from './io.ts';

/** The parts of Engine.IO's connection (engine.io's Socket and its transport) read here. */
export interface EngineConnection {
  id: string;
  writeBuffer?: Array<{ data?: unknown }>;
  transport?: { name?: string; socket?: { bufferedAmount?: number; terminate?: () => void } };
  on(event: 'packetCreate', listener: (packet: { data?: unknown }) => void): void;
  on(event: 'drain' | 'close', listener: () => void): void;
  close(discard?: boolean): void;
}

function sizeOf(data: unknown): number {
  if (typeof data === 'string') return data.length;
  if (data instanceof ArrayBuffer || ArrayBuffer.isView(data)) return data.byteLength;
  return 0;
}

/** What the WebSocket holds unsent (0 for long polling, whose backlog is the write buffer). */
function sendBuffer(conn: EngineConnection): number {
  const amount = conn.transport?.socket?.bufferedAmount;
  return typeof amount === 'number' ? amount : 0;
}

/** Bytes waiting to reach this client, counted the long way (tests and metrics). */
export function backlogBytes(conn: EngineConnection): number {
  let bytes = 0;
  for (const packet of conn.writeBuffer ?? []) bytes += sizeOf(packet.data);
  return bytes + sendBuffer(conn);
}

export function watchSlowClients(io: Io, maxBytes: number, log: FastifyBaseLogger): void {
  io.engine.on('connection', (conn: EngineConnection) => {
    /** Queued since the write buffer last went to the transport. */
    let queued = 0;
    let cut = false;
    conn.on('drain', () => {
      queued = 0;
    });
    conn.on('packetCreate', (packet) => {
      queued += sizeOf(packet.data);
      if (cut || queued + sendBuffer(conn) <= maxBytes) return;
      cut = true;
      log.warn({ engineId: conn.id, backlogBytes: queued + sendBuffer(conn) }, 'a client stopped reading: cut');
      // After the packet being queued: the connection is not torn down in the middle of Engine.IO's send.
      setImmediate(() => {
        // A WebSocket is torn down now (a close handshake would wait for a peer that does not read); a
        // long-polling connection drops its buffer and closes.
        const websocket = conn.transport?.socket;
        if (conn.transport?.name === 'websocket' && websocket?.terminate) websocket.terminate();
        else conn.close(true);
      });
    });
  });
}
