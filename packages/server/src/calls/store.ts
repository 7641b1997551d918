/** Private calls (issue 27): who called whom, in which hidden channel, and how it went. */
import type { PrivateCall, PrivateCallState } from '@talkgroup/protocol';
import type { Selectable } from 'kysely';
import type { Db, PrivateCallsTable } from '../db/schema.ts';

/** A call that rings or goes on: its parties are busy. */
export const OPEN_STATES: PrivateCallState[] = ['ringing', 'active'];

type Row = Selectable<PrivateCallsTable> & { room: string };

function toCall(row: Row): PrivateCall {
  return {
    callId: row.id,
    room: row.room,
    channelId: row.channel_id,
    caller: { userId: row.caller_id, name: row.caller_name },
    callee: { userId: row.callee_id, name: row.callee_name },
    state: row.state as PrivateCallState,
    startedAt: row.started_at,
    answeredAt: row.answered_at,
    endedAt: row.ended_at,
  };
}

export function privateCallStore(db: Db) {
  const calls = () =>
    db
      .selectFrom('private_calls')
      .innerJoin('channels', 'channels.id', 'private_calls.channel_id')
      .selectAll('private_calls')
      .select('channels.rtc_session as room');

  return {
    async create(
      call: { channelId: number; caller: { id: number; name: string }; callee: { id: number; name: string } },
      at = new Date(),
    ): Promise<PrivateCall> {
      const { id } = await db
        .insertInto('private_calls')
        .values({
          channel_id: call.channelId,
          caller_id: call.caller.id,
          caller_name: call.caller.name,
          callee_id: call.callee.id,
          callee_name: call.callee.name,
          state: 'ringing',
          started_at: at.toISOString(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const created = await this.byId(id);
      if (!created) throw new Error(`private call ${id} vanished`);
      return created;
    },

    async byId(callId: number): Promise<PrivateCall | undefined> {
      const row = await calls().where('private_calls.id', '=', callId).executeTakeFirst();
      return row ? toCall(row) : undefined;
    },

    /**
     * Moves a call to `state` if it is in one of `from` (one statement: of two answers at once, one wins);
     * the call after, or undefined when it was not in those states.
     */
    async move(
      callId: number,
      from: PrivateCallState[],
      to: { state: PrivateCallState; answeredAt?: Date; endedAt?: Date },
    ): Promise<PrivateCall | undefined> {
      const result = await db
        .updateTable('private_calls')
        .set({
          state: to.state,
          ...(to.answeredAt ? { answered_at: to.answeredAt.toISOString() } : {}),
          ...(to.endedAt ? { ended_at: to.endedAt.toISOString() } : {}),
        })
        .where('id', '=', callId)
        .where('state', 'in', from)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0 ? this.byId(callId) : undefined;
    },

    /** The calls of this user that ring or go on. */
    async openOf(userId: number): Promise<PrivateCall[]> {
      const rows = await calls()
        .where('private_calls.state', 'in', OPEN_STATES)
        .where((eb) => eb.or([eb('private_calls.caller_id', '=', userId), eb('private_calls.callee_id', '=', userId)]))
        .execute();
      return rows.map(toCall);
    },

    /** The open calls in this hidden channel. */
    async openIn(channelId: number): Promise<PrivateCall[]> {
      const rows = await calls()
        .where('private_calls.channel_id', '=', channelId)
        .where('private_calls.state', 'in', OPEN_STATES)
        .execute();
      return rows.map(toCall);
    },

    /** A user's calls, made or received, newest first. */
    async ofUser(userId: number, limit: number): Promise<PrivateCall[]> {
      const rows = await calls()
        .where((eb) => eb.or([eb('private_calls.caller_id', '=', userId), eb('private_calls.callee_id', '=', userId)]))
        .orderBy('private_calls.id', 'desc')
        .limit(limit)
        .execute();
      return rows.map(toCall);
    },
  };
}

export type PrivateCallStore = ReturnType<typeof privateCallStore>;
