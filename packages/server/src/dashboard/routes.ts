/** The dashboard's statistics call (not in the spec: added so the browser never loads every user to count). */
import { GetStatistics } from '@talkgroup/protocol';
import type { FastifyInstance } from 'fastify';
import type { SessionStore } from '../auth/sessions.ts';
import { defineRoutes } from '../http/route.ts';
import type { StatisticsStore } from './store.ts';

/** What this part uses of the services (app.ts hands them over). */
export interface DashboardServices {
  sessions: SessionStore;
  statistics: StatisticsStore;
}

export function dashboardRoutes(app: FastifyInstance, services: DashboardServices): void {
  const { statistics } = services;
  const route = defineRoutes(app, services.sessions);

  route(GetStatistics, async () => ({ success: true, res: await statistics.statistics() }));
}
