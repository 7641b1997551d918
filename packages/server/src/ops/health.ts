/**
 * Health for operators and load balancers: GET /healthz says the process is up (no dependency asked);
 * GET /readyz says whether it can serve (the database answers, Redis when REDIS_URL is set, and one media
 * server at least when JANUS_URL is set), 503 if not, within about two seconds whatever they do. It also
 * names each media server (reachable, the channel rooms this instance has on it, its last error) and each
 * TURN server (answers a STUN binding or a connection); a TURN server down is reported, not a reason for 503
 * (the voice still goes where a direct path exists). /health stays as it was for existing monitors.
 */
import type { FastifyInstance } from 'fastify';
import type { OpenedDatabase } from '../db/open.ts';
import type { MediaServerHealth } from '../realtime/media/janus/plane.ts';
import type { RedisState } from '../realtime/redis.ts';
import type { TurnHealth } from './turn-probe.ts';

export interface ReadinessSources {
  redisState: () => Promise<RedisState>;
  mediaHealth: () => MediaServerHealth[] | null;
  turnHealth: () => Promise<TurnHealth[]>;
}

export function healthRoutes(app: FastifyInstance, database: OpenedDatabase, sources: ReadinessSources) {
  const { redisState, mediaHealth, turnHealth } = sources;
  app.get('/health', async (_req, reply) => {
    const ok = await database.ping();
    return reply.status(ok ? 200 : 503).send({ success: ok, database: { dialect: database.dialect, ok } });
  });

  app.get('/healthz', async () => ({ success: true }));

  app.get('/readyz', async (_req, reply) => {
    const [databaseOk, redis, turn] = await Promise.all([database.ping(), redisState(), turnHealth()]);
    const servers = mediaHealth();
    // A media server down is not a reason while another can take its channels.
    const mediaOk = servers === null || servers.some((server) => server.reachable);
    const ok = databaseOk && redis.ok && mediaOk;
    return reply.status(ok ? 200 : 503).send({
      success: ok,
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
