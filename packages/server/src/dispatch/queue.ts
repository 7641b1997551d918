/**
 * The dispatcher's call queue (issue 49, docs/dispatchers/dispatch-console.md): a member asks for dispatch; the
 * dispatchers and administrators who may dispatch its channel take it (a private call, or an answer on the
 * channel), send it back, transfer it, close it. Each step is one conditional write (queue-store.ts), an activity
 * of its own with its times, and a `dispatchCallsChanged` event for the request and for the waiting requests whose
 * place it moved. The sweep (queue-sweep.ts) reminds, expires, brings unanswered transfers back and drops the
 * requests whose member left.
 */
import {
  type ActivityType,
  type DispatchAnswer,
  type DispatchPriority,
  type DispatchRequest,
  type DispatchRequestState,
  may,
  OPEN_DISPATCH_STATES,
} from '@talkgroup/protocol';
import type { ActivityStore } from '../activities/store.ts';
import type { PrivateCalls } from '../calls/private-calls.ts';
import type { ChannelAccess, Reader } from '../channels/access.ts';
import type { Config } from '../config/config.ts';
import { isUniqueViolation } from '../db/unique.ts';
import type { EventBus } from '../events.ts';
import { badRequest, conflict, forbidden, notFound } from '../http/errors.ts';
import type { UserStore } from '../users/store.ts';
import {
  type ClosingChange,
  closeDetail,
  closingChange,
  DISPATCH_ROLES,
  type DispatchClose,
  type DispatchQueueStore,
  handledMs,
  type MoveGuard,
  queueOrder,
  type RequestRow,
  toRequest,
  waitedMs,
} from './queue-store.ts';

const OPEN: readonly DispatchRequestState[] = OPEN_DISPATCH_STATES;
const iso = (ms: number) => new Date(ms).toISOString();

export interface DispatchQueueDeps {
  store: DispatchQueueStore;
  access: ChannelAccess;
  users: UserStore;
  privateCalls: PrivateCalls;
  activities: ActivityStore;
  events: EventBus;
  limits: Config['dispatch'];
  /** A failure that must not fail the step (a private call that could not ring, a sweep that failed). */
  onError: (error: unknown, what: string) => void;
  now?: () => number;
}

export function dispatchQueue(deps: DispatchQueueDeps) {
  const { store, access, users, activities, events, limits } = deps;
  const now = deps.now ?? Date.now;

  /**
   * Pushes these rows, and the waiting requests behind any of them in the queue (their place moved), each with
   * its place now; answers the rows as the contract gives them.
   */
  async function publish(rows: RequestRow[], options: { reminded?: boolean } = {}): Promise<DispatchRequest[]> {
    const at = now();
    const queue = await store.waiting();
    const position = new Map(queue.map((row, index) => [row.id, index + 1]));
    const changed = new Map(rows.map((row) => [row.id, row]));
    for (const row of queue) if (rows.some((moved) => queueOrder(moved, row) < 0)) changed.set(row.id, row);
    const requests = [...changed.values()].map((row) => toRequest(row, position.get(row.id) ?? null, at));
    if (requests.length > 0)
      events.emit('dispatchCallsChanged', { requests, ...(options.reminded ? { reminded: true } : {}) });
    return requests.filter((request) => rows.some((row) => row.id === request.requestId));
  }

  async function record(
    type: ActivityType,
    row: RequestRow,
    actorId: number,
    extra: { to?: string; at?: number } = {},
  ) {
    const at = extra.at ?? now();
    await activities.record(type, {
      userId: actorId,
      channelId: row.channel_id,
      channelName: row.channel_name,
      waitedMs: waitedMs(row, at),
      handledMs: handledMs(row, at),
      detail: {
        dispatch: {
          requestId: row.id,
          requester: row.requester_name,
          priority: row.priority,
          ...(extra.to ? { to: extra.to } : {}),
          ...(row.answer && type === 'dispatch_take' ? { answer: row.answer } : {}),
          ...(type === 'dispatch_close' ? closeDetail(row) : {}),
        },
      },
    });
  }

  const mayDispatchEverywhere = (reader: Reader) => may(reader, null, 'channel.dispatch');

  /** The request, if `reader` may see it as a dispatcher of its channel; 404 otherwise (it is not theirs to know). */
  async function dispatchable(reader: Reader, requestId: number): Promise<RequestRow> {
    const row = await store.byId(requestId);
    if (!row || !(await access.may(reader, row.channel_id, 'channel.dispatch')))
      throw notFound('dispatch_request_not_found');
    return row;
  }

  /**
   * 409 for a request already over; "Already taken by {name}" for one in another's hands; "not taken" for one
   * back in the queue.
   */
  function refuseMove(row: RequestRow): never {
    if (!OPEN.includes(row.state as DispatchRequestState)) throw conflict('dispatch_request_ended');
    if (row.held_by_name === null) throw conflict('dispatch_not_taken');
    throw conflict('dispatch_already_taken', { name: row.held_by_name });
  }

  /** 409: over already, or not in a dispatcher's hands now. */
  function refuseNotTaken(row: RequestRow): never {
    if (!OPEN.includes(row.state as DispatchRequestState)) throw conflict('dispatch_request_ended');
    throw conflict('dispatch_not_taken');
  }

  /**
   * Its holder, or one who dispatches every channel (an administrator); what the write must find still so: held
   * by the caller, or (an administrator's) by whom it was held when read.
   */
  function requireHolder(reader: Reader, row: RequestRow): MoveGuard {
    if (!OPEN.includes(row.state as DispatchRequestState)) throw conflict('dispatch_request_ended');
    if (row.held_by_id === reader.userId) return { heldBy: reader.userId };
    if (!mayDispatchEverywhere(reader)) throw forbidden('dispatch_not_holder');
    return { heldBy: row.held_by_id };
  }

  async function nameOf(userId: number): Promise<string> {
    const user = await users.row(userId);
    if (!user) throw notFound('user_not_found');
    return user.display_name;
  }

  /** Back in the queue at its place (its first written time), its waits so far kept. */
  const backToQueue = (row: RequestRow, at: number) => ({
    state: 'waiting' as const,
    held_by_id: null,
    held_by_name: null,
    transfer_to_id: null,
    transfer_to_name: null,
    transfer_until: null,
    answer: null,
    call_id: null,
    waiting_since: iso(at),
    remind_at: row.reminded_at ? null : iso(at + Math.max(0, limits.remindMs - row.waited_before_ms)),
    expire_at: iso(at + Math.max(0, limits.expireMs - row.waited_before_ms)),
  });

  /** Ends an open request (closed, cancelled, abandoned, expired) and records it. */
  async function end(
    row: RequestRow,
    state: 'closed' | 'cancelled' | 'abandoned' | 'expired',
    actorId: number,
    from: readonly DispatchRequestState[] = OPEN,
    guard: MoveGuard = {},
    closing: ClosingChange = {},
  ): Promise<RequestRow | undefined> {
    const at = now();
    const ended = await store.move(
      row.id,
      from,
      {
        ...closing,
        state,
        ended_at: iso(at),
        waited_before_ms: waitedMs(row, at),
        waiting_since: null,
        remind_at: null,
        expire_at: null,
        transfer_until: null,
      },
      guard,
    );
    if (!ended) return undefined;
    const type = (
      {
        closed: 'dispatch_close',
        cancelled: 'dispatch_cancel',
        abandoned: 'dispatch_abandon',
        expired: 'dispatch_expire',
      } as const
    )[state];
    await record(type, ended, actorId);
    await publish([ended]);
    return ended;
  }

  return {
    publish,
    end,
    backToQueue,

    async request(
      member: Reader,
      input: { channelId: number; priority: DispatchPriority; note: string },
    ): Promise<{ requestId: number; position: number }> {
      const channel = await access.requireReader(member, input.channelId);
      const name = await nameOf(member.userId);
      let row: RequestRow;
      try {
        row = await store.insert({
          channelId: channel.id,
          channelName: channel.name,
          requesterId: member.userId,
          requesterName: name,
          priority: input.priority,
          note: input.note,
          now: now(),
          limits,
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict('dispatch_request_open');
        throw error;
      }
      await record('dispatch_request', row, member.userId, { at: Date.parse(row.created_at) });
      const [request] = await publish([row]);
      return { requestId: row.id, position: request?.position ?? 1 };
    },

    async cancel(member: Reader, requestId: number): Promise<DispatchRequest> {
      const row = await store.byId(requestId);
      if (!row || row.requester_id !== member.userId) throw notFound('dispatch_request_not_found');
      const ended = await end(row, 'cancelled', member.userId);
      if (!ended) throw conflict('dispatch_request_ended');
      return toRequest(ended, null, now());
    },

    async take(dispatcher: Reader, requestId: number, answer: DispatchAnswer): Promise<DispatchRequest> {
      const row = await dispatchable(dispatcher, requestId);
      const name = await nameOf(dispatcher.userId);
      const at = now();
      const taken = await store.move(row.id, ['waiting'], {
        state: 'taken',
        held_by_id: dispatcher.userId,
        held_by_name: name,
        answer,
        call_id: null,
        first_taken_at: row.first_taken_at ?? iso(at),
        waited_before_ms: waitedMs(row, at),
        waiting_since: null,
        remind_at: null,
        expire_at: null,
      });
      if (!taken) refuseMove((await store.byId(row.id)) ?? row);
      let held = taken;
      if (answer === 'private') {
        // It rings at once; a call that cannot ring (the member is in another call) leaves the request taken.
        try {
          const { call } = await deps.privateCalls.start(dispatcher, row.requester_id, {
            requestId: row.id,
            note: row.note,
          });
          held =
            (await store.move(row.id, ['taken'], { call_id: call.callId }, { heldBy: dispatcher.userId })) ?? taken;
        } catch (error) {
          deps.onError(error, `ringing the member of dispatch request ${requestId}`);
        }
      }
      await record('dispatch_take', held, dispatcher.userId);
      const [request] = await publish([held]);
      return request ?? toRequest(held, null, now());
    },

    async sendBack(dispatcher: Reader, requestId: number): Promise<DispatchRequest> {
      const row = await dispatchable(dispatcher, requestId);
      if (row.state !== 'taken') refuseNotTaken(row);
      const holder = requireHolder(dispatcher, row);
      const back = await store.move(row.id, ['taken'], backToQueue(row, now()), holder);
      if (!back) refuseMove((await store.byId(row.id)) ?? row);
      await record('dispatch_return', back, dispatcher.userId);
      const [request] = await publish([back]);
      return request ?? toRequest(back, null, now());
    },

    async transfer(dispatcher: Reader, requestId: number, toUserId: number): Promise<DispatchRequest> {
      const row = await dispatchable(dispatcher, requestId);
      if (row.state !== 'taken') refuseNotTaken(row);
      const holder = requireHolder(dispatcher, row);
      const target = await users.row(toUserId);
      const reader = target && { userId: target.id, role: target.role, mapRight: target.map_right === 1 };
      if (
        !target ||
        !reader ||
        target.disabled_at !== null ||
        toUserId === row.held_by_id ||
        !(await access.may(reader, row.channel_id, 'channel.dispatch'))
      )
        throw badRequest('dispatch_transfer_target');
      const moved = await store.move(
        row.id,
        ['taken'],
        {
          state: 'transferring',
          transfer_to_id: target.id,
          transfer_to_name: target.display_name,
          transfer_until: iso(now() + limits.transferMs),
        },
        holder,
      );
      if (!moved) refuseMove((await store.byId(row.id)) ?? row);
      await record('dispatch_transfer', moved, dispatcher.userId, { to: target.display_name });
      const [request] = await publish([moved]);
      return request ?? toRequest(moved, null, now());
    },

    async answerTransfer(dispatcher: Reader, requestId: number, accept: boolean): Promise<DispatchRequest> {
      const row = await dispatchable(dispatcher, requestId);
      if (row.state !== 'transferring' || row.transfer_to_id !== dispatcher.userId)
        throw forbidden('dispatch_not_transfer_target');
      // Still to this dispatcher and not yet over: a transfer past its time is its holder's again, even before the
      // sweep brings it back.
      const moved = await store.move(
        row.id,
        ['transferring'],
        {
          state: 'taken',
          ...(accept
            ? { held_by_id: dispatcher.userId, held_by_name: row.transfer_to_name, answer: null, call_id: null }
            : {}),
          transfer_to_id: null,
          transfer_to_name: null,
          transfer_until: null,
        },
        { transferTo: { userId: dispatcher.userId, at: now() } },
      );
      if (!moved) throw forbidden('dispatch_not_transfer_target');
      // Accepted, the request is taken by another: a take of its own (its answer says it came by transfer).
      if (accept) await record('dispatch_take', { ...moved, answer: 'transfer' }, dispatcher.userId);
      const [request] = await publish([moved]);
      return request ?? toRequest(moved, null, now());
    },

    /** Closed by its holder or an administrator, saying how it ended (issue 58). */
    async close(dispatcher: Reader, requestId: number, how: DispatchClose = {}): Promise<DispatchRequest> {
      const row = await dispatchable(dispatcher, requestId);
      const holder = requireHolder(dispatcher, row);
      const closer = { userId: dispatcher.userId, name: await nameOf(dispatcher.userId) };
      const ended = await end(row, 'closed', dispatcher.userId, OPEN, holder, closingChange(how, closer));
      if (!ended) refuseMove((await store.byId(row.id)) ?? row);
      return toRequest(ended, null, now());
    },

    /**
     * A dispatcher's or administrator's: the requests of the channels it may dispatch, and its own; a member's:
     * its own. Open ones and those that ended today (the server's day), in the queue's order.
     */
    async list(reader: Reader, state?: DispatchRequestState): Promise<DispatchRequest[]> {
      const channelIds = await access.channelsWhere(reader, 'channel.dispatch');
      const startOfDay = new Date(now());
      startOfDay.setHours(0, 0, 0, 0);
      const rows = await store.visible(
        channelIds === undefined ? {} : { channelIds, requesterId: reader.userId },
        startOfDay.getTime(),
      );
      const at = now();
      const queue = await store.waiting();
      const position = new Map(queue.map((row, index) => [row.id, index + 1]));
      const rank = (row: RequestRow) =>
        row.state === 'waiting' ? 0 : OPEN.includes(row.state as DispatchRequestState) ? 1 : 2;
      return rows
        .filter((row) => state === undefined || row.state === state)
        .sort(
          (a, b) =>
            rank(a) - rank(b) ||
            (rank(a) === 0 ? queueOrder(a, b) : 0) ||
            (rank(a) === 2 ? Date.parse(b.ended_at ?? '') - Date.parse(a.ended_at ?? '') : a.id - b.id),
        )
        .map((row) => toRequest(row, position.get(row.id) ?? null, at));
    },

    /** Who `requestId` may go to: the other dispatchers of its channel and the administrators, online first. */
    async transferTargets(dispatcher: Reader, requestId: number) {
      const row = await dispatchable(dispatcher, requestId);
      const candidates = (await store.dispatchersOf(row.channel_id, DISPATCH_ROLES)).filter(
        (user) => user.id !== dispatcher.userId && user.id !== row.held_by_id,
      );
      const online = await store.online(candidates.map((user) => user.id));
      return candidates
        .map((user) => ({ userId: user.id, name: user.name, online: online.has(user.id) }))
        .sort((a, b) => Number(b.online) - Number(a.online));
    },
  };
}

export type DispatchQueue = ReturnType<typeof dispatchQueue>;
