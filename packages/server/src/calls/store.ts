/** Private calls (issue 27): who called whom, in which hidden channel, and how it went. */
import type { ListedPrivateCall, PrivateCall, PrivateCallState } from '@talkgroup/protocol';
import type { Selectable } from 'kysely';
import type { Db, PrivateCallsTable } from '../db/schema.ts';

/** A call that rings or goes on: its parties are busy. */
export const OPEN_STATES: PrivateCallState[] = ['ringing', 'active'];

type Row = Selectable<PrivateCallsTable> & { room: string; request_id?: number | null; request_note?: string | null };

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
    ...(row.request_id !== null && row.request_id !== undefined
      ? { request: { requestId: Number(row.request_id), note: row.request_note ?? '' } }
      : {}),
    ...(row.alias_id !== null && row.alias_id !== undefined
      ? { alias: { aliasId: row.alias_id, name: row.alias_name ?? '', ringing: ringsOf(row.rings) } }
      : {}),
  };
}

/** The holders an alias call rings (a JSON array of ids; anything else: none). */
function ringsOf(text: string | null): number[] {
  try {
    const ids: unknown = JSON.parse(text ?? '[]');
    return Array.isArray(ids) ? ids.filter((id): id is number => typeof id === 'number') : [];
  } catch {
    return [];
  }
}

export function privateCallStore(db: Db) {
  const calls = () =>
    db
      .selectFrom('private_calls')
      .innerJoin('channels', 'channels.id', 'private_calls.channel_id')
      .selectAll('private_calls')
      .select('channels.rtc_session as room')
      // The dispatch request the call answers, if a dispatcher took one by this call (issue 58).
      .select((eb) => [
        eb
          .selectFrom('dispatch_requests as d')
          .select('d.id')
          .whereRef('d.call_id', '=', 'private_calls.id')
          .orderBy('d.id', 'desc')
          .limit(1)
          .as('request_id'),
        eb
          .selectFrom('dispatch_requests as d')
          .select('d.note')
          .whereRef('d.call_id', '=', 'private_calls.id')
          .orderBy('d.id', 'desc')
          .limit(1)
          .as('request_note'),
      ]);

  return {
    /**
     * A new ringing call, and its two parties' rows (call_parties) in the same transaction: a party already in a
     * call makes it fail with a unique violation (`isUniqueViolation`), whatever instance wrote the other call.
     */
    async create(
      call: {
        channelId: number;
        caller: { id: number; name: string };
        callee: { id: number; name: string };
        /** A call to a functional alias (issue 59): the alias and the holders it rings (the callee among them). */
        alias?: { id: number; name: string; ringing: number[] };
      },
      at = new Date(),
    ): Promise<PrivateCall> {
      const id = await db.transaction().execute(async (trx) => {
        const row = await trx
          .insertInto('private_calls')
          .values({
            channel_id: call.channelId,
            caller_id: call.caller.id,
            caller_name: call.caller.name,
            callee_id: call.callee.id,
            callee_name: call.callee.name,
            state: 'ringing',
            started_at: at.toISOString(),
            ...(call.alias
              ? { alias_id: call.alias.id, alias_name: call.alias.name, rings: JSON.stringify(call.alias.ringing) }
              : {}),
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        // In the order of the users' ids: two crossed calls written at once then wait on the same row first, and
        // one fails with a unique violation; in the callers' order, each would hold a row the other waits on
        // (PostgreSQL: a deadlock, 40P01).
        await trx
          .insertInto('call_parties')
          .values(
            [call.caller.id, call.callee.id]
              .sort((a, b) => a - b)
              .map((userId) => ({ user_id: userId, call_id: row.id })),
          )
          .execute();
        return row.id;
      });
      const created = await this.byId(id);
      if (!created) throw new Error(`private call ${id} vanished`);
      return created;
    },

    /** The call this user is a party of (ringing or answered), by its call_parties row. */
    async callOfParty(userId: number): Promise<PrivateCall | undefined> {
      const row = await db
        .selectFrom('call_parties')
        .select('call_id')
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return row ? this.byId(row.call_id) : undefined;
    },

    /** Frees the parties of a call that is over (a row left by a call ended elsewhere). */
    async freeParties(callId: number): Promise<void> {
      await db.deleteFrom('call_parties').where('call_id', '=', callId).execute();
    },

    /** Whether this user was a party of a call in this hidden channel (its voice history is theirs). */
    async partyIn(userId: number, channelId: number): Promise<boolean> {
      const row = await db
        .selectFrom('private_calls')
        .select('id')
        .where('channel_id', '=', channelId)
        .where((eb) => eb.or([eb('caller_id', '=', userId), eb('callee_id', '=', userId)]))
        .limit(1)
        .executeTakeFirst();
      return row !== undefined;
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
      const moved = await db.transaction().execute(async (trx) => {
        const result = await trx
          .updateTable('private_calls')
          .set({
            state: to.state,
            ...(to.answeredAt ? { answered_at: to.answeredAt.toISOString() } : {}),
            ...(to.endedAt ? { ended_at: to.endedAt.toISOString() } : {}),
          })
          .where('id', '=', callId)
          .where('state', 'in', from)
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) === 0) return false;
        // Over: its parties are free for another call, in the same transaction.
        if (!OPEN_STATES.includes(to.state))
          await trx.deleteFrom('call_parties').where('call_id', '=', callId).execute();
        return true;
      });
      return moved ? this.byId(callId) : undefined;
    },

    /**
     * Another holder of the alias a ringing call was made to takes it (issue 59): it becomes the callee, in the
     * pair's hidden channel, answered; its call_parties row replaces the first holder's (a unique violation when
     * it is in another call). Undefined when the call no longer rings.
     */
    async answerAs(
      callId: number,
      from: number,
      callee: { id: number; name: string; channelId: number },
      at = new Date(),
    ): Promise<PrivateCall | undefined> {
      const moved = await db.transaction().execute(async (trx) => {
        const result = await trx
          .updateTable('private_calls')
          .set({
            state: 'active',
            answered_at: at.toISOString(),
            callee_id: callee.id,
            callee_name: callee.name,
            channel_id: callee.channelId,
          })
          .where('id', '=', callId)
          .where('state', '=', 'ringing')
          .where('callee_id', '=', from)
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) === 0) return false;
        await trx
          .updateTable('call_parties')
          .set({ user_id: callee.id })
          .where('call_id', '=', callId)
          .where('user_id', '=', from)
          .execute();
        return true;
      });
      return moved ? this.byId(callId) : undefined;
    },

    /**
     * A holder of the alias a ringing call was made to declines it while others still ring (issue 59): it leaves
     * the ring (`ringing`, the rest); when it was the callee, `next` takes its place (its pair's hidden channel and
     * its call_parties row: a unique violation when `next` is in another call). Undefined once the call no longer
     * rings.
     */
    async leaveRing(
      callId: number,
      holderId: number,
      ringing: number[],
      next?: { id: number; name: string; channelId: number },
    ): Promise<PrivateCall | undefined> {
      const left = await db.transaction().execute(async (trx) => {
        let update = trx
          .updateTable('private_calls')
          .set({
            rings: JSON.stringify(ringing),
            ...(next ? { callee_id: next.id, callee_name: next.name, channel_id: next.channelId } : {}),
          })
          .where('id', '=', callId)
          .where('state', '=', 'ringing');
        if (next) update = update.where('callee_id', '=', holderId);
        const result = await update.executeTakeFirst();
        if (Number(result.numUpdatedRows) === 0) return false;
        if (next)
          await trx
            .updateTable('call_parties')
            .set({ user_id: next.id })
            .where('call_id', '=', callId)
            .where('user_id', '=', holderId)
            .execute();
        return true;
      });
      return left ? this.byId(callId) : undefined;
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

    /**
     * Every call that started in [from, to), newest first, as compliance lists them (issue 47): its parties and
     * times, nothing of its channel. One more than `limit` is read to tell whether older ones are left out.
     */
    async inPeriod(
      period: { from?: Date; to?: Date; limit: number },
      now = new Date(),
    ): Promise<{ calls: ListedPrivateCall[]; hasMore: boolean }> {
      let query = db
        .selectFrom('private_calls')
        .select([
          'id',
          'caller_id',
          'caller_name',
          'callee_id',
          'callee_name',
          'state',
          'started_at',
          'answered_at',
          'ended_at',
        ]);
      if (period.from) query = query.where('started_at', '>=', period.from.toISOString());
      if (period.to) query = query.where('started_at', '<', period.to.toISOString());
      const rows = await query
        .orderBy('started_at', 'desc')
        .orderBy('id', 'desc')
        .limit(period.limit + 1)
        .execute();
      const calls = rows.slice(0, period.limit).map(
        (row): ListedPrivateCall => ({
          callId: row.id,
          parties: [
            { userId: row.caller_id, name: row.caller_name },
            { userId: row.callee_id, name: row.callee_name },
          ],
          startedAt: row.started_at,
          answeredAt: row.answered_at,
          endedAt: row.ended_at,
          durationMs: row.answered_at
            ? Math.max(0, Date.parse(row.ended_at ?? now.toISOString()) - Date.parse(row.answered_at))
            : 0,
          state: row.state as PrivateCallState,
        }),
      );
      return { calls, hasMore: rows.length > period.limit };
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
