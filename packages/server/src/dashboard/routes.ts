/** The dashboard's statistics call (not in the spec: added so the browser never loads every user to count). */
import { GetStatistics } from '@talkgroup/protocol';
import type { FastifyInstance } from 'fastify';
import type { SessionStore } from '../auth/sessions.ts';
import type { Db } from '../db/schema.ts';
import { defineRoutes } from '../http/route.ts';
import { statisticsStore } from './store.ts';

/** What this part uses of the services (app.ts hands them over). */
export interface DashboardServices {
  db: Db;
  sessions: SessionStore;
}

export function dashboardRoutes(app: FastifyInstance, services: DashboardServices): void {
  const route = defineRoutes(app, services.sessions);
  const statistics = statisticsStore(services.db);

  route(GetStatistics, async () => ({ success: true, res: await statistics.statistics() }));
}
