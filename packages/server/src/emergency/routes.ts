/** The emergency alert's calls (issue 14, docs/api.md "Emergency alerts"). */
import {
  AcknowledgeEmergencyAlert,
  CloseEmergencyAlert,
  GetEmergencyAlerts,
  GetMyEmergencyAlert,
  ReportOk,
  SendEmergencyAlert,
} from '@talkgroup/protocol';
import type { FastifyInstance } from 'fastify';
import type { SessionStore } from '../auth/sessions.ts';
import { defineRoutes } from '../http/route.ts';
import type { EmergencyAlerts } from './alerts.ts';

/** What this part uses of the services (app.ts hands them over). */
export interface EmergencyRoutesServices {
  emergency: EmergencyAlerts;
  sessions: SessionStore;
}

export function emergencyRoutes(app: FastifyInstance, services: EmergencyRoutesServices): void {
  const { emergency } = services;
  const route = defineRoutes(app, services.sessions);

  // Issue 60: raised for a member by a dispatcher: the audit log names the dispatcher, the alert the member (its row
  // is written with the alert, alerts.ts).
  route(SendEmergencyAlert, async ({ body, auth, req }) => {
    const alert = await emergency.raise(auth, body, { address: req.ip ?? null, requestId: String(req.id) });
    return { success: true, result: 'Emergency alert sent to the administrators', res: alert };
  });

  route(AcknowledgeEmergencyAlert, async ({ body, auth }) => ({
    success: true,
    result: 'Emergency alert acknowledged',
    res: await emergency.acknowledge(auth, body.alertId),
  }));

  route(CloseEmergencyAlert, async ({ body, auth }) => ({
    success: true,
    result: body.outcome === 'false' ? 'Emergency alert closed as a false alarm' : 'Emergency alert closed',
    res: await emergency.close(auth, body.alertId, body.outcome),
  }));

  // Issue 70: the caller's own alert, for its phone; and its "Je vais bien" after it, for those who take the alert.
  route(GetMyEmergencyAlert, async ({ auth }) => ({ success: true, res: await emergency.mine(auth) }));
  route(ReportOk, async ({ body, auth, req }) => ({
    success: true,
    result: 'Your dispatchers know that you are OK',
    res: await emergency.reportOk(auth, body.alertId, { address: req.ip ?? null, requestId: String(req.id) }),
  }));

  route(GetEmergencyAlerts, async ({ body, auth }) => ({
    success: true,
    res: await emergency.page(auth, body.start, body.limit),
  }));
}
