/**
 * Connection floods and a full server. An address that opens more than CONNECTION_RATE_PER_MINUTE new
 * Socket.IO connections a minute is refused until its minute is over, while every other address keeps
 * connecting; an instance that holds MAX_CONNECTIONS sockets refuses new ones. Both are refused at the
 * namespace, before the token is read (no database work), with `connect_error` carrying `{ code, message }`
 * (`too_many_connections`, `server_busy`), the message in the language the browser asks for, so that a client
 * can say why and tell it from a bad token. Past twice the rate an address is refused earlier, at Engine.IO's
 * handshake (403 with the same sentence), so that a flood that ignores the refusals costs even less.
 * The address is the client's as TRUST_PROXY says (the reverse proxy's X-Forwarded-For), like Fastify's
 * request.ip. Counted in this process's memory: a flood loads the instance it reaches, and the gate must keep
 * working when Redis is away.
 */
import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';
import type { ServerMessageCode } from '@talkgroup/protocol';
import type { Socket } from 'socket.io';
import type { Config } from '../config.ts';
import { languageOf, serverText } from '../http/messages.ts';

export const CONNECTION_REFUSED = serverText('too_many_connections');

const WINDOW_MS = 60_000;
/** A refused socket's connection is closed this long after the refusal has been sent. */
const CLOSE_REFUSED_AFTER_MS = 1000;

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
    /** Engine.IO's allowRequest: called for each new connection (not for the packets of an open one). */
    allowRequest(request: IncomingMessage, callback: (message: string | null | undefined, allowed: boolean) => void) {
      const window = windowOf(request);
      window.handshakes += 1;
      if (window.handshakes > 2 * config.connectionRatePerMinute) callback(CONNECTION_REFUSED, false);
      else callback(null, true);
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
