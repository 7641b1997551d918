/**
 * Whether each TURN server (TURN_URLS) answers, for /readyz: a STUN Binding request (RFC 8489) over UDP to a
 * `turn:` address, a TCP connection for `?transport=tcp`, a TLS handshake for `turns:`. A Binding needs no
 * credential, so nothing secret leaves the server. Answers are kept a few seconds: a load balancer polling
 * /readyz does not make one probe per poll.
 */
import { randomBytes } from 'node:crypto';
import { createSocket } from 'node:dgram';
import { connect as tcpConnect } from 'node:net';

export interface TurnHealth {
  url: string;
  reachable: boolean;
  /** Why not, when it is not. */
  error?: string;
}

const PROBE_TIMEOUT_MS = 1500;
const KEEP_MS = 5000;
const MAGIC_COOKIE = 0x2112a442;
const BINDING_REQUEST = 0x0001;
const BINDING_SUCCESS = 0x0101;

interface Target {
  host: string;
  port: number;
  transport: 'udp' | 'tcp' | 'tls';
}

/** turn:host[:port][?transport=udp|tcp] and turns:host[:port][?transport=tcp]; default ports 3478 and 5349. */
export function turnTarget(url: string): Target | null {
  const match = /^(turns?):(\[[^\]]+\]|[^:?]+)(?::(\d+))?(?:\?transport=(udp|tcp))?$/i.exec(url.trim());
  if (!match) return null;
  const secure = match[1].toLowerCase() === 'turns';
  const host = match[2].replace(/^\[|\]$/g, '');
  const port = match[3] ? Number(match[3]) : secure ? 5349 : 3478;
  const transport = secure ? 'tls' : match[4]?.toLowerCase() === 'tcp' ? 'tcp' : 'udp';
  return { host, port, transport };
}

function stunBinding(target: Target): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = createSocket(target.host.includes(':') ? 'udp6' : 'udp4');
    const id = randomBytes(12);
    const request = Buffer.alloc(20);
    request.writeUInt16BE(BINDING_REQUEST, 0);
    request.writeUInt16BE(0, 2);
    request.writeUInt32BE(MAGIC_COOKIE, 4);
    id.copy(request, 8);
    const done = (error?: Error) => {
      clearTimeout(timer);
      socket.close();
      if (error) reject(error);
      else resolve();
    };
    const timer = setTimeout(() => done(new Error('no answer to a STUN binding request')), PROBE_TIMEOUT_MS);
    socket.on('error', (error) => done(error));
    socket.on('message', (message) => {
      if (message.length < 20 || !message.subarray(8, 20).equals(id)) return;
      if (message.readUInt16BE(0) === BINDING_SUCCESS) done();
      else done(new Error('the STUN binding request was refused'));
    });
    socket.send(request, target.port, target.host);
  });
}

async function connects(target: Target): Promise<void> {
  // node:tls only for a turns: server, when it is probed: a server without one never loads it.
  const tls = target.transport === 'tls' ? await import('node:tls') : undefined;
  return new Promise((resolve, reject) => {
    const socket = tls
      ? tls.connect({ host: target.host, port: target.port, servername: target.host })
      : tcpConnect({ host: target.host, port: target.port });
    const done = (error?: Error) => {
      clearTimeout(timer);
      socket.destroy();
      if (error) reject(error);
      else resolve();
    };
    const timer = setTimeout(() => done(new Error('no answer to the connection')), PROBE_TIMEOUT_MS);
    socket.once(target.transport === 'tls' ? 'secureConnect' : 'connect', () => done());
    socket.once('error', (error) => done(error));
  });
}

async function probe(url: string): Promise<TurnHealth> {
  const target = turnTarget(url);
  if (!target) return { url, reachable: false, error: 'not a turn: or turns: address' };
  try {
    await (target.transport === 'udp' ? stunBinding(target) : connects(target));
    return { url, reachable: true };
  } catch (error) {
    return { url, reachable: false, error: error instanceof Error ? error.message : String(error) };
  }
}

/** The probes of these TURN servers, each answer kept KEEP_MS. */
export function turnProbe(urls: string[]): () => Promise<TurnHealth[]> {
  let last: { at: number; answer: Promise<TurnHealth[]> } | null = null;
  return () => {
    const now = Date.now();
    if (!last || now - last.at > KEEP_MS) last = { at: now, answer: Promise.all(urls.map(probe)) };
    return last.answer;
  };
}
