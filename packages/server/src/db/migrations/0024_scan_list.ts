/**
 * Scan (issue 34): while /talk is open, a member hears every one of its channels except those it took out of
 * the scan. scan_off: one row per member and channel taken out (no row: scanned), for all the member's devices.
 * A deleted user or channel takes its rows along.
 */
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../dialect.ts';
import type { AnyDb } from './columns.ts';

export function migration(_dialect: Dialect): Migration {
  return {
    async up(db: AnyDb) {
      await db.schema
        .createTable('scan_off')
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('channel_id', 'integer', (c) => c.notNull().references('channels.id').onDelete('cascade'))
        .addPrimaryKeyConstraint('scan_off_pk', ['user_id', 'channel_id'])
        .execute();
      // A channel's deletion finds its rows (the cascade) without reading the whole table.
      await db.schema.createIndex('scan_off_channel').on('scan_off').column('channel_id').execute();
    },
  };
}
