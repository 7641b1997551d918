/**
 * SIP gateways (issue 51): radios and desk phones dialling channels.
 * - gateways: a gateway's name, its SIP login and the digest hashes of its secret (HA1 = H(login:realm:secret) in
 *   MD5 and SHA-256, RFC 7616: what a digest check needs; the secret itself is never stored), its floor mode and
 *   times, its floor priority, the addresses it may call from (JSON list; empty: any) and whether it hears silence
 *   between transmissions. `user_id` is the account it talks as (users.gateway = 1): its takes, talk bursts and
 *   activities name it like a member's, and that account stays when the gateway is deleted, so its history keeps
 *   its name.
 * - gateway_channels: the channels a gateway may enter.
 * - gateway_calls: the calls now, one row per call, with the instance that holds it (another instance lists the
 *   call and asks it to hang up: `hangup_requested`). An instance that starts removes its own rows.
 */
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../dialect.ts';
import { type AnyDb, columnsFor } from './columns.ts';

export function migration(dialect: Dialect): Migration {
  const { time, withId } = columnsFor(dialect);
  return {
    async up(db: AnyDb) {
      await db.schema
        .alterTable('users')
        .addColumn('gateway', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await withId(db.schema.createTable('gateways'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('login', 'text', (c) => c.notNull().unique())
        .addColumn('realm', 'text', (c) => c.notNull())
        .addColumn('ha1_md5', 'text', (c) => c.notNull())
        .addColumn('ha1_sha256', 'text', (c) => c.notNull())
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('floor_mode', 'text', (c) => c.notNull())
        .addColumn('attack_ms', 'integer', (c) => c.notNull())
        .addColumn('hang_ms', 'integer', (c) => c.notNull())
        .addColumn('priority', 'text', (c) => c.notNull())
        .addColumn('quiet_between', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('allowed_addresses', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('created_at', time, (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('gateway_channels')
        .addColumn('gateway_id', 'integer', (c) => c.notNull().references('gateways.id').onDelete('cascade'))
        .addColumn('channel_id', 'integer', (c) => c.notNull().references('channels.id').onDelete('cascade'))
        .addPrimaryKeyConstraint('gateway_channels_pk', ['gateway_id', 'channel_id'])
        .execute();
      await db.schema.createIndex('gateway_channels_channel').on('gateway_channels').column('channel_id').execute();
      await db.schema
        .createTable('gateway_calls')
        .addColumn('call_id', 'text', (c) => c.primaryKey())
        .addColumn('gateway_id', 'integer', (c) => c.notNull().references('gateways.id').onDelete('cascade'))
        .addColumn('user_id', 'integer', (c) => c.notNull())
        .addColumn('channel_id', 'integer', (c) => c.notNull().references('channels.id').onDelete('cascade'))
        .addColumn('instance_id', 'text', (c) => c.notNull())
        .addColumn('address', 'text', (c) => c.notNull())
        .addColumn('transport', 'text', (c) => c.notNull())
        .addColumn('codec', 'text', (c) => c.notNull())
        .addColumn('started_at', time, (c) => c.notNull())
        .addColumn('talking', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('hangup_requested', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.createIndex('gateway_calls_channel').on('gateway_calls').column('channel_id').execute();
    },
  };
}
