/**
 * Health for operators and load balancers: GET /healthz says the process is up (no dependency asked);
 * GET /readyz says whether it can serve (the database answers, and Redis when REDIS_URL is set), 503 if
 * not, within about two seconds whatever they do. /health stays as it was for existing monitors.
 */
import type { FastifyInstance } from 'fastify';
import type { OpenedDatabase } from '../db/open.ts';

/** Redis as /readyz reports it: not used without REDIS_URL (nothing to wait for), else whether it answers. */
export interface RedisState {
  used: boolean;
  ok: boolean;
}

export function healthRoutes(app: FastifyInstance, database: OpenedDatabase, redisState: () => Promise<RedisState>) {
  app.get('/health', async (_req, reply) => {
    const ok = await database.ping();
    return reply.status(ok ? 200 : 503).send({ success: ok, database: { dialect: database.dialect, ok } });
  });

  app.get('/healthz', async () => ({ success: true }));

  app.get('/readyz', async (_req, reply) => {
    const [databaseOk, redis] = await Promise.all([database.ping(), redisState()]);
    const ok = databaseOk && redis.ok;
    return reply.status(ok ? 200 : 503).send({
      success: ok,
      database: { dialect: database.dialect, ok: databaseOk, state: databaseOk ? 'ready' : 'unreachable' },
      redis: { ...redis, state: redis.used ? (redis.ok ? 'ready' : 'unreachable') : 'not used' },
    });
  });
}
