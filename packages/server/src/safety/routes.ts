/**
 * Worker safety's calls (issue 60, docs/api.md "Worker safety"): the organisation's safety settings and lone
 * work. Also starts the lone workers' sweep on this instance, counts a granted press of the talk button
 * (`transmissionStarted`, not a floor an SOS opened) as an answer, and starts the lone work the organisation requires
 * when its worker's first socket connects (`userCameOnline`, issue 69).
 */
import {
  CheckIn,
  GetLoneWorkers,
  GetMyLoneWorker,
  GetSafetySettings,
  SetSafetySettings,
  StartLoneWorker,
  StopLoneWorker,
} from '@talkgroup/protocol';
import type { FastifyInstance } from 'fastify';
import type { AuditStore } from '../audit/store.ts';
import type { Transactional } from '../audit/transactional.ts';
import type { SessionStore } from '../auth/sessions.ts';
import type { EventBus } from '../events.ts';
import { defineRoutes } from '../http/route.ts';
import { deadlineSweep } from '../process/deadline-sweep.ts';
import type { SettingsStore } from '../settings/store.ts';
import type { LoneWorkers } from './lone-workers.ts';

/** What this part uses of the services (app.ts hands them over). */
export interface SafetyRoutesServices {
  sessions: SessionStore;
  settings: SettingsStore;
  loneWorkers: LoneWorkers;
  events: EventBus;
  audit: AuditStore;
  transaction: Transactional['run'];
}

export function safetyRoutes(app: FastifyInstance, services: SafetyRoutesServices): void {
  const { loneWorkers } = services;
  const route = defineRoutes(app, services.sessions);
  const onError = (error: unknown, what: string) => app.log.warn({ err: error }, `${what} failed`);
  const sweep = deadlineSweep(loneWorkers.deadlines, onError);
  /** A new deadline made here: its timer is set at once, not at the next look. */
  const follow = <T>(answer: T): T => {
    void sweep.sweepNow();
    return answer;
  };

  route(GetSafetySettings, async () => ({
    success: true,
    res: await services.settings.safety(),
    loneWorkerMinSeconds: loneWorkers.minSeconds,
  }));

  // Audited with what it was and what it is now (auditing.ts is full: the row is written here, in one transaction).
  route(SetSafetySettings, async ({ body, auth, req }) =>
    services.transaction(async () => {
      const before = await services.settings.safety();
      const after = await loneWorkers.setSettings(body);
      const changes: Record<string, { before: unknown; after: unknown }> = {};
      for (const key of ['loneWorker', 'manDown', 'ambientListening', 'emergencyOpenMic'] as const)
        if (JSON.stringify(before[key]) !== JSON.stringify(after[key]))
          changes[key] = { before: before[key], after: after[key] };
      // Issue 69: live ambient listenings follow the new setting once it is committed (ambient/routes.ts).
      services.events.emit('safetySettingsChanged', { before, after, byUserId: auth.userId });
      await services.audit.write({
        actorId: auth.userId,
        action: 'settings.safety',
        targetType: 'setting',
        targetId: null,
        targetName: 'safety',
        changes,
        address: req.ip ?? null,
        requestId: String(req.id),
      });
      return { success: true, result: 'Safety settings saved', res: after };
    }),
  );

  route(StartLoneWorker, async ({ body, auth }) =>
    follow({ success: true, result: 'Lone work started', ...(await loneWorkers.start(auth, body.intervalSeconds)) }),
  );
  route(StopLoneWorker, async ({ auth }) => ({
    success: true,
    result: 'Lone work stopped',
    ...(await loneWorkers.stop(auth)),
  }));
  route(CheckIn, async ({ auth }) =>
    follow({ success: true, result: 'Checked in', ...(await loneWorkers.checkIn(auth)) }),
  );
  route(GetMyLoneWorker, async ({ auth }) => ({ success: true, ...(await loneWorkers.mine(auth)) }));
  route(GetLoneWorkers, async ({ body, auth }) => ({ success: true, res: await loneWorkers.list(auth, body.userId) }));

  sweep.start();
  // Only the worker's own press answers: a floor an SOS opened is no sign of life (issue 69).
  const stopPresses = services.events.on('transmissionStarted', ({ userId, emergency }) => {
    if (emergency) return;
    loneWorkers
      .pressed(userId)
      .then(() => sweep.sweepNow())
      .catch((error) => onError(error, 'answering a lone-worker check by a press'));
  });
  // Issue 69: lone work the organisation requires starts with the worker's first socket, whatever its client.
  const stopArrivals = services.events.on('userCameOnline', ({ userId }) => {
    loneWorkers
      .startIfRequired(userId)
      .then((started) => (started ? sweep.sweepNow() : undefined))
      .catch((error) => onError(error, 'starting a required lone work'));
  });
  // Issue 70: "Je vais bien" on the SOS its missed checks raised starts its lone work's round again.
  const stopOks = services.events.on('emergencyOk', ({ alert }) => {
    if (alert.reason !== 'lone_worker' || alert.userId === null) return;
    loneWorkers
      .answeredAlert(alert.userId)
      .then(() => sweep.sweepNow())
      .catch((error) => onError(error, 'answering lone work by "I am OK"'));
  });
  app.addHook('onClose', async () => {
    stopOks();
    stopPresses();
    stopArrivals();
    await sweep.stop();
  });
}
