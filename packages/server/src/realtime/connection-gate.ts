/**
 * Connection floods and a full server. An address that opens more than CONNECTION_RATE_PER_MINUTE new
 * Socket.IO connections a minute is refused until its minute is over, while every other address keeps
 * connecting; an instance that holds MAX_CONNECTIONS sockets refuses new ones. Both are refused at the
 * namespace, before the token is read (no database work), with `connect_error` carrying `{ code, message }`
 * (`too_many_connections`, `server_busy`), the message in the language the browser asks for, so that a client
 * can say why and tell it from a bad token. Past twice the rate an address is refused earlier, before
 * Engine.IO opens anything (no session, no WebSocket object, no timer of its own), so that a flood that
 * ignores the refusals costs even less; that refusal still reads as the others do (issue 47: a bare 400 was
 * all a browser saw, nothing it could tell from a broken server). The answer is written once per language and
 * code and sent as it is: to a WebSocket handshake, the upgrade, Engine.IO's `open` and Socket.IO's
 * CONNECT_ERROR with `{ code, message }` in three frames and a close; to a long-polling handshake, the same
 * two packets in one 200 answer. The client's `connect_error` then carries the same `data` as a namespace
 * refusal, whatever the transport.
 * The address is the client's as TRUST_PROXY says (the reverse proxy's X-Forwarded-For), like Fastify's
 * request.ip. Counted in this process's memory: a flood loads the instance it reaches, and the gate must keep
 * working when Redis is away.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import proxyAddr from '@fastify/proxy-addr';
import type { ServerLanguage, ServerMessageCode } from '@talkgroup/protocol';
import type { Socket } from 'socket.io';
import type { Config } from '../config/config.ts';
import { languageOf, serverText } from '../http/messages.ts';

export const CONNECTION_REFUSED = serverText('too_many_connections');

const WINDOW_MS = 60_000;
/** A refused socket's connection is closed this long after the refusal has been sent. */
const CLOSE_REFUSED_AFTER_MS = 1000;

/** A socket refused before Engine.IO took it is closed this long after its refusal, if its client did not. */
const CLOSE_UNTAKEN_AFTER_MS = 1000;
const WEBSOCKET_GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';

/**
 * Engine.IO's `open` packet and Socket.IO's CONNECT_ERROR for the main namespace, as a namespace refusal sends
 * them. The session id names no session: a client that polls with it is told it is unknown.
 */
function refusalPackets(code: ServerMessageCode, language: ServerLanguage): [string, string] {
  const message = serverText(code, {}, language);
  const open = { sid: 'refused', upgrades: [], pingInterval: 25_000, pingTimeout: 20_000, maxPayload: 1_000_000 };
  return [`0${JSON.stringify(open)}`, `44${JSON.stringify({ message, data: { code, message } })}`];
}

/** A WebSocket frame from the server (never masked): text, or close with its status code. */
function frame(opcode: number, payload: Buffer): Buffer {
  const length = payload.length;
  const header =
    length < 126 ? Buffer.from([0x80 | opcode, length]) : Buffer.from([0x80 | opcode, 126, length >> 8, length & 0xff]);
  return Buffer.concat([header, payload]);
}

const refusalsSent = new Map<string, { frames: Buffer; polling: string }>();

/** The bytes of a refusal, made once per code and language. */
function refusalBytes(code: ServerMessageCode, language: ServerLanguage) {
  const key = `${code}:${language}`;
  let bytes = refusalsSent.get(key);
  if (!bytes) {
    const [open, error] = refusalPackets(code, language);
    const close = Buffer.from([0x03, 0xf0]); // 1008: policy violation
    bytes = {
      frames: Buffer.concat([frame(0x1, Buffer.from(open)), frame(0x1, Buffer.from(error)), frame(0x8, close)]),
      polling: `${open}\x1e${error}`,
    };
    refusalsSent.set(key, bytes);
  }
  return bytes;
}

/** Answers a new connection with a refusal that socket.io-client reads as `connect_error` `{ code, message }`. */
function refuseHandshake(request: IncomingMessage, response: ServerResponse, code: ServerMessageCode): void {
  const bytes = refusalBytes(code, languageOf(request));
  if (request.headers.upgrade?.toLowerCase() !== 'websocket') {
    response.writeHead(200, { 'content-type': 'text/plain; charset=UTF-8', 'cache-control': 'no-store' });
    response.end(bytes.polling);
    return;
  }
  const socket: Duplex = request.socket;
  const key = request.headers['sec-websocket-key'];
  if (typeof key !== 'string' || request.headers['sec-websocket-version'] !== '13') {
    socket.destroy();
    return;
  }
  const accept = createHash('sha1')
    .update(key + WEBSOCKET_GUID)
    .digest('base64');
  socket.on('error', () => {});
  socket.resume();
  socket.end(
    Buffer.concat([
      Buffer.from(
        `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`,
      ),
      bytes.frames,
    ]),
  );
  // A client that never closes its side holds nothing here for long.
  setTimeout(() => socket.destroy(), CLOSE_UNTAKEN_AFTER_MS).unref();
}

/** A refusal a client can read: `connect_error`'s `data` is `{ code, message }`. */
export function refusal(code: ServerMessageCode, request: Pick<IncomingMessage, 'headers'>): Error {
  const message = serverText(code, {}, languageOf(request));
  return Object.assign(new Error(message), { data: { code, message } });
}

/** Fastify's reading of trustProxy (a hop count is already a function in config.ts). */
function trustOf(trustProxy: Config['trustProxy']): (address: string, hop: number) => boolean {
  if (typeof trustProxy === 'function') return trustProxy;
  if (trustProxy === true) return () => true;
  if (trustProxy === false) return () => false;
  return proxyAddr.compile(trustProxy);
}

export function connectionGate(config: Pick<Config, 'trustProxy' | 'connectionRatePerMinute' | 'maxConnections'>) {
  const trust = trustOf(config.trustProxy);
  /** Per address, in the current minute: Engine.IO handshakes and namespace connections. */
  const windows = new Map<string, { handshakes: number; sockets: number; endsAt: number }>();
  let sweptAt = Date.now();

  function windowOf(request: IncomingMessage) {
    const now = Date.now();
    if (now - sweptAt >= WINDOW_MS) {
      sweptAt = now;
      for (const [address, window] of windows) if (window.endsAt <= now) windows.delete(address);
    }
    const address = proxyAddr(request, trust);
    let window = windows.get(address);
    if (!window || window.endsAt <= now) {
      window = { handshakes: 0, sockets: 0, endsAt: now + WINDOW_MS };
      windows.set(address, window);
    }
    return window;
  }

  return {
    /**
     * Engine.IO's middleware (`io.engine.use`): each new connection (a handshake: no session id yet) is counted;
     * past twice the rate it is answered here and goes no further. The packets of an open one pass.
     */
    handshake(request: IncomingMessage, response: ServerResponse, next: (error?: Error) => void) {
      if ((request as IncomingMessage & { _query?: { sid?: string } })._query?.sid) return next();
      const window = windowOf(request);
      window.handshakes += 1;
      if (window.handshakes > 2 * config.connectionRatePerMinute)
        return refuseHandshake(request, response, 'too_many_connections');
      next();
    },

    /** The namespace's first middleware: `held` is the number of sockets this instance holds now. */
    admit(socket: Socket, held: number): Error | undefined {
      const request = socket.request;
      const window = windowOf(request);
      window.sockets += 1;
      const code =
        window.sockets > config.connectionRatePerMinute
          ? 'too_many_connections'
          : held >= config.maxConnections
            ? 'server_busy'
            : undefined;
      if (!code) return undefined;
      // The refusal is sent first; then the connection goes, so that refused clients hold nothing here.
      setTimeout(() => socket.conn.close(), CLOSE_REFUSED_AFTER_MS).unref();
      return refusal(code, request);
    },
  };
}
