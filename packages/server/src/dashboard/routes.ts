/** The dashboard's statistics call (not in the spec: added so the browser never loads every user to count). */
import { GetStatistics } from '@talkgroup/protocol';
import type { FastifyInstance } from 'fastify';
import { defineRoutes } from '../http/route.ts';
import type { Services } from '../services.ts';
import { statisticsStore } from './store.ts';

export function dashboardRoutes(app: FastifyInstance, services: Services): void {
  const route = defineRoutes(app, services.sessions);
  const statistics = statisticsStore(services.db);

  route(GetStatistics, async () => ({ success: true, res: await statistics.statistics() }));
}
