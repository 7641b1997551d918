/**
 * The audit log (issue 16): what administrators did — who, what, to what, the changed fields before and
 * after (never a password), when, from which address and in which request. Never pruned.
 */
import { z } from 'zod';
import { call, Id, ok } from './call.ts';

export const AuditEntrySchema = z.object({
  id: z.number(),
  createdAt: z.string(),
  /** The administrator; id null once that account is deleted (the name stays). */
  actor: z.object({ id: z.number().nullable(), name: z.string() }),
  /** `user.create`, `user.update`, `channel.delete`, `membership.set`, `activity.delete`, `alert.acknowledge`... */
  action: z.string(),
  /** `user`, `channel`, `activity`, `alert`, `geofence`, `setting`. */
  targetType: z.string(),
  targetId: z.number().nullable(),
  targetName: z.string().nullable(),
  /** Changed fields: `{ field: { before, after } }`; a password only as `passwordChanged`. */
  changes: z.record(z.string(), z.object({ before: z.unknown(), after: z.unknown() })).nullable(),
  address: z.string().nullable(),
  requestId: z.string().nullable(),
});
export type AuditEntry = z.output<typeof AuditEntrySchema>;

export const AUDIT_TARGET_TYPES = [
  'user',
  'channel',
  'activity',
  'alert',
  'geofence',
  'setting',
  'privateCall',
  'gateway',
  'alias',
] as const;

/** Newest first. */
export const GetAuditLog = call(
  ok({ res: z.object({ entries: z.array(AuditEntrySchema), totalRecords: z.number() }) }),
)(
  '/user/api/getAuditLog',
  'audit.read',
  z.object({
    start: z.coerce.number().int().min(0).default(0),
    limit: z.coerce.number().int().min(1).max(200).default(50),
    actorId: Id.optional(),
    targetType: z.enum(AUDIT_TARGET_TYPES).optional(),
  }),
);
