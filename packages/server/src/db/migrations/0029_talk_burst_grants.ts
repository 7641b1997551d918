/**
 * A floor grant has an id (issue 48): the floor's answer carries it, the talk burst keeps it, and a browser's
 * upload of what was said names it, so that the server finds the grant by that id instead of by time. An all
 * call's channels share one grant id, so it is not unique alone: indexed with the channel.
 */
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../dialect.ts';
import type { AnyDb } from './columns.ts';

export function migration(_dialect: Dialect): Migration {
  return {
    async up(db: AnyDb) {
      await db.schema.alterTable('talk_bursts').addColumn('grant_id', 'text').execute();
      await db.schema.createIndex('talk_bursts_grant').on('talk_bursts').columns(['grant_id', 'channel_id']).execute();
    },
    async down(db: AnyDb) {
      await db.schema.dropIndex('talk_bursts_grant').execute();
      await db.schema.alterTable('talk_bursts').dropColumn('grant_id').execute();
    },
  };
}
