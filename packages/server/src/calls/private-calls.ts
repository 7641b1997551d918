/**
 * Private calls (issue 27): a call rings the callee's pages for 30 s (PRIVATE_CALL_RING_SECONDS); accepted, both parties
 * talk push-to-talk in their hidden channel (one per pair of users, made on their first call, kept for its
 * voice history); declined, missed, cancelled or hung up, it is over and one `private_call` activity keeps it.
 * Real time pushes each change to both parties (privateCallChanged) and puts them out of the channel's room
 * when the call is over. Who may call whom is protocol's `mayCallPrivately`.
 */
import { mayCallPrivately, type PrivateCall, type PrivateCallState, type SharedChannel } from '@talkgroup/protocol';
import type { ActivityStore } from '../activities/store.ts';
import type { AliasStore } from '../aliases/store.ts';
import type { CallLimiter } from '../auth/rate-limit.ts';
import type { Reader } from '../channels/access.ts';
import { type MembershipStore, standingOf } from '../channels/membership.ts';
import type { ChannelStore } from '../channels/store.ts';
import { isUniqueViolation } from '../db/unique.ts';
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
  /** Functional aliases (issue 59): a call to one rings its holders. */
  aliases: AliasStore;
  /** How long a call rings before it is missed (PRIVATE_CALL_RING_SECONDS). */
  ringMs: number;
  /** Calls a user may start per minute. */
  limit: CallLimiter;
}) {
  const { store, channels, memberships, users, presence, activities, settings, events, aliases, ringMs, limit } = deps;
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
      // The entry names the callee, not the hidden channel: no id of it leaves the call (issue 35).
      await activities.record('private_call', {
        userId: moved.caller.userId,
        channelId: null,
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

  /** The open call of this user's call_parties row, settled first (one over by time frees it); undefined if free. */
  async function busyWith(userId: number): Promise<PrivateCall | undefined> {
    const call = await store.callOfParty(userId);
    if (!call) return undefined;
    if (!OPEN_STATES.includes(call.state)) {
      // A row its call's end left behind (never, when the end moved it in one transaction): freed.
      await store.freeParties(call.callId);
      return undefined;
    }
    return settle(call);
  }

  /** Whether `call` is the one `calleeId` is ringing `callerId` with: a call made now crosses it. */
  const crosses = (call: PrivateCall | undefined, callerId: number, calleeId: number): call is PrivateCall =>
    call?.state === 'ringing' && call.caller.userId === calleeId && call.callee.userId === callerId;

  /** The ring of a new call: nobody answers within ringMs, it is missed. */
  function arm(call: PrivateCall): void {
    const timer = setTimeout(() => {
      ringing.delete(call.callId);
      void move(call, 'missed', ['ringing']).catch(() => {});
    }, ringMs);
    timer.unref();
    ringing.set(call.callId, timer);
  }

  async function partyCall(user: Reader, callId: number): Promise<PrivateCall> {
    const call = await store.byId(callId);
    if (!call) throw notFound('private_call_not_found');
    if (call.caller.userId !== user.userId && call.callee.userId !== user.userId && !rungHolder(call, user.userId))
      throw forbidden('not_a_call_party');
    return call;
  }

  /** The standings of a caller and a callee in each channel they share (protocol's mayCallPrivately reads them). */
  const sharedWith = async (callerId: number, calleeId: number): Promise<SharedChannel[]> =>
    (await memberships.sharedChannels(callerId, calleeId)).map(({ mine, theirs }) => ({
      caller: standingOf(mine),
      callee: standingOf(theirs),
    }));

  /** Whether this user is a holder an alias call rings now (issue 59): it may answer it as the callee does. */
  const rungHolder = (call: PrivateCall, userId: number) =>
    call.state === 'ringing' && call.alias?.ringing.includes(userId) === true;

  /**
   * The holders of an alias whom this caller may call (the rule of a call by name) and who are in no other call,
   * the longest holder first. Why none: nobody holds it (409 alias_not_held), none may be called by this caller
   * (403), or all are busy (409).
   */
  async function holdersToRing(caller: Reader, aliasId: number) {
    const alias = await aliases.byId(aliasId);
    if (!alias) throw notFound('alias_not_found');
    const holders = alias.holders.filter((holder) => holder.userId !== caller.userId);
    if (holders.length === 0) throw conflict('alias_not_held', { name: alias.name });
    const rules = await settings.calls();
    const reachable: Array<{ id: number; name: string }> = [];
    for (const holder of holders) {
      const row = await users.row(holder.userId);
      if (!row) continue;
      const shared = await sharedWith(caller.userId, holder.userId);
      if (mayCallPrivately(caller, { role: row.role, mapRight: row.map_right === 1 }, shared, rules))
        reachable.push({ id: holder.userId, name: nameOf(row) });
    }
    if (reachable.length === 0) throw forbidden('call_not_allowed');
    const free: typeof reachable = [];
    for (const holder of reachable) if (!(await busyWith(holder.id))) free.push(holder);
    if (free.length === 0) throw conflict('call_busy');
    return { alias, free };
  }

  const nameOf = (row: { display_name: string; first_name: string; last_name: string }) =>
    row.display_name || `${row.first_name} ${row.last_name}`.trim();

  /**
   * A holder declines a call to an alias while others still ring: it alone stops ringing (told by the change's
   * push); when it was the callee, the next free holder takes its place. The call as the decliner sees it
   * (declined), or undefined when nobody else can take it (the call is then declined for all).
   */
  async function leaveRing(call: PrivateCall, callerId: number, holderId: number): Promise<PrivateCall | undefined> {
    const rest = (call.alias?.ringing ?? []).filter((id) => id !== holderId);
    const announce = (left: PrivateCall) => {
      events.emit('privateCallChanged', { call: left, also: [holderId] });
      return { ...left, state: 'declined' as const };
    };
    if (rest.length === 0) return undefined;
    if (call.callee.userId !== holderId) {
      const left = await store.leaveRing(call.callId, holderId, rest);
      return left && announce(left);
    }
    for (const nextId of rest) {
      const row = await users.row(nextId);
      if (!row) continue;
      const channel = await channels.privateChannel([callerId, nextId]);
      try {
        const next = { id: nextId, name: nameOf(row), channelId: channel.id };
        const left = await store.leaveRing(call.callId, holderId, rest, next);
        return left && announce(left);
      } catch (error) {
        // That holder got into another call meanwhile: the next one.
        if (!isUniqueViolation(error)) throw error;
      }
    }
    return undefined;
  }

  /** Another holder than the first accepts a call to an alias: the call becomes theirs, in their pair's channel. */
  async function answerAsHolder(call: PrivateCall, callerId: number, firstId: number, holderId: number) {
    const open = await settle(call);
    const row = await users.row(holderId);
    if (!open || !row) throw new HttpError(409, 'call_not_ringing');
    const channel = await channels.privateChannel([callerId, holderId]);
    let answered: PrivateCall | undefined;
    try {
      answered = await store.answerAs(call.callId, firstId, { id: holderId, name: nameOf(row), channelId: channel.id });
    } catch (error) {
      // This holder got into another call since the ring began.
      if (isUniqueViolation(error)) throw conflict('call_in_progress');
      throw error;
    }
    if (!answered) throw new HttpError(409, 'call_not_ringing');
    events.emit('privateCallChanged', { call: answered });
    return answered;
  }

  return {
    /** `request`: the dispatch request this call answers ("Prendre"), said on the callee's ring (issue 58). */
    async start(
      caller: Reader,
      calleeId: number,
      request?: PrivateCall['request'],
    ): Promise<{ call: PrivateCall; crossed: boolean }> {
      if (calleeId === caller.userId) throw badRequest('call_self');
      await limit(caller.userId);
      const [callerRow, calleeRow] = await Promise.all([users.row(caller.userId), users.row(calleeId)]);
      if (!callerRow || !calleeRow) throw notFound('user_not_found');
      const callee = { role: calleeRow.role, mapRight: calleeRow.map_right === 1 };
      const shared = await sharedWith(caller.userId, calleeId);
      // Neither the name nor anything of the person: only that this caller may not call them.
      if (!mayCallPrivately(caller, callee, shared, await settings.calls())) throw forbidden('call_not_allowed');

      const channel = await channels.privateChannel([caller.userId, calleeId]);
      // One call per person is the database's (call_parties): of two calls written at once, one fails and looks
      // again here, where it finds the other.
      for (let attempt = 0; attempt < 3; attempt += 1) {
        // Read one after the other, each party may be found in a call the other instance wrote meanwhile: when
        // that call is the callee ringing this caller (crossed calls), this call is that one, answered.
        const mine = await busyWith(caller.userId);
        const theirs = crosses(mine, caller.userId, calleeId) ? mine : await busyWith(calleeId);
        if (crosses(theirs, caller.userId, calleeId)) {
          const answered = await move(theirs, 'active', ['ringing']);
          if (answered) return { call: answered, crossed: true };
          continue; // It ended meanwhile: look again.
        }
        if (mine) throw conflict('call_in_progress');
        // Busy, and nothing more: not whether the person talks in a call, rings someone or is being called.
        if (theirs) throw conflict('call_busy');
        try {
          const created = await store.create({
            channelId: channel.id,
            caller: { id: caller.userId, name: nameOf(callerRow) },
            callee: { id: calleeId, name: nameOf(calleeRow) },
          });
          const call = request ? { ...created, request } : created;
          arm(call);
          events.emit('privateCallChanged', { call });
          return { call, crossed: false };
        } catch (error) {
          if (!isUniqueViolation(error)) throw error;
        }
      }
      throw conflict('call_busy');
    },

    /**
     * A call to a functional alias (issue 59): rings its free holders whom the caller may call; the first of them
     * is the callee until another answers first (`answer`).
     */
    async startAlias(caller: Reader, aliasId: number): Promise<PrivateCall> {
      await limit(caller.userId);
      const callerRow = await users.row(caller.userId);
      if (!callerRow) throw notFound('user_not_found');
      if (await busyWith(caller.userId)) throw conflict('call_in_progress');
      const { alias, free } = await holdersToRing(caller, aliasId);
      const [first] = free as [{ id: number; name: string }];
      const channel = await channels.privateChannel([caller.userId, first.id]);
      try {
        const call = await store.create({
          channelId: channel.id,
          caller: { id: caller.userId, name: nameOf(callerRow) },
          callee: first,
          alias: { id: alias.id, name: alias.name, ringing: free.map((holder) => holder.id) },
        });
        arm(call);
        events.emit('privateCallChanged', { call });
        return call;
      } catch (error) {
        // The caller or the first holder got into another call meanwhile.
        if (isUniqueViolation(error)) throw conflict('call_busy');
        throw error;
      }
    },

    /**
     * The callee takes the call or declines it, while it rings. A call to an alias: any holder it rings may; the
     * first to accept becomes the callee, and a decline by one ends the ring for all (as a callee's does).
     */
    async answer(user: Reader, callId: number, accept: boolean): Promise<PrivateCall> {
      const call = await partyCall(user, callId);
      if (call.callee.userId !== user.userId && !rungHolder(call, user.userId)) throw forbidden('not_a_call_party');
      if (accept && call.callee.userId !== user.userId && call.callee.userId !== null && call.caller.userId !== null)
        return answerAsHolder(call, call.caller.userId, call.callee.userId, user.userId);
      // A holder's decline leaves the others ringing (a dispatcher calls the function, not that person).
      if (!accept && call.alias && call.state === 'ringing' && call.caller.userId !== null) {
        const left = await leaveRing(call, call.caller.userId, user.userId);
        if (left) return left;
      }
      const open = await settle(call);
      const answered = open && (await move(open, accept ? 'active' : 'declined', ['ringing']));
      if (!answered) throw new HttpError(409, 'call_not_ringing');
      return answered;
    },

    /**
     * The callee, or a holder of the alias it rings, declines from its notification, without a session
     * (push/routes.ts checked that one's decline key first): only while it rings, so once. A holder's decline
     * leaves the others ringing, as on its page.
     */
    async declineRinging(callId: number, holderId?: number): Promise<PrivateCall> {
      const call = await store.byId(callId);
      if (!call) throw notFound('private_call_not_found');
      if (holderId !== undefined && call.alias && call.state === 'ringing' && call.caller.userId !== null) {
        if (!rungHolder(call, holderId)) throw new HttpError(409, 'call_not_ringing');
        const left = await leaveRing(call, call.caller.userId, holderId);
        if (left) return left;
      }
      const open = await settle(call);
      const declined = open && (await move(open, 'declined', ['ringing']));
      if (!declined) throw new HttpError(409, 'call_not_ringing');
      return declined;
    },

    /** A party hangs up: a ringing call is cancelled (the caller) or declined (the callee). */
    async end(user: Reader, callId: number): Promise<PrivateCall> {
      const call = await partyCall(user, callId);
      // A holder of the alias rung hangs up: a decline, which leaves the other holders ringing.
      if (call.state === 'ringing' && call.alias && call.caller.userId !== user.userId)
        return this.answer(user, callId, false);
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

    byId: (callId: number) => store.byId(callId),

    /** Whether this user is one of the pair of this hidden channel (a party of one of its calls). */
    isParty: (userId: number, channelId: number) => store.partyIn(userId, channelId),

    history: (userId: number, limit: number) => store.ofUser(userId, limit),

    /** Every call of a period, for compliance (calls/routes.ts checks who may and audits it). */
    inPeriod: (period: { from?: Date; to?: Date; limit: number }) => store.inPeriod(period),

    stop(): void {
      for (const timer of ringing.values()) clearTimeout(timer);
      ringing.clear();
    },
  };
}

export type PrivateCalls = ReturnType<typeof privateCalls>;
