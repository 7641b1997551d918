/**
 * Health for operators and load balancers: GET /healthz says the process is up (no dependency asked);
 * GET /readyz says whether it can serve (the database answers, Redis when REDIS_URL is set, and one media
 * server at least when JANUS_URL is set), 503 if not, within about two seconds whatever they do.
 *
 * To anyone, /readyz says ready or not and nothing else (`{ success, ready }`): a load balancer needs no more,
 * and the addresses of the internal Janus and TURN servers and their errors are a map for an attacker. The
 * details (each part's state, each media server with its rooms and last error, each TURN server probed: a TURN
 * server down is reported, not a reason for 503) go to whoever gives the metrics token
 * (`Authorization: Bearer <METRICS_TOKEN>`) or asks from this machine: the address as TRUST_PROXY reads it, every
 * hop of it loopback, and, when no proxy is trusted, no forwarding header (a reverse proxy on this machine that
 * TRUST_PROXY does not name would otherwise make every client look local). /health stays as it was for
 * existing monitors.
 */
import { isIP } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { OpenedDatabase } from '../db/open.ts';
import type { MediaServerHealth } from '../janus/backends.ts';
import { sameSecret } from '../process/metrics.ts';
import type { RedisState } from '../realtime/redis.ts';
import type { TurnHealth } from './turn-probe.ts';

export interface ReadinessSources {
  redisState: () => Promise<RedisState>;
  mediaHealth: () => MediaServerHealth[] | null;
  turnHealth: () => Promise<TurnHealth[]>;
  /** METRICS_TOKEN: given as a Bearer token, it opens the details. */
  metricsToken: string | undefined;
}

/** 127.0.0.0/8, ::1, and IPv4 loopback written as IPv6. */
export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
  if (isIP(v4) === 4) return v4.startsWith('127.');
  return address === '::1';
}

/** Whether this request may read the details: the metrics token, or a request made on this machine. */
function readsDetails(request: FastifyRequest, metricsToken: string | undefined): boolean {
  const header = request.headers.authorization ?? '';
  if (metricsToken && header.startsWith('Bearer ') && sameSecret(header.slice('Bearer '.length), metricsToken))
    return true;
  // Fastify's `ips` (with a trusted proxy): the socket's address and each trusted hop's, the client's last.
  const hops = request.ips ?? [request.socket.remoteAddress];
  if (!hops.every((address) => isLoopback(address)) || !isLoopback(request.ip)) return false;
  const forwarded = request.headers['x-forwarded-for'] !== undefined || request.headers.forwarded !== undefined;
  return request.ips !== undefined || !forwarded;
}

export function healthRoutes(app: FastifyInstance, database: OpenedDatabase, sources: ReadinessSources) {
  const { redisState, mediaHealth, turnHealth, metricsToken } = sources;
  app.get('/health', async (_req, reply) => {
    const ok = await database.ping();
    return reply.status(ok ? 200 : 503).send({ success: ok, database: { dialect: database.dialect, ok } });
  });

  app.get('/healthz', async () => ({ success: true }));

  app.get('/readyz', async (request, reply) => {
    const details = readsDetails(request, metricsToken);
    // The TURN probe says nothing of readiness: only the details ask it.
    const [databaseOk, redis, turn] = await Promise.all([
      database.ping(),
      redisState(),
      details ? turnHealth() : Promise.resolve([]),
    ]);
    const servers = mediaHealth();
    // A media server down is not a reason while another can take its channels.
    const mediaOk = servers === null || servers.some((server) => server.reachable);
    const ok = databaseOk && redis.ok && mediaOk;
    reply.header('cache-control', 'no-store');
    if (!details) return reply.status(ok ? 200 : 503).send({ success: ok, ready: ok });
    return reply.status(ok ? 200 : 503).send({
      success: ok,
      ready: ok,
      database: { dialect: database.dialect, ok: databaseOk, state: databaseOk ? 'ready' : 'unreachable' },
      redis: { ...redis, state: redis.used ? (redis.ok ? 'ready' : 'unreachable') : 'not used' },
      media: {
        used: servers !== null,
        ok: mediaOk,
        state: servers === null ? 'not used' : mediaOk ? 'ready' : 'unreachable',
        servers: servers ?? [],
      },
      turn: {
        used: turn.length > 0,
        ok: turn.every((server) => server.reachable),
        state: turn.length === 0 ? 'not used' : turn.every((server) => server.reachable) ? 'ready' : 'unreachable',
        servers: turn,
      },
    });
  });
}
