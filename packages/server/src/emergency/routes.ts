/** The emergency alert's calls (issue 14, docs/api.md "Emergency alerts"). */
import { AcknowledgeEmergencyAlert, GetEmergencyAlerts, SendEmergencyAlert } from '@talkgroup/protocol';
import type { FastifyInstance } from 'fastify';
import { defineRoutes } from '../http/route.ts';
import type { Services } from '../services.ts';

export function emergencyRoutes(app: FastifyInstance, services: Services): void {
  const { emergency } = services;
  const route = defineRoutes(app, services.sessions);

  route(SendEmergencyAlert, async ({ body, auth }) => ({
    success: true,
    result: 'Emergency alert sent to the administrators',
    res: await emergency.raise(auth, body),
  }));

  route(AcknowledgeEmergencyAlert, async ({ body, auth }) => ({
    success: true,
    result: 'Emergency alert acknowledged',
    res: await emergency.acknowledge(auth, body.alertId),
  }));

  route(GetEmergencyAlerts, async ({ body, auth }) => ({
    success: true,
    res: await emergency.page(auth, body.start, body.limit),
  }));
}
