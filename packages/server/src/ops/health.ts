/**
 * Health for operators and load balancers: GET /healthz says the process is up (no dependency asked);
 * GET /readyz says whether it can serve (the database answers, and Redis when REDIS_URL is set), 503 if
 * not. /health stays as it was for existing monitors.
 */
import type { FastifyInstance } from 'fastify';
import type { OpenedDatabase } from '../db/open.ts';

export function healthRoutes(app: FastifyInstance, database: OpenedDatabase, redisReady: () => Promise<boolean>) {
  app.get('/health', async (_req, reply) => {
    const ok = await database.ping();
    return reply.status(ok ? 200 : 503).send({ success: ok, database: { dialect: database.dialect, ok } });
  });

  app.get('/healthz', async () => ({ success: true }));

  app.get('/readyz', async (_req, reply) => {
    const [databaseOk, redisOk] = await Promise.all([database.ping(), redisReady()]);
    const ok = databaseOk && redisOk;
    return reply
      .status(ok ? 200 : 503)
      .send({ success: ok, database: { dialect: database.dialect, ok: databaseOk }, redis: { ok: redisOk } });
  });
}
