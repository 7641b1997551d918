/**
 * Connection floods: an address that opens more than CONNECTION_RATE_PER_MINUTE new Socket.IO connections a
 * minute is refused (403 with a sentence) until its minute is over, while every other address keeps
 * connecting. Checked at Engine.IO's handshake, before the token is read, so a flood costs no database work.
 * The address is the client's as TRUST_PROXY says (the reverse proxy's X-Forwarded-For), like Fastify's
 * request.ip. Counted in this process's memory: a flood loads the instance it reaches, and the gate must keep
 * working when Redis is away (every client reconnects then).
 */
import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';
import type { Config } from '../config.ts';

export const CONNECTION_REFUSED = 'Too many connections from your address: wait a minute and try again.';

const WINDOW_MS = 60_000;

/** Fastify's reading of trustProxy (a hop count is already a function in config.ts). */
function trustOf(trustProxy: Config['trustProxy']): (address: string, hop: number) => boolean {
  if (typeof trustProxy === 'function') return trustProxy;
  if (trustProxy === true) return () => true;
  if (trustProxy === false) return () => false;
  return proxyAddr.compile(trustProxy);
}

export function connectionGate(config: Pick<Config, 'trustProxy' | 'connectionRatePerMinute'>) {
  const trust = trustOf(config.trustProxy);
  const windows = new Map<string, { count: number; endsAt: number }>();
  let sweptAt = Date.now();

  function sweep(now: number) {
    if (now - sweptAt < WINDOW_MS) return;
    sweptAt = now;
    for (const [address, window] of windows) if (window.endsAt <= now) windows.delete(address);
  }

  return {
    /** Engine.IO's allowRequest: called for each new connection (not for the packets of an open one). */
    allowRequest(request: IncomingMessage, callback: (message: string | null | undefined, allowed: boolean) => void) {
      const now = Date.now();
      sweep(now);
      const address = proxyAddr(request, trust);
      let window = windows.get(address);
      if (!window || window.endsAt <= now) {
        window = { count: 0, endsAt: now + WINDOW_MS };
        windows.set(address, window);
      }
      window.count += 1;
      if (window.count > config.connectionRatePerMinute) callback(CONNECTION_REFUSED, false);
      else callback(null, true);
    },
  };
}
