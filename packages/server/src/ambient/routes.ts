/**
 * Ambient listening's calls (issue 60 item 6; docs/api.md "Ambient listening"): start, renew and stop a listening,
 * with the refusals in the contract's order, and its ends told to both parties (`ambient_end`) and audited with
 * who, whom and for how long, whatever ended it (a stop, the time running out, a page gone, the setting turned
 * off). The signalling between the two pages is realtime/concerns/ambient.ts's. Registered after real time: the
 * member's pages are on any instance.
 *
 * Issue 69: the caller's rights come before anything about the member (no oracle of whose app is open), and go
 * down the ranks only (devices/watchers.ts); a listening is discreet only when an administrator starts it where
 * the setting is 'discreet'; its start's (or renewal's) audit row is written before the member's page hears of it,
 * and a row that cannot be written refuses the call; a change of the setting reaches the live listenings at once.
 */
import {
  type AmbientStart,
  type AuditAction,
  may,
  StartAmbientListening,
  StopAmbientListening,
} from '@talkgroup/protocol';
import type { FastifyInstance } from 'fastify';
import type { AuditStore } from '../audit/store.ts';
import type { SessionStore } from '../auth/sessions.ts';
import type { Reader } from '../channels/access.ts';
import { talkPagesOf } from '../devices/talk-pages.ts';
import { type DeviceWatcherServices, deviceWatchers } from '../devices/watchers.ts';
import type { EventBus } from '../events.ts';
import { conflict, forbidden, invalidInput, notFound } from '../http/errors.ts';
import { defineRoutes } from '../http/route.ts';
import type { Io } from '../sockets/io.ts';
import { userRoom } from '../sockets/room-names.ts';
import type { AmbientListenings, Listening } from './listenings.ts';

type Mode = 'off' | 'announced' | 'discreet';

export interface AmbientServices extends DeviceWatcherServices {
  sessions: SessionStore;
  audit: AuditStore;
  settings: { safety(): Promise<{ ambientListening: Mode }> };
  events: Pick<EventBus, 'on'>;
  faults: { fault(kind: string, error: unknown, context?: Record<string, unknown>): void };
}

/** The sockets of the listener's page(s): those of the session that started it. */
export async function listenerSockets(io: Io, listening: Pick<Listening, 'listenerId' | 'listenerSessionId'>) {
  const sockets = await io.in(userRoom(listening.listenerId)).fetchSockets();
  return sockets.filter((socket) => socket.data.sessionId === listening.listenerSessionId);
}

/**
 * Whether the member's page says who listens: always, but where the setting is 'discreet' and the listener an
 * administrator (the one who watches devices everywhere, `channel.devices` held everywhere). A dispatcher's
 * listening is announced whatever the setting (issue 69).
 */
export function announcedFor(listener: Reader, mode: Mode): boolean {
  return mode !== 'discreet' || !may(listener, null, 'channel.devices');
}

const startOf = (listening: Listening): AmbientStart => ({
  listeningId: listening.id,
  listener: { userId: listening.listenerId, name: listening.listenerName },
  announced: listening.announced,
});

export function ambientRoutes(
  app: FastifyInstance,
  services: AmbientServices,
  realtime: { io: Io; ambient: AmbientListenings },
): void {
  const { audit } = services;
  const { io, ambient } = realtime;
  const route = defineRoutes(app, services.sessions);
  const watchers = deviceWatchers(services);
  const fault = (what: string) => (error: unknown) => services.faults.fault('worker', error, { worker: what });

  /** An audit row about a listening; rejects when it cannot be written. */
  const write = (listening: Listening, action: AuditAction, actorId: number, changes: Record<string, unknown>) =>
    audit.write({
      actorId,
      action,
      targetType: 'user',
      targetId: listening.userId,
      targetName: listening.memberName,
      changes: Object.fromEntries(Object.entries(changes).map(([k, v]) => [k, { before: null, after: v }])),
      address: null,
      requestId: null,
    });

  /** The member's pages learn that it listens (again, announced, for one the setting now announces). */
  const tellMember = (listening: Listening) =>
    io.to(userRoom(listening.userId)).emit('ambient_start', startOf(listening));

  // Whatever ended it: both parties are told, and the log says who listened to whom and for how long. With Redis
  // only the instance that ended it hears of it here: told once, audited once. An end is never held back: a row
  // that cannot be written is a fault, the listening is over all the same.
  ambient.onEnd((listening, reason, byUserId) => {
    const end = { listeningId: listening.id, reason };
    io.to(userRoom(listening.userId)).emit('ambient_end', end);
    void listenerSockets(io, listening)
      .then((sockets) => {
        for (const socket of sockets) socket.emit('ambient_end', end);
      })
      .catch(fault('ambient listening end'));
    // Awaited by the end: a stop answers once its audit row is there.
    return write(listening, 'ambient.stop', byUserId ?? listening.listenerId, {
      listeningId: listening.id,
      listener: listening.listenerName,
      reason,
      seconds: Math.round((Date.now() - listening.startedAt) / 1000),
    }).catch(fault('ambient listening audit'));
  });

  /**
   * The live listenings follow the setting (issue 69): 'off' ends them all, 'announced' announces the discreet
   * ones at once (the member's pages get `ambient_start` with `announced: true`). Announced rather than ended: the
   * member learns now what the setting promises, and a listener in the middle of an emergency keeps hearing.
   */
  async function follow(mode: Mode, byUserId: number): Promise<void> {
    for (const listening of await ambient.live()) {
      if (mode === 'off') await ambient.end(listening.id, 'off', byUserId);
      else if (mode === 'announced' && !listening.announced) await announce(listening.id, byUserId);
    }
  }

  async function announce(id: string, byUserId: number): Promise<void> {
    const announced = await ambient.announce(id);
    if (!announced) return;
    tellMember(announced);
    await write(announced, 'ambient.announce', byUserId, { listeningId: id, listener: announced.listenerName }).catch(
      fault('ambient listening audit'),
    );
  }

  const stopFollowing = services.events.on('safetySettingsChanged', ({ before, after, byUserId }) => {
    if (before.ambientListening === after.ambientListening) return;
    void follow(after.ambientListening, byUserId).catch(fault('ambient listenings after a setting change'));
  });
  app.addHook('onClose', async () => stopFollowing());

  route(StartAmbientListening, async ({ body, auth }) => {
    if (body.userId === auth.userId) throw invalidInput('userId: one does not listen to oneself');
    // Who may listen to whom first: nobody learns whether a member's app is open without the right to listen.
    const member = await watchers.require(auth, body.userId);
    const mode = (await services.settings.safety()).ambientListening;
    if (mode === 'off') throw forbidden('ambient_off');
    // Its /talk, not any page of the account (a console open as that user is no microphone to hear).
    if ((await talkPagesOf(io, body.userId)) === 0) throw conflict('ambient_app_closed');
    const listener = await services.users.row(auth.userId);
    if (!listener) throw notFound('user_not_found');
    const { listening, renewed, announcedNow } = await ambient.start({
      userId: body.userId,
      memberName: member.display_name,
      listenerId: auth.userId,
      listenerName: listener.display_name,
      listenerSessionId: auth.sessionId,
      announced: announcedFor(auth, mode),
    });
    // Its row before its page hears of it: a row that cannot be written takes the listening back, and the call fails.
    try {
      await write(listening, renewed ? 'ambient.renew' : 'ambient.start', auth.userId, {
        listeningId: listening.id,
        mode,
        announced: listening.announced,
        maxSeconds: ambient.maxSeconds,
      });
    } catch (error) {
      if (renewed) await ambient.end(listening.id, 'stopped', auth.userId);
      else await ambient.discard(listening.id);
      throw error;
    }
    // The setting may have changed since it was read, its change's sweep before this listening was stored: asked
    // again now, one of the two sees the other.
    const now = (await services.settings.safety()).ambientListening;
    if (now === 'off') {
      await ambient.end(listening.id, 'off', auth.userId);
      throw forbidden('ambient_off');
    }
    let announcedHere = announcedNow;
    if (!listening.announced && announcedFor(auth, now) && (await ambient.announce(listening.id))) {
      listening.announced = true;
      announcedHere = true;
    }
    // A new listening, or a renewal that announced it: the member's pages hear of it.
    if (!renewed || announcedHere) tellMember(listening);
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
