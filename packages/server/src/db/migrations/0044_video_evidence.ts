/**
 * A recording is evidence (issue 69): `videos.source` says who records a stream, written when it starts: 'server'
 * for one that goes through the media server (its recording is Janus's, and the sharer's upload is refused) or
 * 'sharer' for one peer to peer (the sharing page uploads it); `videos.sha256` is the kept file's SHA-256, written
 * with it, so that an exported copy can be checked later. Both stay null on the rows kept before.
 */
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../dialect.ts';
import type { AnyDb } from './columns.ts';

export function migration(_dialect: Dialect): Migration {
  return {
    async up(db: AnyDb) {
      await db.schema.alterTable('videos').addColumn('source', 'text').execute();
      await db.schema.alterTable('videos').addColumn('sha256', 'text').execute();
    },
    async down(db: AnyDb) {
      await db.schema.alterTable('videos').dropColumn('sha256').execute();
      await db.schema.alterTable('videos').dropColumn('source').execute();
    },
  };
}
