/**
 * Reports (issue 50):
 * - emergency_alerts.closed_at, closed_by, closed_by_name and outcome ('real' or 'false'): an SOS is closed with
 *   how it turned out (closeEmergencyAlert), so that reports give the time to close and count false alarms.
 * - voice_heard.live: 1 when the member heard the transmission while it was said, 0 when it played it later
 *   (the missed list). Rows written before are told apart by their time: heard more than a minute after the
 *   transmission was kept means played later.
 * - presence_samples: the most people connected at once, per minute (`minute` is the minute's start), and when
 *   that number was first reached; written by every instance, the larger number kept.
 * - Indexes the reports read by: transmissions by start (and per channel), alerts by time.
 */
import { sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../dialect.ts';
import { type AnyDb, columnsFor } from './columns.ts';

export function migration(dialect: Dialect): Migration {
  const { time } = columnsFor(dialect);
  return {
    async up(db: AnyDb) {
      await db.schema.alterTable('emergency_alerts').addColumn('closed_at', time).execute();
      await db.schema.alterTable('emergency_alerts').addColumn('closed_by', 'integer').execute();
      await db.schema.alterTable('emergency_alerts').addColumn('closed_by_name', 'text').execute();
      await db.schema.alterTable('emergency_alerts').addColumn('outcome', 'text').execute();
      await db.schema.createIndex('emergency_alerts_time').on('emergency_alerts').column('created_at').execute();

      await db.schema
        .alterTable('voice_heard')
        .addColumn('live', 'integer', (c) => c.notNull().defaultTo(1))
        .execute();
      const later =
        dialect === 'postgres'
          ? sql`voice_heard.heard_at > vm.uploaded_at + interval '60 seconds'`
          : sql`julianday(voice_heard.heard_at) > julianday(vm.uploaded_at) + 60.0 / 86400`;
      await sql`update voice_heard set live = 0 where exists (
        select 1 from voice_messages vm where vm.id = voice_heard.voice_message_id and ${later})`.execute(db);

      await db.schema
        .createTable('presence_samples')
        .addColumn('minute', time, (c) => c.primaryKey())
        .addColumn('connected', 'integer', (c) => c.notNull())
        .addColumn('peak_at', time, (c) => c.notNull())
        .execute();

      await db.schema.createIndex('talk_bursts_started').on('talk_bursts').column('started_at').execute();
      await db.schema
        .createIndex('talk_bursts_channel_started')
        .on('talk_bursts')
        .columns(['channel_id', 'started_at'])
        .execute();
    },
  };
}
