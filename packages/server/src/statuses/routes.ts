/**
 * Members' statuses (issue 49, packages/protocol/src/api/statuses.ts): the organisation's list, edited by an
 * administrator (audited: audit/auditing.ts), and each member's status, set by the member itself or by a
 * dispatcher of one of its channels. Every change is an activity (`status_change`) and a push
 * (`memberStatusChanged`, `statusesChanged`: realtime/pushes.ts).
 */
import {
  GetMemberStatuses,
  ListStatuses,
  type MemberStatus,
  may,
  SetMyStatus,
  SetStatuses,
  SetUserStatus,
} from '@talkgroup/protocol';
import type { FastifyInstance } from 'fastify';
import type { ActivityStore } from '../activities/store.ts';
import type { CounterStore } from '../auth/counter-store.ts';
import { STATUS_CHANGE_LIMIT, slidingCallLimiter } from '../auth/rate-limit.ts';
import type { SessionStore } from '../auth/sessions.ts';
import type { ChannelAccess } from '../channels/access.ts';
import type { EventBus } from '../events.ts';
import { badRequest, forbidden, notFound } from '../http/errors.ts';
import { said } from '../http/messages.ts';
import { defineRoutes, type TokenOwner } from '../http/route.ts';
import type { StatusSetter, StatusStore } from './store.ts';

/** What this part uses of the services (app.ts hands them over). */
export interface StatusServices {
  statuses: StatusStore;
  access: ChannelAccess;
  activities: ActivityStore;
  events: EventBus;
  sessions: SessionStore;
  /** The limits' counters (Redis with REDIS_URL: every instance counts the same calls). */
  counters: CounterStore;
}

export function statusRoutes(app: FastifyInstance, services: StatusServices): void {
  const { statuses, access, activities, events } = services;
  const route = defineRoutes(app, services.sessions);
  // Each change reaches every desk of the member's channels (issue 57); a dispatcher's setUserStatus is not counted.
  const statusChangeLimit = slidingCallLimiter(services.counters, 'status-change', STATUS_CHANGE_LIMIT);

  /** Sets the status, records it and pushes it; the same status again changes nothing. */
  async function setStatus(userId: number, statusId: number | null, by: StatusSetter | null): Promise<MemberStatus> {
    const current = await statuses.of(userId);
    if (!current) throw notFound('user_not_found');
    const status = statusId === null ? null : await statuses.find(statusId);
    if (status === undefined) throw notFound('status_not_found');
    if (current.statusId === statusId) return current;
    const changed = await statuses.set(userId, statusId, by);
    await activities.record('status_change', {
      userId,
      detail: {
        status: { label: status?.label ?? null, color: status?.color ?? null, ...(by ? { by: by.name } : {}) },
      },
    });
    const channels = await statuses.channelsOf(userId);
    events.emit('memberStatusChanged', {
      status: changed,
      rooms: [...new Set(channels.map((channel) => channel.rtcSession))],
      channelIds: channels.map((channel) => channel.id),
    });
    return changed;
  }

  /** An administrator sets anyone's; a dispatcher, only a member of a channel it dispatches. */
  async function requireMayDispatch(auth: TokenOwner, userId: number): Promise<void> {
    const where = await access.channelsWhere(auth, 'channel.dispatch');
    if (where === undefined) return;
    const dispatched = new Set(where);
    const theirs = await statuses.channelsOf(userId);
    if (!theirs.some((channel) => dispatched.has(channel.id))) throw forbidden('status_not_allowed');
  }

  route(ListStatuses, async () => ({ success: true, res: await statuses.list() }));

  route(SetStatuses, async ({ body }) => {
    const replaced = await statuses.replace(body.statuses);
    if ('unknownIds' in replaced) throw badRequest('status_not_found');
    events.emit('statusesChanged', {});
    return { success: true, ...said('statuses_saved'), res: replaced.statuses };
  });

  route(SetMyStatus, async ({ body, auth }) => {
    await statusChangeLimit(auth.userId);
    return { success: true, ...said('status_set'), res: await setStatus(auth.userId, body.statusId, null) };
  });

  route(SetUserStatus, async ({ body, auth }) => {
    const name = await statuses.nameOf(body.userId);
    if (name === undefined) throw notFound('user_not_found');
    if (body.userId !== auth.userId) await requireMayDispatch(auth, body.userId);
    const by =
      body.userId === auth.userId ? null : { userId: auth.userId, name: (await statuses.nameOf(auth.userId)) ?? '' };
    return { success: true, ...said('status_set'), res: await setStatus(body.userId, body.statusId, by) };
  });

  route(GetMemberStatuses, async ({ body, auth }) => ({
    success: true,
    res: await statuses.visibleTo(auth.userId, may(auth, null, 'users.manage'), body.userIds),
  }));
}
