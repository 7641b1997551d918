/**
 * Area channels (issue 59): getAreaMembers, who is in a channel's zone now, for the dispatch console's tiles (a
 * dispatcher of the channel, or an administrator). The zone itself is set by createChannel / updateChannel.
 */
import { GetAreaMembers } from '@talkgroup/protocol';
import type { FastifyInstance } from 'fastify';
import type { SessionStore } from '../auth/sessions.ts';
import type { ChannelAccess } from '../channels/access.ts';
import { defineRoutes } from '../http/route.ts';
import type { AreaChannels } from './follow.ts';

/** What this part uses of the services (app.ts hands them over). */
export interface AreaRoutesServices {
  access: ChannelAccess;
  areaChannels: AreaChannels;
  sessions: SessionStore;
}

export function areaRoutes(app: FastifyInstance, services: AreaRoutesServices): void {
  const route = defineRoutes(app, services.sessions);

  route(GetAreaMembers, async ({ body, auth }) => {
    await services.access.require(auth, body.channelId, 'channel.monitor');
    return { success: true, res: await services.areaChannels.members(body.channelId) };
  });
}
