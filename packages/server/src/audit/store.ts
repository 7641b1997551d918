/** The audit log's rows: written inside the change's transaction, read newest first; never pruned. */
import type { AuditAction, AuditEntry } from '@talkgroup/protocol';
import type { Selectable } from 'kysely';
import type { AuditLogTable, Db } from '../db/schema.ts';
import { idsIn } from './names.ts';

export interface AuditRecord {
  /** Null for something the server itself did or refused (the SIP server refusing a call): `actorName` says what. */
  actorId: number | null;
  actorName?: string;
  /** One of the catalogue's (AUDIT_ACTIONS): the audit log names each in every language. */
  action: AuditAction;
  targetType: string;
  targetId: number | null;
  targetName: string | null;
  changes: Record<string, { before: unknown; after: unknown }> | null;
  address: string | null;
  requestId: string | null;
}

function toEntry(row: Selectable<AuditLogTable>): AuditEntry {
  return {
    id: row.id,
    createdAt: row.created_at,
    actor: { id: row.actor_id, name: row.actor_name },
    action: row.action,
    targetType: row.target_type,
    targetId: row.target_id,
    targetName: row.target_name,
    changes: row.changes ? JSON.parse(row.changes) : null,
    address: row.address,
    requestId: row.request_id,
  };
}

export function auditStore(db: Db) {
  return {
    async write(record: AuditRecord): Promise<void> {
      const actor =
        record.actorId === null
          ? undefined
          : await db
              .selectFrom('users')
              .select(['first_name', 'last_name', 'display_name'])
              .where('id', '=', record.actorId)
              .executeTakeFirst();
      await db
        .insertInto('audit_log')
        .values({
          created_at: new Date().toISOString(),
          actor_id: actor ? record.actorId : null,
          actor_name: actor
            ? actor.display_name || `${actor.first_name} ${actor.last_name}`
            : (record.actorName ?? `#${record.actorId}`),
          action: record.action,
          target_type: record.targetType,
          target_id: record.targetId,
          target_name: record.targetName,
          changes: record.changes && Object.keys(record.changes).length > 0 ? JSON.stringify(record.changes) : null,
          address: record.address,
          request_id: record.requestId,
        })
        .execute();
    },

    async page(options: { start: number; limit: number; actorId?: number; targetType?: string }) {
      let query = db.selectFrom('audit_log');
      if (options.actorId !== undefined) query = query.where('actor_id', '=', options.actorId);
      if (options.targetType !== undefined) query = query.where('target_type', '=', options.targetType);
      const [rows, count] = await Promise.all([
        query.selectAll().orderBy('id', 'desc').offset(options.start).limit(options.limit).execute(),
        query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
      ]);
      return { entries: rows.map(toEntry), total: Number(count?.n ?? 0) };
    },

    /** The users' and channels' names of the ids in these entries' changes (names.ts). */
    async namesIn(entries: readonly AuditEntry[]) {
      const ids = idsIn(entries);
      const [users, channels] = await Promise.all([
        ids.users.size === 0
          ? []
          : db
              .selectFrom('users')
              .select(['id', 'first_name', 'last_name', 'display_name'])
              .where('id', 'in', [...ids.users])
              .execute(),
        ids.channels.size === 0
          ? []
          : db
              .selectFrom('channels')
              .select(['id', 'name'])
              .where('id', 'in', [...ids.channels])
              .execute(),
      ]);
      return {
        users: Object.fromEntries(
          users.map((user) => [String(user.id), user.display_name || `${user.first_name} ${user.last_name}`]),
        ),
        channels: Object.fromEntries(channels.map((channel) => [String(channel.id), channel.name])),
      };
    },
  };
}

export type AuditStore = ReturnType<typeof auditStore>;
