/** The audit log's call (administrators), and the hook that makes route.ts audit administrators' calls. */
import { GetAuditLog } from '@talkgroup/protocol';
import type { FastifyInstance } from 'fastify';
import { defineRoutes } from '../http/route.ts';
import type { Services } from '../services.ts';

export function auditRoutes(app: FastifyInstance, services: Services): void {
  app.decorate('auditing', services.auditing);
  const route = defineRoutes(app, services.sessions);

  route(GetAuditLog, async ({ body }) => {
    const { entries, total } = await services.audit.page(body);
    return { success: true, res: { entries, totalRecords: total } };
  });
}
