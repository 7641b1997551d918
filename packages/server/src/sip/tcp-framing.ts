/**
 * SIP over TCP (issue 57): each connection's stream cut into messages, with what a connection may hold bounded.
 * At most TCP_PER_ADDRESS connections from one address and TCP_TOTAL in all (past them, a new one is closed at
 * once); a connection that completes no message within its idle time (30 s) while no call uses it is closed; a
 * message past MAX_MESSAGE is answered 413 when it is a request that can be, and its connection closed.
 */
import type net from 'node:net';
import { Core } from 'sip.js';
import type { Flow } from './flow.ts';
import { kindOf, MAX_MESSAGE, parse, tooManyHeaderLines } from './message-checks.ts';

/** TCP connections: at most this many from one address, and this many in all. */
export const TCP_PER_ADDRESS = 8;
export const TCP_TOTAL = 2000;
export const TCP_IDLE_MS = 30_000;

export interface TcpDeps {
  /** How long a connection may go without completing a message while no call uses it. */
  idleMs: number;
  parserLog: Core.Logger;
  /** A whole message from a connection, and the SIP port it came to. */
  message(text: string, flow: Flow, port: number): void;
  /** Answers a request without a transaction (413, 400). */
  reply(flow: Flow, request: Core.IncomingRequestMessage, statusCode: number): void;
  /** Whether a call uses this flow (then it is not closed when idle). */
  inCall(flow: Flow): boolean;
  opened(flow: Flow, socket: net.Socket): void;
  closed(flow: Flow): void;
  fault(error: unknown, context?: Record<string, unknown>): void;
  port(): number;
}

/**
 * A TCP connection's stream, cut into messages: the header block parsed first (SIP.js) for the body's
 * Content-Length. A message past MAX_MESSAGE is answered 413 when it is a request that can be, and the
 * connection closed; so is one whose head cannot be read. A connection that completes no message for
 * TCP_IDLE_MS while no call uses it is closed.
 */
function connection(socket: net.Socket, deps: TcpDeps, counts: { all: number; perAddress: Map<string, number> }): void {
  const ip = socket.remoteAddress ?? '';
  const flow: Flow = { transport: 'tcp', ip, port: socket.remotePort ?? 0 };
  const perAddress = counts.perAddress.get(ip) ?? 0;
  if (!ip || perAddress >= TCP_PER_ADDRESS || counts.all >= TCP_TOTAL) {
    socket.on('error', () => {});
    socket.destroy();
    return;
  }
  counts.perAddress.set(ip, perAddress + 1);
  counts.all++;
  deps.opened(flow, socket);
  let pending = Buffer.alloc(0);
  socket.setNoDelay(true);
  let idle: NodeJS.Timeout | undefined;
  const armIdle = () => {
    clearTimeout(idle);
    idle = setTimeout(() => {
      if (deps.inCall(flow)) armIdle();
      else socket.destroy();
    }, deps.idleMs);
    idle.unref();
  };
  armIdle();

  /** Past the size a message may have: a 413 if the head says it is a request, then the connection closes. */
  let closing = false;
  const tooLarge = (head: Core.IncomingMessage | undefined) => {
    if (head instanceof Core.IncomingRequestMessage && head.method !== 'ACK') deps.reply(flow, head, 413);
    closing = true;
    pending = Buffer.alloc(0);
    socket.end();
    setTimeout(() => socket.destroy(), 1000).unref();
  };

  const consume = () => {
    for (;;) {
      // CRLF keep-alives between messages.
      let start = 0;
      while (start + 1 < pending.length && pending[start] === 13 && pending[start + 1] === 10) start += 2;
      if (start > 0) pending = pending.subarray(start);
      const end = pending.indexOf('\r\n\r\n');
      if (end < 0) {
        if (pending.length > MAX_MESSAGE) {
          const text = pending.subarray(0, 8192).toString('utf8');
          const partial =
            kindOf(text) === 'request'
              ? parse(`${text.slice(0, text.lastIndexOf('\r\n'))}\r\n\r\n`, deps.parserLog)
              : undefined;
          tooLarge(partial);
        }
        return;
      }
      const headText = pending.subarray(0, end + 4).toString('utf8');
      if (!kindOf(headText) || end + 4 > MAX_MESSAGE || tooManyHeaderLines(headText)) {
        socket.destroy();
        return;
      }
      const head = parse(headText, deps.parserLog);
      if (!head) {
        socket.destroy();
        return;
      }
      const declared = head.getHeader('content-length');
      const length = declared === undefined ? 0 : Number(declared);
      if (!Number.isInteger(length) || length < 0) {
        if (head instanceof Core.IncomingRequestMessage) deps.reply(flow, head, 400);
        socket.destroy();
        return;
      }
      if (end + 4 + length > MAX_MESSAGE) {
        tooLarge(head);
        return;
      }
      if (pending.length < end + 4 + length) return;
      const whole = pending.subarray(0, end + 4 + length).toString('utf8');
      pending = pending.subarray(end + 4 + length);
      armIdle();
      deps.message(whole, flow, deps.port());
      if (socket.destroyed) return;
    }
  };

  socket.on('data', (chunk) => {
    if (closing) return;
    try {
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
      consume();
    } catch (error) {
      deps.fault(error, { transport: 'tcp', address: ip });
      socket.destroy();
    }
  });
  socket.on('error', () => {});
  socket.on('close', () => {
    clearTimeout(idle);
    counts.all--;
    const left = (counts.perAddress.get(ip) ?? 1) - 1;
    if (left > 0) counts.perAddress.set(ip, left);
    else counts.perAddress.delete(ip);
    deps.closed(flow);
  });
}

/** The connection listener of the SIP port's TCP server. */
export function tcpConnections(deps: TcpDeps): (socket: net.Socket) => void {
  const counts = { all: 0, perAddress: new Map<string, number>() };
  return (socket) => connection(socket, deps, counts);
}
