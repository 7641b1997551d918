/** Regroups and the selected channel's calls (issue 59, docs/api.md "Regroups"); the rules are in regroups.ts. */
import {
  CreateRegroup,
  EndRegroup,
  GetMySelectedChannel,
  GetRegroups,
  SelectChannelFor,
  SelectMyChannel,
} from '@talkgroup/protocol';
import type { FastifyInstance } from 'fastify';
import type { SessionStore } from '../auth/sessions.ts';
import { said } from '../http/messages.ts';
import { defineRoutes } from '../http/route.ts';
import type { Regroups } from './regroups.ts';

/** What this part uses of the services (app.ts hands them over). */
export interface RegroupServices {
  regroups: Regroups;
  sessions: SessionStore;
}

export function regroupRoutes(app: FastifyInstance, services: RegroupServices): void {
  const { regroups } = services;
  const route = defineRoutes(app, services.sessions);

  route(CreateRegroup, async ({ body, auth }) => {
    const res = await regroups.create(auth, body);
    // Both at the top (the issue's `{ regroupId, channelId }`) and in `res` with the whole regroup.
    return {
      success: true,
      ...said('regroup_created', { name: res.name }),
      regroupId: res.regroupId,
      channelId: res.channelId,
      res,
    };
  });
  route(EndRegroup, async ({ body, auth }) => ({
    success: true,
    ...said('regroup_ended'),
    res: await regroups.end(auth, body.regroupId),
  }));
  route(GetRegroups, async ({ auth }) => ({ success: true, res: await regroups.list(auth) }));
  route(SelectChannelFor, async ({ body, auth }) => {
    const { user, channel } = await regroups.selectFor(auth, body.userId, body.channelId);
    return {
      success: true,
      ...said('channel_selected_for', { name: user.name, channel: channel.name }),
      res: { userId: user.userId, channelId: channel.id },
    };
  });
  route(SelectMyChannel, async ({ body, auth }) => ({
    success: true,
    res: await regroups.selectMine(auth, body.channelId),
  }));
  route(GetMySelectedChannel, async ({ auth }) => ({ success: true, res: await regroups.mine(auth) }));
}
