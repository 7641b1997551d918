/**
 * Raising and taking an emergency alert, whichever way it arrives (POST /user/api/sendEmergencyAlert or the
 * socket event `emergency_alert`). The sender is always the token's user; its channel is the one it names
 * (it must be a reader) or the one it is in now. Real time pushes the alert (emergencyRaised) and gives the
 * sender the floor of that channel.
 *
 * Issue 69: an SOS a dispatcher (or an administrator) raises for a member is the member's alert in one channel
 * that the caller dispatches and the member belongs to, at the member's last reported position (never the
 * caller's), audited as the caller's in the alert's transaction. It opens the member's microphone only where the
 * organisation says so (`emergencyOpenMic: 'any_alert'`), and it does not count against the member's own SOS.
 */
import {
  EMERGENCY_MIN_INTERVAL_MS,
  type EmergencyAlert,
  type EmergencyOpenMicMode,
  type EmergencyOutcome,
  type EmergencyReason,
  may,
} from '@talkgroup/protocol';
import type { ActivityStore } from '../activities/store.ts';
import type { AuditStore } from '../audit/store.ts';
import type { ChannelAccess, Reader } from '../channels/access.ts';
import type { MembershipStore } from '../channels/membership.ts';
import type { ChannelStore, ChannelSummary } from '../channels/store.ts';
import type { EventBus } from '../events.ts';
import { conflict, forbidden, HttpError, invalidInput, notFound } from '../http/errors.ts';
import type { PresenceStore } from '../presence/store.ts';
import type { UserStore } from '../users/store.ts';
import { ownAlerts } from './own-alert.ts';
import type { EmergencyStore } from './store.ts';

export interface AlertPosition {
  lat?: number;
  lng?: number;
  accuracy?: number;
}

export interface AlertInput extends AlertPosition {
  channelId?: number;
  /** Why (issue 60): a press ('sos', the default), a phone's man-down countdown, the lone-worker escalation. */
  reason?: EmergencyReason;
  /** For this member (issue 60): by whoever dispatches `channelId`, a channel the member belongs to (issue 69). */
  userId?: number;
}

/** Where a call came from, for the audit row of an alert raised for someone else. */
export interface AlertOrigin {
  address: string | null;
  requestId: string | null;
}

/** A call made by the server's own code, or a test's: no address, no request. */
const NO_ORIGIN: AlertOrigin = { address: null, requestId: null };

async function someChannel(ids: number[], test: (id: number) => Promise<boolean>): Promise<boolean> {
  for (const id of ids) if (await test(id)) return true;
  return false;
}

/** The 409 of a second close: who closed the alert first, and how. */
function closedAlready(alert: EmergencyAlert): string {
  const how = alert.outcome === 'false' ? 'a false alarm' : 'a real emergency';
  return `This emergency alert is already closed (by ${alert.closedBy?.display_name ?? 'someone'}, as ${how}).`;
}

export const TOO_SOON = 'You sent an emergency alert less than 30 seconds ago: the administrators have it.';

export function emergencyAlerts(deps: {
  store: EmergencyStore;
  access: ChannelAccess;
  channels: ChannelStore;
  memberships: MembershipStore;
  users: UserStore;
  presence: PresenceStore;
  activities: ActivityStore;
  events: EventBus;
  /** Issue 69: whether an SOS raised for someone else opens its microphone (the safety settings). */
  settings: { safety(): Promise<{ emergencyOpenMic: EmergencyOpenMicMode }> };
  /** Issue 69: the member's last reported position, for an alert raised for it. */
  positions: { latest(userId: number): Promise<{ lat: number; lng: number; accuracy: number | null } | undefined> };
  audit: Pick<AuditStore, 'write'>;
  /** Runs `work` in one transaction (its events wait for the commit). */
  transaction: <T>(work: () => Promise<T>) => Promise<T>;
}) {
  const { store, access, channels, memberships, users, presence, activities, events } = deps;
  /**
   * This instance's latest alert per user: two presses at once must not both pass the database check. `own`: the
   * alerts it raised itself (its own SOS waits only for those); `any`: every alert of the user (one raised for it
   * waits for any).
   */
  const lastRaised = { own: new Map<number, number>(), any: new Map<number, number>() };

  /** The channels that hear about an alert: the sender's, and the alert's (their rooms and ids). */
  const whereFor = async (alert: EmergencyAlert): Promise<{ rooms: string[]; channelIds: number[] }> => {
    const own = alert.userId !== null ? await memberships.channelsOfMember(alert.userId) : [];
    const channel = alert.channelId !== null ? await channels.byId(alert.channelId) : undefined;
    const all = channel ? [...own, { id: channel.id, rtcSession: channel.rtcSession }] : own;
    return { rooms: [...new Set(all.map((c) => c.rtcSession))], channelIds: [...new Set(all.map((c) => c.id))] };
  };

  /**
   * At most one alert per 30 s: a user's own waits for its own last one (an alert a dispatcher raised for it does
   * not hold back its own SOS, which opens its microphone); one raised for it waits for any. Answers the undo of
   * this instance's mark, for a raise that fails afterwards.
   */
  async function limit(userId: number, raisedForIt: boolean, now: number): Promise<() => void> {
    const since = new Date(now - EMERGENCY_MIN_INTERVAL_MS);
    const marks = raisedForIt ? lastRaised.any : lastRaised.own;
    if ((marks.get(userId) ?? 0) > since.getTime() || (await store.latestOf(userId, since, !raisedForIt)))
      throw raisedForIt ? new HttpError(429, 'emergency_raised_recently') : new HttpError(429, TOO_SOON);
    const set = raisedForIt ? [lastRaised.any] : [lastRaised.own, lastRaised.any];
    const before = set.map((map) => map.get(userId));
    for (const map of set) {
      map.set(userId, now);
      for (const [id, at] of map) if (at <= since.getTime()) map.delete(id);
    }
    return () =>
      set.forEach((map, i) => {
        const was = before[i];
        if (map.get(userId) !== now) return;
        if (was === undefined) map.delete(userId);
        else map.set(userId, was);
      });
  }

  async function raiseFor(
    sender: Reader,
    input: AlertInput,
    raisedBy?: { userId: number; displayName: string },
    options: { limited?: boolean; audit?: (alert: EmergencyAlert) => Promise<void> } = {},
  ): Promise<EmergencyAlert> {
    const now = Date.now();
    const undo = options.limited !== false ? await limit(sender.userId, raisedBy !== undefined, now) : () => {};
    try {
      const alert = await raiseNow(sender, input, now, raisedBy);
      await options.audit?.(alert);
      return alert;
    } catch (error) {
      undo();
      throw error;
    }
  }

  async function raiseNow(
    sender: Reader,
    input: AlertInput,
    now: number,
    raisedBy?: { userId: number; displayName: string },
  ): Promise<EmergencyAlert> {
    let channel: ChannelSummary | undefined;
    if (input.channelId !== undefined) channel = await access.requireReader(sender, input.channelId);
    else {
      // The channel it is in now; a private call's hidden channel is no place to send help to.
      for (const inChannel of (await presence.status(sender.userId)).channelIds) {
        channel = await channels.listed(inChannel);
        if (channel) break;
      }
    }
    const user = await users.row(sender.userId);
    if (!user) throw notFound('User');
    const position =
      input.lat !== undefined && input.lng !== undefined
        ? { lat: input.lat, lng: input.lng, accuracy: input.accuracy ?? null }
        : undefined;
    const reason = input.reason ?? 'sos';
    const alert = await store.create(
      { userId: sender.userId, displayName: user.display_name, channel, position, reason, raisedBy },
      new Date(now),
    );
    // The member's own SOS opens its microphone; one raised for it, only where the organisation says so.
    const openMic = !raisedBy || (await deps.settings.safety()).emergencyOpenMic === 'any_alert';
    events.emit('emergencyRaised', { alert, ...(await whereFor(alert)), channel, openMic });
    await activities.record('emergency', {
      userId: sender.userId,
      channelId: channel?.id ?? null,
      channelName: channel?.name,
      detail: { alert: { alertId: alert.id, reason, ...(raisedBy ? { raisedBy: raisedBy.displayName } : {}) } },
    });
    return alert;
  }

  return {
    /**
     * An SOS from `sender` for itself, or (issue 60, `input.userId`) for a member: the alert is the member's,
     * `raisedBy` names the caller. Issue 69: in `input.channelId` (required), a channel the caller dispatches
     * (`channel.dispatch` there) and the member belongs to (403 otherwise, whether or not the user exists), at the
     * member's last reported position (the caller's lat, lng and accuracy are not used); audited as the caller's
     * (`alert.raise`) with the alert, or not raised at all.
     */
    async raise(sender: Reader, input: AlertInput, origin: AlertOrigin = NO_ORIGIN): Promise<EmergencyAlert> {
      if (input.userId === undefined || input.userId === sender.userId) return raiseFor(sender, input);
      const { channelId, userId } = input;
      if (channelId === undefined)
        throw invalidInput('channelId: required to raise an alert for someone else (userId)');
      // The caller's right first: nothing about the member is said to whoever does not dispatch the channel.
      if (!(await access.may(sender, channelId, 'channel.dispatch'))) throw forbidden('not_allowed');
      if (!(await memberships.rights(channelId, userId))) throw forbidden('not_allowed');
      const [member, by] = await Promise.all([users.row(userId), users.row(sender.userId)]);
      if (!member || !by) throw notFound('User');
      const reader: Reader = { userId: member.id, role: member.role, mapRight: member.map_right === 1 };
      const last = await deps.positions.latest(member.id);
      const position: AlertPosition = last
        ? { lat: last.lat, lng: last.lng, accuracy: last.accuracy ?? undefined }
        : {};
      const raisedBy = { userId: by.id, displayName: by.display_name };
      const audit = (alert: EmergencyAlert) =>
        deps.audit.write({
          actorId: sender.userId,
          action: 'alert.raise',
          targetType: 'alert',
          targetId: alert.id,
          targetName: alert.display_name,
          changes: {
            raisedFor: { before: null, after: { userId: alert.userId, name: alert.display_name } },
            channelId: { before: null, after: channelId },
          },
          address: origin.address,
          requestId: origin.requestId,
        });
      // One transaction: the alert, its activity and its audit row, or none; its pushes wait for the commit.
      return deps.transaction(() => raiseFor(reader, { channelId, reason: 'sos', ...position }, raisedBy, { audit }));
    },

    /** Issue 60: the server's own SOS for a lone worker who answered no check (no rate limit: it is due). */
    async raiseLoneWorker(userId: number, position?: AlertPosition): Promise<EmergencyAlert | undefined> {
      const member = await users.row(userId);
      if (!member) return undefined;
      const reader: Reader = { userId: member.id, role: member.role, mapRight: member.map_right === 1 };
      return raiseFor(reader, { ...position, reason: 'lone_worker' }, undefined, { limited: false });
    },

    /** Taken by an administrator, or by a dispatcher of the alert's channel (of its sender's, without one). */
    async acknowledge(taker: Reader, alertId: number): Promise<EmergencyAlert> {
      const user = await users.row(taker.userId);
      if (!user) throw notFound('User');
      const alert = await store.byId(alertId);
      if (!alert) throw notFound('Emergency alert');
      const { channelIds } = await whereFor(alert);
      const concerned = alert.channelId !== null ? [alert.channelId] : channelIds;
      if (
        !may(taker, null, 'channel.alerts') &&
        !(await someChannel(concerned, (id) => access.may(taker, id, 'channel.alerts')))
      )
        throw forbidden('not_allowed');
      const taken = await store.acknowledge(alertId, { userId: taker.userId, displayName: user.display_name });
      if (!taken) throw notFound('Emergency alert');
      if (taken.changed) events.emit('emergencyAcknowledged', { alert: taken.alert, ...(await whereFor(taken.alert)) });
      return taken.alert;
    },

    /**
     * Closed with its outcome (issue 50) by an administrator, or by a dispatcher of the alert's channel (an alert
     * without channel: administrators only); an open alert is taken by the same step. In the activity log
     * (emergency_close, with how long the alert was open) and pushed like an acknowledgement.
     */
    async close(closer: Reader, alertId: number, outcome: EmergencyOutcome): Promise<EmergencyAlert> {
      const user = await users.row(closer.userId);
      if (!user) throw notFound('User');
      const alert = await store.byId(alertId);
      if (!alert) throw notFound('Emergency alert');
      const allowed =
        may(closer, null, 'channel.alerts') ||
        (alert.channelId !== null && (await access.may(closer, alert.channelId, 'channel.alerts')));
      if (!allowed) throw forbidden('not_allowed');
      if (alert.closedAt) throw conflict(closedAlready(alert));
      const closed = await store.close(alertId, { userId: closer.userId, displayName: user.display_name }, outcome);
      if (!closed) throw notFound('Emergency alert');
      // Closed meanwhile by someone else (two at once): the one whose write passed tells it.
      if (!closed.changed) throw conflict(closedAlready(closed.alert));
      const where = await whereFor(closed.alert);
      events.emit('emergencyAcknowledged', { alert: closed.alert, ...where });
      const channel = alert.channelId !== null ? await channels.byId(alert.channelId) : undefined;
      await activities.record('emergency_close', {
        userId: closer.userId,
        channelId: channel?.id ?? null,
        channelName: channel?.name ?? alert.channelName ?? undefined,
        detail: {
          emergency: {
            alertId,
            outcome,
            openMs: Math.max(0, Date.parse(closed.alert.closedAt ?? '') - Date.parse(alert.createdAt)),
            sender: alert.display_name,
          },
        },
      });
      return closed.alert;
    },

    /** Issue 70: the caller's own open alert (`mine`) and its "Je vais bien" (`reportOk`). */
    ...ownAlerts(deps),

    /** A page of the alerts `reader` may see: all of them, or those of the channels where it takes alerts. */
    async page(reader: Reader, start: number, limit: number) {
      return store.page(start, limit, await access.channelsWhere(reader, 'channel.alerts'));
    },
  };
}

export type EmergencyAlerts = ReturnType<typeof emergencyAlerts>;
