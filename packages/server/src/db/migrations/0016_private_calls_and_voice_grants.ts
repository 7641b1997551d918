/**
 * Private stays private, the record cannot be forged (issue 35):
 * - call_parties: who is in a ringing or answered call, one row per person (its primary key), written in the
 *   same transaction as the call and removed with its end: two calls to one person at once cannot both ring,
 *   whatever instance takes them. Calls left open by an older version end here (no server runs them now).
 * - a private call's hidden channel has no members any more: its two parties enter it through their answered
 *   call (private-calls.ts), so no role's right (positions, alerts, geofences, watch) ever comes from it; what
 *   was drawn or monitored there goes, and the private_call activities no longer carry its id.
 * - talk_bursts.plane: how the channel's voice went when the floor was granted ('mesh' or 'server'), and
 *   voice_messages.talk_burst_id: the grant an uploaded transmission belongs to, used once (unique).
 */
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../dialect.ts';
import type { AnyDb } from './columns.ts';

export function migration(_dialect: Dialect): Migration {
  return {
    async up(db: AnyDb) {
      const any = db as Kysely<any>;
      const now = new Date().toISOString();
      await any
        .updateTable('private_calls')
        .set({ state: 'missed', ended_at: now })
        .where('state', '=', 'ringing')
        .execute();
      await any
        .updateTable('private_calls')
        .set({ state: 'ended', ended_at: now })
        .where('state', '=', 'active')
        .execute();
      await db.schema
        .createTable('call_parties')
        .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
        .addColumn('call_id', 'integer', (c) => c.notNull().references('private_calls.id').onDelete('cascade'))
        .execute();
      await db.schema.createIndex('call_parties_call').on('call_parties').column('call_id').execute();

      const hidden = any.selectFrom('channels').select('id').where('hidden', '=', 1);
      await any.deleteFrom('channel_members').where('channel_id', 'in', hidden).execute();
      await any.deleteFrom('geofences').where('channel_id', 'in', hidden).execute();
      await any.deleteFrom('monitored_channels').where('channel_id', 'in', hidden).execute();
      // The private_call entries name the callee; the hidden channel's id leaves them.
      await any.updateTable('activities').set({ channel_id: null }).where('type', '=', 'private_call').execute();

      await db.schema.alterTable('talk_bursts').addColumn('plane', 'text').execute();
      await db.schema
        .alterTable('voice_messages')
        .addColumn('talk_burst_id', 'integer', (c) => c.references('talk_bursts.id').onDelete('set null'))
        .execute();
      await db.schema
        .createIndex('voice_messages_talk_burst')
        .on('voice_messages')
        .column('talk_burst_id')
        .unique()
        .execute();
    },
  };
}
