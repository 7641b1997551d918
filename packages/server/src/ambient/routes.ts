/**
 * Ambient listening's calls (issue 60 item 6; docs/api.md "Devices"): start, renew and stop a listening, with the
 * issue's refusals in its order, and its ends told to both parties (`ambient_end`) and audited with who, whom and
 * for how long, whatever ended it (a stop, the time running out, a page gone). The signalling between the two
 * pages is realtime/concerns/ambient.ts's. Registered after real time: the member's pages are on any instance.
 */
import { may, StartAmbientListening, StopAmbientListening } from '@talkgroup/protocol';
import type { FastifyInstance } from 'fastify';
import type { AuditStore } from '../audit/store.ts';
import type { SessionStore } from '../auth/sessions.ts';
import { talkPagesOf } from '../devices/talk-pages.ts';
import { type DeviceWatcherServices, deviceWatchers } from '../devices/watchers.ts';
import { conflict, forbidden, invalidInput, notFound } from '../http/errors.ts';
import { defineRoutes } from '../http/route.ts';
import type { Io } from '../realtime/io.ts';
import { userRoom } from '../realtime/room-names.ts';
import type { AmbientListenings, Listening } from './listenings.ts';

export interface AmbientServices extends DeviceWatcherServices {
  sessions: SessionStore;
  audit: AuditStore;
  settings: { safety(): Promise<{ ambientListening: 'off' | 'announced' | 'discreet' }> };
  users: { row(id: number): Promise<{ display_name: string } | undefined> };
  faults: { fault(kind: string, error: unknown, context?: Record<string, unknown>): void };
}

/** The sockets of the listener's page(s): those of the session that started it. */
export async function listenerSockets(io: Io, listening: Pick<Listening, 'listenerId' | 'listenerSessionId'>) {
  const sockets = await io.in(userRoom(listening.listenerId)).fetchSockets();
  return sockets.filter((socket) => socket.data.sessionId === listening.listenerSessionId);
}

export function ambientRoutes(
  app: FastifyInstance,
  services: AmbientServices,
  realtime: { io: Io; ambient: AmbientListenings },
): void {
  const { audit } = services;
  const { io, ambient } = realtime;
  const route = defineRoutes(app, services.sessions);
  const watchers = deviceWatchers(services);

  const write = (listening: Listening, action: string, actorId: number, changes: Record<string, unknown>) =>
    audit
      .write({
        actorId,
        action,
        targetType: 'user',
        targetId: listening.userId,
        targetName: listening.memberName,
        changes: Object.fromEntries(Object.entries(changes).map(([k, v]) => [k, { before: null, after: v }])),
        address: null,
        requestId: null,
      })
      .catch((error) => services.faults.fault('worker', error, { worker: 'ambient listening audit' }));

  // Whatever ended it: both parties are told, and the log says who listened to whom and for how long. With Redis
  // only the instance that ended it hears of it here: told once, audited once.
  ambient.onEnd((listening, reason, byUserId) => {
    const end = { listeningId: listening.id, reason };
    io.to(userRoom(listening.userId)).emit('ambient_end', end);
    void listenerSockets(io, listening)
      .then((sockets) => {
        for (const socket of sockets) socket.emit('ambient_end', end);
      })
      .catch((error) => services.faults.fault('worker', error, { worker: 'ambient listening end' }));
    // Awaited by the end: a stop answers once its audit row is there.
    return write(listening, 'ambient.stop', byUserId ?? listening.listenerId, {
      listeningId: listening.id,
      listener: listening.listenerName,
      reason,
      seconds: Math.round((Date.now() - listening.startedAt) / 1000),
    });
  });

  route(StartAmbientListening, async ({ body, auth }) => {
    const mode = (await services.settings.safety()).ambientListening;
    if (mode === 'off') throw forbidden('ambient_off');
    // Its /talk, not any page of the account (a console open as that user is no microphone to hear).
    if ((await talkPagesOf(io, body.userId)) === 0) throw conflict('ambient_app_closed');
    await watchers.require(auth, body.userId);
    if (body.userId === auth.userId) throw invalidInput('userId: one does not listen to oneself');
    const [member, listener] = await Promise.all([services.users.row(body.userId), services.users.row(auth.userId)]);
    if (!member || !listener) throw notFound('user_not_found');
    const { listening, renewed } = await ambient.start({
      userId: body.userId,
      memberName: member.display_name,
      listenerId: auth.userId,
      listenerName: listener.display_name,
      listenerSessionId: auth.sessionId,
      announced: mode === 'announced',
    });
    await write(listening, renewed ? 'ambient.renew' : 'ambient.start', auth.userId, {
      listeningId: listening.id,
      mode,
      maxSeconds: ambient.maxSeconds,
    });
    if (!renewed)
      io.to(userRoom(body.userId)).emit('ambient_start', {
        listeningId: listening.id,
        listener: { userId: auth.userId, name: listener.display_name },
        announced: listening.announced,
      });
    return {
      success: true,
      res: {
        listeningId: listening.id,
        userId: body.userId,
        name: member.display_name,
        announced: listening.announced,
        expiresAt: new Date(listening.expiresAt).toISOString(),
        renewed,
      },
    };
  });

  route(StopAmbientListening, async ({ body, auth }) => {
    const listening = await ambient.get(body.listeningId);
    // Someone else's listening is as unknown to a caller as one that is over.
    const mayStop =
      listening &&
      ((listening.listenerId === auth.userId && listening.listenerSessionId === auth.sessionId) ||
        may(auth, null, 'channel.devices'));
    if (!listening || !mayStop) throw notFound('ambient_not_found');
    // Over meanwhile (its time, a page gone, another stop on another instance): as unknown as any other.
    const ended = await ambient.end(listening.id, 'stopped', auth.userId);
    if (!ended) throw notFound('ambient_not_found');
    const seconds = Math.round((Date.now() - ended.startedAt) / 1000);
    return { success: true, res: { listeningId: ended.id, userId: ended.userId, seconds } };
  });
}
