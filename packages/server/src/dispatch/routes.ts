/**
 * The dispatch console's monitor list (issue 27, docs/api.md "Dispatch console"): saved per user, so that a
 * desk's tiles, volumes and mutes follow it to another browser. Only channels the user may monitor.
 */
import { GetMonitorList, SetMonitorList } from '@talkgroup/protocol';
import type { FastifyInstance } from 'fastify';
import type { SessionStore } from '../auth/sessions.ts';
import type { ChannelAccess, Reader } from '../channels/access.ts';
import type { ChannelStore } from '../channels/store.ts';
import { notFound } from '../http/errors.ts';
import { said } from '../http/messages.ts';
import { defineRoutes, requireSelfOr } from '../http/route.ts';
import type { UserStore } from '../users/store.ts';
import type { MonitorList, MonitorStore } from './monitor-store.ts';

/** The tiles of a first desk at most: one per selection key. */
const FIRST_DESK_TILES = 9;

/** What this part uses of the services (app.ts hands them over). */
export interface DispatchServices {
  access: ChannelAccess;
  channels: ChannelStore;
  monitors: MonitorStore;
  sessions: SessionStore;
  users: UserStore;
}

export function dispatchRoutes(app: FastifyInstance, services: DispatchServices): void {
  const { access, channels, monitors, users } = services;
  const route = defineRoutes(app, services.sessions);

  /** The list without the channels its owner may no longer monitor (it left them, or its role changed). */
  async function stillMonitored(owner: Reader, list: MonitorList): Promise<MonitorList> {
    const where = await access.channelsWhere(owner, 'channel.monitor');
    const allowed = where && new Set(where);
    const kept = [];
    for (const entry of list.channels) {
      if (allowed && !allowed.has(entry.channelId)) continue;
      // An administrator may monitor any channel, but a private call's hidden channel is none.
      if (!allowed && !(await channels.listed(entry.channelId))) continue;
      kept.push(entry);
    }
    return { ...list, channels: kept };
  }

  /**
   * Issue 70: a desk never saved opens on the channels its user dispatches (keys 1 to 9 select them), so that a
   * dispatcher's first console is not empty; an administrator, who dispatches every channel, chooses its own.
   */
  async function firstDesk(owner: Reader): Promise<MonitorList['channels']> {
    const dispatched = await access.channelsWhere(owner, 'channel.dispatch');
    const desk = [];
    for (const channelId of dispatched ?? []) {
      if (desk.length === FIRST_DESK_TILES) break;
      if (await channels.listed(channelId)) desk.push({ channelId, volume: 100, muted: false });
    }
    return desk;
  }

  route(GetMonitorList, async ({ body, auth }) => {
    const userId = body.userId ?? auth.userId;
    requireSelfOr(auth, userId, 'users.manage');
    const owner = userId === auth.userId ? auth : await users.row(userId);
    if (!owner) throw notFound('user_not_found');
    const reader: Reader = 'userId' in owner ? owner : { userId, role: owner.role, mapRight: owner.map_right === 1 };
    const stored = await monitors.of(userId);
    const list = await stillMonitored(reader, stored.saved ? stored : { ...stored, channels: await firstDesk(reader) });
    return { success: true, res: list.channels, unselectedVolume: list.unselectedVolume };
  });

  route(SetMonitorList, async ({ body, auth }) => {
    for (const { channelId } of body.channels) {
      const { channel } = await access.require(auth, channelId, 'channel.monitor');
      if (channel.hidden) throw notFound('channel_not_found');
    }
    await monitors.set(auth.userId, { channels: body.channels, unselectedVolume: body.unselectedVolume });
    return {
      success: true,
      ...said('monitor_list_saved'),
      res: body.channels,
      unselectedVolume: body.unselectedVolume,
    };
  });
}
