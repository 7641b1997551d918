/**
 * The dispatch queue's table (issue 49, migration 0030). Every step is one conditional UPDATE (`where state is
 * what the step starts from`, and who holds the request or whom it is transferred to: MoveGuard), so that two
 * dispatchers, or two instances' sweeps, acting at once make one change: the other finds no row and reads who won.
 * A check made on an earlier read alone would let a step act on a request that changed hands meanwhile (issue 57).
 * Times are ISO strings on both databases (they compare as text).
 */
import {
  type DispatchOutcome,
  type DispatchPriority,
  type DispatchRequest,
  type DispatchRequestState,
  may,
  OPEN_DISPATCH_STATES,
  ROLES,
  type Role,
} from '@talkgroup/protocol';
import type { Selectable, Updateable } from 'kysely';
import { rolesHoldingInChannels } from '../channels/membership.ts';
import type { Db, DispatchRequestsTable } from '../db/schema.ts';

export type RequestRow = Selectable<DispatchRequestsTable>;
type Change = Updateable<DispatchRequestsTable>;

const iso = (ms: number) => new Date(ms).toISOString();
const ms = (time: string | null) => (time ? Date.parse(time) : Number.NaN);

/** How long the row has waited, all its waits added, at `now`. */
export function waitedMs(row: RequestRow, now: number): number {
  const current = row.state === 'waiting' && row.waiting_since ? Math.max(0, now - ms(row.waiting_since)) : 0;
  return row.waited_before_ms + current;
}

/** Since its first take, to its end or `now`. */
export function handledMs(row: RequestRow, now: number): number | undefined {
  if (!row.first_taken_at) return undefined;
  const end = row.ended_at ? ms(row.ended_at) : now;
  return Math.max(0, end - ms(row.first_taken_at));
}

/** The one order every dispatcher sees: high priority first, then oldest, then first written. */
export function queueOrder(a: RequestRow, b: RequestRow): number {
  const rank = (row: RequestRow) => (row.priority === 'high' ? 0 : 1);
  return rank(a) - rank(b) || ms(a.created_at) - ms(b.created_at) || a.id - b.id;
}

/** The request as the contract gives it; `position` from the queue read at the same time. */
export function toRequest(row: RequestRow, position: number | null, now: number): DispatchRequest {
  const handled = handledMs(row, now);
  return {
    requestId: row.id,
    channelId: row.channel_id,
    channelName: row.channel_name,
    requester: { userId: row.requester_id, name: row.requester_name },
    priority: row.priority as DispatchPriority,
    note: row.note,
    state: row.state as DispatchRequestState,
    position: row.state === 'waiting' ? position : null,
    waitedMs: waitedMs(row, now),
    ...(row.held_by_id !== null && row.held_by_name !== null && (row.state === 'taken' || row.state === 'transferring')
      ? { heldBy: { userId: row.held_by_id, name: row.held_by_name } }
      : {}),
    ...(row.state === 'transferring' && row.transfer_to_id !== null && row.transfer_to_name !== null
      ? {
          transferTo: { userId: row.transfer_to_id, name: row.transfer_to_name },
          ...(row.transfer_until ? { transferUntil: row.transfer_until } : {}),
        }
      : {}),
    ...(row.reminded_at ? { remindedAt: row.reminded_at } : {}),
    ...(row.answer && row.state === 'taken' ? { answer: row.answer as 'private' | 'channel' } : {}),
    ...(row.call_id !== null && row.state === 'taken' ? { callId: row.call_id } : {}),
    ...(handled !== undefined ? { handledMs: handled } : {}),
    createdAt: row.created_at,
    ...(row.ended_at ? { endedAt: row.ended_at } : {}),
    ...closeOf(row),
  };
}

/** An ended request's last holder, and a closed one's closer, outcome, note and reference (issue 58). */
function closeOf(row: RequestRow): Partial<DispatchRequest> {
  if (OPEN_DISPATCH_STATES.includes(row.state as (typeof OPEN_DISPATCH_STATES)[number])) return {};
  return {
    ...(row.held_by_id !== null && row.held_by_name !== null && row.first_taken_at
      ? { takenBy: { userId: row.held_by_id, name: row.held_by_name } }
      : {}),
    ...(row.state === 'closed' && row.closed_by_id !== null && row.closed_by_name !== null
      ? { closedBy: { userId: row.closed_by_id, name: row.closed_by_name } }
      : {}),
    ...(row.state === 'closed' && row.outcome ? { outcome: row.outcome as DispatchOutcome } : {}),
    ...(row.close_note ? { closeNote: row.close_note } : {}),
    ...(row.reference ? { reference: row.reference } : {}),
  };
}

/**
 * The roles that may dispatch a channel everywhere (administrators), and in their own channels (dispatchers): by a
 * membership that gives their role's rights (`inChannel`), or by any (`inMemberRightsOnly`: none, issue 69).
 */
const inChannels = rolesHoldingInChannels('channel.dispatch');
export const DISPATCH_ROLES = {
  everywhere: ROLES.filter((role) => may({ role }, null, 'channel.dispatch')),
  inChannel: inChannels.inMembership,
  inMemberRightsOnly: inChannels.inMemberRightsOnly,
};

/** How a dispatcher closes a request (issue 58): its outcome (resolved when not said), a note, a reference. */
export interface DispatchClose {
  outcome?: DispatchOutcome;
  note?: string;
  reference?: string;
}
export type ClosingChange = Pick<Change, 'outcome' | 'close_note' | 'reference' | 'closed_by_id' | 'closed_by_name'>;

/** What a close writes besides its state. */
export function closingChange(how: DispatchClose, closer: { userId: number; name: string }): ClosingChange {
  return {
    outcome: how.outcome ?? 'resolved',
    close_note: how.note || null,
    reference: how.reference || null,
    closed_by_id: closer.userId,
    closed_by_name: closer.name,
  };
}

/** What the dispatch_close activity says of how it ended. */
export function closeDetail(row: RequestRow): { outcome?: string; closeNote?: string; reference?: string } {
  return {
    ...(row.outcome ? { outcome: row.outcome } : {}),
    ...(row.close_note ? { closeNote: row.close_note } : {}),
    ...(row.reference ? { reference: row.reference } : {}),
  };
}

/** When a request that starts waiting at `now` is due for its reminder and its expiry, its past waits counted. */
export function dueTimes(
  row: Pick<RequestRow, 'waited_before_ms' | 'reminded_at'>,
  now: number,
  limits: { remindMs: number; expireMs: number },
): { remind_at: string | null; expire_at: string } {
  return {
    remind_at: row.reminded_at ? null : iso(now + Math.max(0, limits.remindMs - row.waited_before_ms)),
    expire_at: iso(now + Math.max(0, limits.expireMs - row.waited_before_ms)),
  };
}

/** What else the row must still be, besides its state, for a step to move it. */
export interface MoveGuard {
  /** Held by this dispatcher (null: by nobody). */
  heldBy?: number | null;
  /** Transferred to this dispatcher, and its answer still awaited at `at` (`transfer_until` later than it). */
  transferTo?: { userId: number; at: number };
  /** A transfer whose time was over at this moment (`transfer_until` at or before it). */
  transferOverAt?: number;
  /** A waiting request whose expiry was due at this moment. */
  expiredAt?: number;
}

export function dispatchQueueStore(db: Db) {
  return {
    async insert(values: {
      channelId: number;
      channelName: string;
      requesterId: number;
      requesterName: string;
      priority: DispatchPriority;
      note: string;
      now: number;
      limits: { remindMs: number; expireMs: number };
    }): Promise<RequestRow> {
      return db
        .insertInto('dispatch_requests')
        .values({
          channel_id: values.channelId,
          channel_name: values.channelName,
          requester_id: values.requesterId,
          requester_name: values.requesterName,
          priority: values.priority,
          note: values.note,
          state: 'waiting',
          created_at: iso(values.now),
          waiting_since: iso(values.now),
          waited_before_ms: 0,
          held_by_id: null,
          held_by_name: null,
          transfer_to_id: null,
          transfer_to_name: null,
          transfer_until: null,
          answer: null,
          call_id: null,
          first_taken_at: null,
          reminded_at: null,
          offline_since: null,
          ended_at: null,
          ...dueTimes({ waited_before_ms: 0, reminded_at: null }, values.now, values.limits),
        })
        .returningAll()
        .executeTakeFirstOrThrow();
    },

    async byId(id: number): Promise<RequestRow | undefined> {
      return db.selectFrom('dispatch_requests').selectAll().where('id', '=', id).executeTakeFirst();
    },

    /**
     * Moves the row from one of `from` to what `change` says, if it is still as `guard` says, in one statement;
     * the row as it is now, or undefined when it was no longer so (another step came first).
     */
    async move(
      id: number,
      from: readonly DispatchRequestState[],
      change: Change,
      guard: MoveGuard = {},
    ): Promise<RequestRow | undefined> {
      let update = db
        .updateTable('dispatch_requests')
        .set(change)
        .where('id', '=', id)
        .where('state', 'in', [...from]);
      if (guard.heldBy === null) update = update.where('held_by_id', 'is', null);
      else if (guard.heldBy !== undefined) update = update.where('held_by_id', '=', guard.heldBy);
      if (guard.transferTo)
        update = update
          .where('transfer_to_id', '=', guard.transferTo.userId)
          .where('transfer_until', '>', iso(guard.transferTo.at));
      if (guard.transferOverAt !== undefined) update = update.where('transfer_until', '<=', iso(guard.transferOverAt));
      if (guard.expiredAt !== undefined) update = update.where('expire_at', '<=', iso(guard.expiredAt));
      return update.returningAll().executeTakeFirst();
    },

    /** Every waiting request, in the queue's order. */
    async waiting(): Promise<RequestRow[]> {
      const rows = await db.selectFrom('dispatch_requests').selectAll().where('state', '=', 'waiting').execute();
      return rows.sort(queueOrder);
    },

    /**
     * Open requests and those that ended since `endedSince`, of these channels (undefined: all) or of this
     * requester.
     */
    async visible(where: { channelIds?: number[]; requesterId?: number }, endedSince: number): Promise<RequestRow[]> {
      if (where.channelIds?.length === 0 && where.requesterId === undefined) return [];
      return db
        .selectFrom('dispatch_requests')
        .selectAll()
        .where((eb) => eb.or([eb('state', 'in', [...OPEN_DISPATCH_STATES]), eb('ended_at', '>=', iso(endedSince))]))
        .where((eb) => {
          const scopes = [];
          if (where.channelIds === undefined && where.requesterId === undefined) return eb.lit(true);
          if (where.channelIds !== undefined && where.channelIds.length > 0)
            scopes.push(eb('channel_id', 'in', where.channelIds));
          if (where.channelIds === undefined) scopes.push(eb.lit(true));
          if (where.requesterId !== undefined) scopes.push(eb('requester_id', '=', where.requesterId));
          return eb.or(scopes);
        })
        .execute();
    },

    /** Open requests (the sweep's look at their members). */
    async open(): Promise<RequestRow[]> {
      return db
        .selectFrom('dispatch_requests')
        .selectAll()
        .where('state', 'in', [...OPEN_DISPATCH_STATES])
        .execute();
    },

    /** Waiting requests due for their reminder, or their expiry, at `now`. */
    async due(now: number): Promise<{ remind: RequestRow[]; expire: RequestRow[]; transfer: RequestRow[] }> {
      const at = iso(now);
      const [remind, expire, transfer] = await Promise.all([
        db
          .selectFrom('dispatch_requests')
          .selectAll()
          .where('state', '=', 'waiting')
          .where('reminded_at', 'is', null)
          .where('remind_at', '<=', at)
          .execute(),
        db
          .selectFrom('dispatch_requests')
          .selectAll()
          .where('state', '=', 'waiting')
          .where('expire_at', '<=', at)
          .execute(),
        db
          .selectFrom('dispatch_requests')
          .selectAll()
          .where('state', '=', 'transferring')
          .where('transfer_until', '<=', at)
          .execute(),
      ]);
      return { remind, expire, transfer };
    },

    /** Which of these users have a socket now (any instance). */
    async online(userIds: number[]): Promise<Set<number>> {
      if (userIds.length === 0) return new Set();
      const rows = await db
        .selectFrom('user_sockets')
        .select('user_id')
        .distinct()
        .where('user_id', 'in', userIds)
        .execute();
      return new Set(rows.map((row) => row.user_id));
    },

    /**
     * Who may dispatch a channel: users of the roles that hold it everywhere (administrators), and its members of
     * the roles that hold it there (dispatchers); enabled accounts only.
     */
    async dispatchersOf(
      channelId: number,
      roles: { everywhere: Role[]; inChannel: Role[]; inMemberRightsOnly: Role[] },
    ): Promise<Array<{ id: number; name: string; role: string; mapRight: boolean }>> {
      if (roles.everywhere.length === 0 && roles.inChannel.length === 0) return [];
      const rows = await db
        .selectFrom('users')
        .select(['users.id', 'users.display_name', 'users.role', 'users.map_right'])
        .where('users.disabled_at', 'is', null)
        // A SIP gateway's account dispatches nothing, whatever its floor priority (issue 51).
        .where('users.gateway', '=', 0)
        .where((eb) =>
          eb.or([
            ...(roles.everywhere.length > 0 ? [eb('users.role', 'in', roles.everywhere)] : []),
            ...(roles.inChannel.length > 0
              ? [
                  eb.and([
                    eb('users.role', 'in', roles.inChannel),
                    eb(
                      'users.id',
                      'in',
                      eb
                        .selectFrom('channel_members')
                        .select('user_id')
                        .where('channel_id', '=', channelId)
                        .where((inner) =>
                          inner.or([
                            inner('member_rights_only', '=', 0),
                            ...(roles.inMemberRightsOnly.length > 0
                              ? [inner('users.role', 'in', roles.inMemberRightsOnly)]
                              : []),
                          ]),
                        ),
                    ),
                  ]),
                ]
              : []),
          ]),
        )
        .orderBy('users.display_name')
        .execute();
      return rows.map((row) => ({ id: row.id, name: row.display_name, role: row.role, mapRight: row.map_right === 1 }));
    },

    /** Marks when its member was first seen offline, or clears it; only if it is still so. */
    async setOfflineSince(id: number, since: string | null): Promise<void> {
      await db
        .updateTable('dispatch_requests')
        .set({ offline_since: since })
        .where('id', '=', id)
        .where('state', 'in', [...OPEN_DISPATCH_STATES])
        .execute();
    },
  };
}

export type DispatchQueueStore = ReturnType<typeof dispatchQueueStore>;
