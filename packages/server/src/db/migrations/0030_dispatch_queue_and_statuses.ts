/**
 * The dispatcher's queue and members' statuses (issue 49):
 * - dispatch_requests: a member's request for dispatch on a channel, through its states. One open request per
 *   member and channel is a partial unique index, so two requests at once cannot both open, on any instance. Its
 *   times due (`remind_at`, `expire_at`, `transfer_until`) are written at each step, so that the sweep finds what
 *   is due with one indexed read.
 * - statuses: the organisation's list (a label per language, a colour, an order); users.status_id, with when and
 *   by whom it was set.
 * - activities.waited_ms, handled_ms and detail (JSON): a dispatch step's times and what it names, a status
 *   change's label, so that reports count them.
 */
import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../dialect.ts';
import { type AnyDb, columnsFor } from './columns.ts';

export function migration(dialect: Dialect): Migration {
  const { time, withId } = columnsFor(dialect);
  return {
    async up(db: AnyDb) {
      await withId(db.schema.createTable('dispatch_requests'))
        .addColumn('channel_id', 'integer', (c) => c.notNull().references('channels.id').onDelete('cascade'))
        .addColumn('channel_name', 'text', (c) => c.notNull())
        .addColumn('requester_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('requester_name', 'text', (c) => c.notNull())
        .addColumn('priority', 'text', (c) => c.notNull())
        .addColumn('note', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('waiting_since', time)
        .addColumn('waited_before_ms', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('held_by_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('held_by_name', 'text')
        .addColumn('transfer_to_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('transfer_to_name', 'text')
        .addColumn('transfer_until', time)
        .addColumn('answer', 'text')
        .addColumn('call_id', 'integer')
        .addColumn('first_taken_at', time)
        .addColumn('remind_at', time)
        .addColumn('reminded_at', time)
        .addColumn('expire_at', time)
        .addColumn('offline_since', time)
        .addColumn('ended_at', time)
        .execute();
      await db.schema
        .createIndex('dispatch_requests_one_open')
        .on('dispatch_requests')
        .columns(['requester_id', 'channel_id'])
        .unique()
        .where(sql.ref('state'), 'in', ['waiting', 'taken', 'transferring'])
        .execute();
      await db.schema.createIndex('dispatch_requests_state').on('dispatch_requests').column('state').execute();
      await db.schema.createIndex('dispatch_requests_ended').on('dispatch_requests').column('ended_at').execute();

      await withId(db.schema.createTable('statuses'))
        .addColumn('label_fr', 'text', (c) => c.notNull())
        .addColumn('label_en', 'text', (c) => c.notNull())
        .addColumn('label_de', 'text', (c) => c.notNull())
        .addColumn('color', 'text', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        .execute();
      await db.schema
        .alterTable('users')
        .addColumn('status_id', 'integer', (c) => c.references('statuses.id').onDelete('set null'))
        .execute();
      await db.schema.alterTable('users').addColumn('status_at', time).execute();
      await db.schema.alterTable('users').addColumn('status_by_id', 'integer').execute();
      await db.schema.alterTable('users').addColumn('status_by_name', 'text').execute();

      await db.schema.alterTable('activities').addColumn('waited_ms', 'integer').execute();
      await db.schema.alterTable('activities').addColumn('handled_ms', 'integer').execute();
      await db.schema.alterTable('activities').addColumn('detail', 'text').execute();

      // The four statuses a dispatch team starts with; an administrator edits them on /settings.
      await (db as Kysely<any>)
        .insertInto('statuses')
        .values([
          { label_fr: 'Disponible', label_en: 'Available', label_de: 'Verfügbar', color: '#2e7d32', position: 0 },
          { label_fr: 'En route', label_en: 'En route', label_de: 'Unterwegs', color: '#1565c0', position: 1 },
          { label_fr: 'Sur place', label_en: 'On scene', label_de: 'Vor Ort', color: '#ef6c00', position: 2 },
          { label_fr: 'En pause', label_en: 'On break', label_de: 'In Pause', color: '#757575', position: 3 },
        ])
        .execute();
    },
  };
}
