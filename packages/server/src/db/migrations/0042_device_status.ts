/**
 * Device status (issue 60 item 4): device_statuses keeps the latest report of each user's device (what /talk
 * sends as `device_status`: battery, network, visible, wake lock, position accuracy, app version, push), as JSON,
 * with the session that sent it and when it came. One row per user: the console shows the latest; it goes with
 * the user. A disabled device's session simply goes (item 5): its token is refused because its row is gone, and
 * the audit log says who disabled whose device.
 */
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../dialect.ts';
import { type AnyDb, columnsFor } from './columns.ts';

export function migration(dialect: Dialect): Migration {
  const { time } = columnsFor(dialect);
  return {
    async up(db: AnyDb) {
      await db.schema
        .createTable('device_statuses')
        .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
        .addColumn('session_id', 'integer')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('reported_at', time, (c) => c.notNull())
        .execute();
    },
    async down(db: AnyDb) {
      await db.schema.dropTable('device_statuses').execute();
    },
  };
}
