/** The audit log's call (administrators), and the hook that makes route.ts audit administrators' calls. */
import { GetAuditLog } from '@talkgroup/protocol';
import type { FastifyInstance } from 'fastify';
import { defineRoutes, type TokenResolver } from '../http/route.ts';
import type { Auditing } from './auditing.ts';
import type { AuditStore } from './store.ts';

/** What this part uses of the services (app.ts hands them over). */
export interface AuditRoutesServices {
  audit: AuditStore;
  auditing: Auditing;
  sessions: TokenResolver;
}

export function auditRoutes(app: FastifyInstance, services: AuditRoutesServices): void {
  app.decorate('auditing', services.auditing);
  const route = defineRoutes(app, services.sessions);

  route(GetAuditLog, async ({ body }) => {
    const { entries, total } = await services.audit.page(body);
    // Issue 70: the ids in the changes come with their names (an audit reader sees every user and channel).
    const names = await services.audit.namesIn(entries);
    return { success: true, res: { entries, totalRecords: total, names } };
  });
}
