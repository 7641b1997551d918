/**
 * Scan (issue 34): the member's channels and whether /talk hears each while another is on screen; taking one
 * out or putting it back is pushed to the member's sockets (scanListChanged), so that every device follows.
 */
import { GetScanList, SetChannelScan } from '@talkgroup/protocol';
import type { FastifyInstance } from 'fastify';
import type { SessionStore } from '../auth/sessions.ts';
import type { EventBus } from '../events.ts';
import { notFound } from '../http/errors.ts';
import { defineRoutes } from '../http/route.ts';
import type { ScanStore } from './scan.ts';

/** What this part uses of the services (app.ts hands them over). */
export interface ScanRoutesServices {
  events: EventBus;
  scan: ScanStore;
  sessions: SessionStore;
}

export function scanRoutes(app: FastifyInstance, services: ScanRoutesServices): void {
  const { scan, events } = services;
  const route = defineRoutes(app, services.sessions);

  route(GetScanList, async ({ auth }) => ({ success: true, res: await scan.list(auth.userId) }));

  // A channel that is not the member's (getMyChannels's), a private call's hidden one included: as one that does not exist.
  route(SetChannelScan, async ({ body, auth }) => {
    if (!(await scan.set(auth.userId, body.channelId, body.scan))) throw notFound('channel_not_found');
    events.emit('scanChanged', { userId: auth.userId, channelId: body.channelId, scan: body.scan });
    return { success: true };
  });
}
