/** The activity log calls of spec section 7: the latest entries, a paged list, and deleting old entries. */
import {
  type ActivityTimeFrame,
  type Capability,
  DASHBOARD_ACTIVITIES_PAGE_SIZE,
  DeleteOldActivities,
  GetAllActivities,
  GetLastActivities,
  may,
} from '@talkgroup/protocol';
import type { FastifyInstance } from 'fastify';
import { said } from '../http/messages.ts';
import { defineRoutes, type TokenOwner, type TokenResolver } from '../http/route.ts';
import type { ActivityStore } from './store.ts';

/** What this part uses of the services (app.ts hands them over). */
export interface ActivityRoutesServices {
  /** Where a reader holds a capability, and a refusal where it does not (channels/access.ts). */
  access: {
    channelsWhere(reader: TokenOwner, capability: Capability): Promise<number[] | undefined>;
    require(reader: TokenOwner, channelId: number, capability: Capability): Promise<unknown>;
  };
  activities: ActivityStore;
  sessions: TokenResolver;
}

const DAY_MS = 24 * 3600 * 1000;

/** The moment before which a time frame deletes: one calendar month, 14 days or 7 days ago. */
export function cutoffOf(timeFrame: ActivityTimeFrame, now = new Date()): Date {
  if (timeFrame === '2w') return new Date(now.getTime() - 14 * DAY_MS);
  if (timeFrame === '1w') return new Date(now.getTime() - 7 * DAY_MS);
  const monthAgo = new Date(now);
  monthAgo.setUTCMonth(monthAgo.getUTCMonth() - 1);
  // 31 March minus one month is 28 (or 29) February, not 3 March.
  if (monthAgo.getUTCDate() !== now.getUTCDate()) monthAgo.setUTCDate(0);
  return monthAgo;
}

export function activityRoutes(app: FastifyInstance, services: ActivityRoutesServices): void {
  const { activities } = services;
  const route = defineRoutes(app, services.sessions);

  /**
   * The channels whose log `auth` reads: undefined for all of it (an administrator), else those where it holds
   * channel.activities (a dispatcher's own channels); naming another one is refused like any channel it may not read.
   */
  async function readableChannels(auth: TokenOwner, named?: number): Promise<number[] | undefined> {
    if (may(auth, null, 'channel.activities')) return undefined;
    if (named === undefined) return services.access.channelsWhere(auth, 'channel.activities');
    await services.access.require(auth, named, 'channel.activities');
    return [named];
  }

  route(GetLastActivities, async ({ body, auth }) => ({
    success: true,
    res: await activities.latest(body.limit ?? DASHBOARD_ACTIVITIES_PAGE_SIZE, await readableChannels(auth)),
  }));

  route(GetAllActivities, async ({ body, auth }) => {
    const { start, limit, userId, channelId, type, from, to } = body;
    // Stored times are UTC ISO strings: a bound given with another offset is compared in UTC.
    const utc = (moment?: string) => (moment === undefined ? undefined : new Date(moment).toISOString());
    const channelIds = await readableChannels(auth, channelId);
    const filter = { userId, channelId, channelIds, type, from: utc(from), to: utc(to) };
    return { success: true, res: await activities.page(filter, limit, start) };
  });

  route(DeleteOldActivities, async ({ body }) => {
    const deleted = await activities.deleteOlderThan(cutoffOf(body.timeFrame));
    return { success: true, ...said('activities_deleted'), deleted };
  });
}
