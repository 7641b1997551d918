/**
 * Private calls (issue 27): a call rings the callee's pages for 30 s (PRIVATE_CALL_RING_SECONDS); accepted, both parties
 * talk push-to-talk in their hidden channel (one per pair of users, made on their first call, kept for its
 * voice history); declined, missed, cancelled or hung up, it is over and one `private_call` activity keeps it.
 * Real time pushes each change to both parties (privateCallChanged) and puts them out of the channel's room
 * when the call is over. Who may call whom is protocol's `mayCallPrivately`.
 */
import { mayCallPrivately, type PrivateCall, type PrivateCallState } from '@talkgroup/protocol';
import type { ActivityStore } from '../activities/store.ts';
import type { CallLimiter } from '../auth/rate-limit.ts';
import type { Reader } from '../channels/access.ts';
import type { MembershipStore } from '../channels/membership.ts';
import type { ChannelStore } from '../channels/store.ts';
import type { EventBus } from '../events.ts';
import { badRequest, conflict, forbidden, HttpError, notFound } from '../http/errors.ts';
import type { PresenceStore } from '../presence/store.ts';
import type { SettingsStore } from '../settings/store.ts';
import type { UserStore } from '../users/store.ts';
import { OPEN_STATES, type PrivateCallStore } from './store.ts';

/** An answered call whose parties are both gone from its room this long is over (a server that stopped meanwhile). */
const ABANDONED_MS = 60_000;

export function privateCalls(deps: {
  store: PrivateCallStore;
  channels: ChannelStore;
  memberships: MembershipStore;
  users: UserStore;
  presence: PresenceStore;
  activities: ActivityStore;
  settings: SettingsStore;
  events: EventBus;
  /** How long a call rings before it is missed (PRIVATE_CALL_RING_SECONDS). */
  ringMs: number;
  /** Calls a user may start per minute. */
  limit: CallLimiter;
}) {
  const { store, channels, memberships, users, presence, activities, settings, events, ringMs, limit } = deps;
  /** This instance's ring timers: a call nobody answers is missed. */
  const ringing = new Map<number, NodeJS.Timeout>();

  const disarm = (callId: number) => {
    clearTimeout(ringing.get(callId));
    ringing.delete(callId);
  };

  /** Moves the call on, announces it, and keeps an ended call as an activity. */
  async function move(call: PrivateCall, to: PrivateCallState, from = OPEN_STATES): Promise<PrivateCall | undefined> {
    const now = new Date();
    const moved = await store.move(call.callId, from, {
      state: to,
      ...(to === 'active' ? { answeredAt: now } : { endedAt: now }),
    });
    if (!moved) return undefined;
    if (to !== 'active' && to !== 'ringing') {
      disarm(call.callId);
      const answered = moved.answeredAt ? now.getTime() - Date.parse(moved.answeredAt) : undefined;
      await activities.record('private_call', {
        userId: moved.caller.userId,
        channelId: moved.channelId,
        channelName: moved.callee.name,
        ...(answered !== undefined ? { durationMs: answered } : {}),
      });
    }
    events.emit('privateCallChanged', { call: moved });
    return moved;
  }

  /**
   * Settles a call left open by time: ringing past its ring, or answered with nobody left in its room for a
   * while (its instance stopped before it could end it). The open call after, or undefined once over.
   */
  async function settle(call: PrivateCall): Promise<PrivateCall | undefined> {
    const now = Date.now();
    if (call.state === 'ringing' && now - Date.parse(call.startedAt) >= ringMs) {
      await move(call, 'missed', ['ringing']);
      return undefined;
    }
    if (call.state === 'active' && call.answeredAt && now - Date.parse(call.answeredAt) >= ABANDONED_MS) {
      const present = await Promise.all(
        [call.caller.userId, call.callee.userId].map((userId) =>
          userId === null ? undefined : presence.socketIn(userId, call.channelId),
        ),
      );
      if (present.every((socket) => !socket)) {
        await move(call, 'ended', ['active']);
        return undefined;
      }
    }
    return call;
  }

  async function openCallOf(userId: number): Promise<PrivateCall | undefined> {
    for (const call of await store.openOf(userId)) {
      const open = await settle(call);
      if (open) return open;
    }
    return undefined;
  }

  async function partyCall(user: Reader, callId: number): Promise<PrivateCall> {
    const call = await store.byId(callId);
    if (!call) throw notFound('private_call_not_found');
    if (call.caller.userId !== user.userId && call.callee.userId !== user.userId) throw forbidden('not_a_call_party');
    return call;
  }

  const nameOf = (row: { display_name: string; first_name: string; last_name: string }) =>
    row.display_name || `${row.first_name} ${row.last_name}`.trim();

  return {
    async start(caller: Reader, calleeId: number): Promise<PrivateCall> {
      if (calleeId === caller.userId) throw badRequest('call_self');
      await limit(caller.userId);
      const [callerRow, calleeRow] = await Promise.all([users.row(caller.userId), users.row(calleeId)]);
      if (!callerRow || !calleeRow) throw notFound('user_not_found');
      const callee = { role: calleeRow.role, mapRight: calleeRow.map_right === 1 };
      const shared = await memberships.shareAChannel(caller.userId, calleeId);
      if (!mayCallPrivately(caller, callee, shared, await settings.calls()))
        throw new HttpError(403, 'call_not_allowed', { name: nameOf(calleeRow) });
      if (await openCallOf(caller.userId)) throw conflict('call_in_progress');
      if (await openCallOf(calleeId)) throw conflict('call_busy', { name: nameOf(calleeRow) });

      const channel = await channels.privateChannel([caller.userId, calleeId]);
      await memberships.add(channel.id, [caller.userId, calleeId]);
      const call = await store.create({
        channelId: channel.id,
        caller: { id: caller.userId, name: nameOf(callerRow) },
        callee: { id: calleeId, name: nameOf(calleeRow) },
      });
      const timer = setTimeout(() => {
        ringing.delete(call.callId);
        void move(call, 'missed', ['ringing']).catch(() => {});
      }, ringMs);
      timer.unref();
      ringing.set(call.callId, timer);
      events.emit('privateCallChanged', { call });
      return call;
    },

    /** The callee takes the call or declines it, while it rings. */
    async answer(user: Reader, callId: number, accept: boolean): Promise<PrivateCall> {
      const call = await partyCall(user, callId);
      if (call.callee.userId !== user.userId) throw forbidden('not_a_call_party');
      const open = await settle(call);
      const answered = open && (await move(open, accept ? 'active' : 'declined', ['ringing']));
      if (!answered) throw new HttpError(409, 'call_not_ringing');
      return answered;
    },

    /** A party hangs up: a ringing call is cancelled (the caller) or declined (the callee). */
    async end(user: Reader, callId: number): Promise<PrivateCall> {
      const call = await partyCall(user, callId);
      if (call.state === 'ringing')
        return (await move(call, call.caller.userId === user.userId ? 'cancelled' : 'declined', ['ringing'])) ?? call;
      if (call.state === 'active') return (await move(call, 'ended', ['active'])) ?? call;
      return call;
    },

    /** A party's page is gone from the call's room and did not come back: the call ends. */
    async abandoned(userId: number, channelId: number): Promise<void> {
      if (await presence.socketIn(userId, channelId)) return;
      for (const call of await store.openIn(channelId))
        if (call.caller.userId === userId || call.callee.userId === userId) await move(call, 'ended');
    },

    /** Whether this user may be in this hidden channel's room now: one of its calls is answered. */
    async mayEnter(userId: number, channelId: number): Promise<boolean> {
      const open = await store.openIn(channelId);
      return open.some(
        (call) => call.state === 'active' && (call.caller.userId === userId || call.callee.userId === userId),
      );
    },

    history: (userId: number, limit: number) => store.ofUser(userId, limit),

    stop(): void {
      for (const timer of ringing.values()) clearTimeout(timer);
      ringing.clear();
    },
  };
}

export type PrivateCalls = ReturnType<typeof privateCalls>;
