/**
 * The gateways' calls now (gateway_calls, migration 0033): written by the SIP server of the instance that holds
 * each call, listed for the administrators, and flagged by them (or a dispatcher of the call's channel) for a hang-up that the holding instance carries
 * out (it polls toEnd(), and hears `gatewaysChanged` when the change was made on its own instance). Part of
 * gatewayStore (store.ts).
 */
import type { GatewayCall } from '@talkgroup/protocol';
import { inSlices } from '../db/batch.ts';
import type { Db } from '../db/schema.ts';

/** A call the SIP server has just put into a channel. */
export interface NewGatewayCall {
  callId: string;
  gatewayId: number;
  userId: number;
  channelId: number;
  instanceId: string;
  address: string;
  transport: 'udp' | 'tcp';
  codec: string;
}

export function gatewayCallRows(db: Db) {
  return {
    /** Marks a call to be hung up by the instance that holds it; its gateway, or undefined when the call is over. */
    async requestHangUp(callId: string): Promise<{ gatewayId: number } | undefined> {
      const row = await db
        .updateTable('gateway_calls')
        .set({ hangup_requested: 1 })
        .where('call_id', '=', callId)
        .returning('gateway_id')
        .executeTakeFirst();
      return row ? { gatewayId: row.gateway_id } : undefined;
    },

    /** The channel a call is in, or undefined when the call is over (who may hang it up is asked about it). */
    async channelOfCall(callId: string): Promise<number | undefined> {
      const row = await db
        .selectFrom('gateway_calls')
        .select('channel_id')
        .where('call_id', '=', callId)
        .executeTakeFirst();
      return row?.channel_id;
    },

    async openCall(call: NewGatewayCall, at = new Date()): Promise<void> {
      await db
        .insertInto('gateway_calls')
        .values({
          call_id: call.callId,
          gateway_id: call.gatewayId,
          user_id: call.userId,
          channel_id: call.channelId,
          instance_id: call.instanceId,
          address: call.address,
          transport: call.transport,
          codec: call.codec,
          started_at: at.toISOString(),
        })
        .execute();
    },

    async closeCall(callId: string): Promise<void> {
      await db.deleteFrom('gateway_calls').where('call_id', '=', callId).execute();
    },

    async setTalking(callId: string, talking: boolean): Promise<void> {
      await db
        .updateTable('gateway_calls')
        .set({ talking: talking ? 1 : 0 })
        .where('call_id', '=', callId)
        .execute();
    },

    /**
     * This instance's calls an administrator asked to hang up, and those whose gateway may no longer enter the
     * channel. A deleted gateway's (or channel's) call rows are deleted with it: of `held`, the calls the
     * instance holds, those without a row are answered too.
     */
    async toEnd(instanceId: string, held: readonly string[] = []): Promise<string[]> {
      const flagged = await db
        .selectFrom('gateway_calls as c')
        .select('c.call_id')
        .where('c.instance_id', '=', instanceId)
        .where((eb) =>
          eb.or([
            eb('c.hangup_requested', '=', 1),
            eb.not(
              eb.exists(
                eb
                  .selectFrom('gateway_channels as gc')
                  .select('gc.gateway_id')
                  .whereRef('gc.gateway_id', '=', 'c.gateway_id')
                  .whereRef('gc.channel_id', '=', 'c.channel_id'),
              ),
            ),
          ]),
        )
        .execute();
      const ended = new Set(flagged.map((row) => row.call_id));
      if (held.length > 0) {
        const present = new Set(
          (
            await inSlices([...held], (slice) =>
              db.selectFrom('gateway_calls').select('call_id').where('call_id', 'in', slice).execute(),
            )
          ).map((row) => row.call_id),
        );
        for (const callId of held) if (!present.has(callId)) ended.add(callId);
      }
      return [...ended];
    },

    /** At start: the rows a dead run of this instance left (its calls ended with it). */
    async clearInstance(instanceId: string): Promise<void> {
      await db.deleteFrom('gateway_calls').where('instance_id', '=', instanceId).execute();
    },

    /**
     * Removes the calls of every instance not in `alive` (a crashed or restarted process: its calls ended with
     * it), as presence's sweep does for sockets; returns how many.
     */
    async sweepCalls(alive: string[]): Promise<number> {
      const result = await db
        .deleteFrom('gateway_calls')
        .$if(alive.length > 0, (q) => q.where('instance_id', 'not in', alive))
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    /** The calls now, oldest first, in every channel or in one. */
    async calls(channelId?: number): Promise<GatewayCall[]> {
      const rows = await db
        .selectFrom('gateway_calls as c')
        .innerJoin('gateways as g', 'g.id', 'c.gateway_id')
        .innerJoin('channels as ch', 'ch.id', 'c.channel_id')
        .select([
          'c.call_id',
          'c.gateway_id',
          'g.name as gateway_name',
          'c.user_id',
          'c.channel_id',
          'ch.name as channel_name',
          'c.address',
          'c.transport',
          'c.codec',
          'c.started_at',
          'c.talking',
        ])
        .$if(channelId !== undefined, (q) => q.where('c.channel_id', '=', channelId as number))
        .orderBy('c.started_at')
        .orderBy('c.call_id')
        .execute();
      return rows.map((row) => ({
        callId: row.call_id,
        gatewayId: row.gateway_id,
        gatewayName: row.gateway_name,
        userId: row.user_id,
        channelId: row.channel_id,
        channelName: row.channel_name,
        address: row.address,
        transport: row.transport === 'tcp' ? 'tcp' : 'udp',
        codec: row.codec,
        since: row.started_at,
        talking: row.talking === 1,
      }));
    },
  };
}
