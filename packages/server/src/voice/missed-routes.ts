/**
 * Nothing missed (issue 34): a member's missed transmissions (counts per channel, a channel's list oldest
 * first), marking played ones heard, and the Available / Busy status. Each change is pushed to the member's
 * sockets (missedTransmissionsChanged), so that every device of theirs shows the same counts.
 */
import { GetMissedTransmissions, MarkTransmissionsHeard, SetAvailability } from '@talkgroup/protocol';
import type { FastifyInstance } from 'fastify';
import type { SessionStore } from '../auth/sessions.ts';
import type { EventBus } from '../events.ts';
import { defineRoutes } from '../http/route.ts';
import type { MissedStore } from './missed.ts';
import type { VoiceStore } from './store.ts';

/** What this part uses of the services (app.ts hands them over). */
export interface MissedRoutesServices {
  events: EventBus;
  missed: MissedStore;
  sessions: SessionStore;
  voice: VoiceStore;
}

export function missedRoutes(app: FastifyInstance, services: MissedRoutesServices): void {
  const { missed, voice, events } = services;
  const route = defineRoutes(app, services.sessions);

  route(GetMissedTransmissions, async ({ body, auth }) => {
    const [channels, rows, busy] = await Promise.all([
      missed.counts(auth.userId),
      body.channelId === undefined ? [] : missed.in(auth.userId, body.channelId),
      missed.isBusy(auth.userId),
    ]);
    return { success: true, channels, res: rows.map((row) => voice.toVoiceMessage(row, auth.userId)), busy };
  });

  route(MarkTransmissionsHeard, async ({ body, auth }) => {
    const channelIds = await missed.markHeard(auth.userId, body.ids);
    if (channelIds.length > 0) events.emit('missedChanged', { userIds: [auth.userId], channelIds });
    return { success: true };
  });

  route(SetAvailability, async ({ body, auth }) => {
    await missed.setBusy(auth.userId, body.busy);
    events.emit('missedChanged', { userIds: [auth.userId], channelIds: [], busy: body.busy });
    return { success: true };
  });
}
