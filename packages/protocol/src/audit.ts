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

/**
 * Every action the server writes in the audit log (issue 70): the server's writers take only these (typed
 * `AuditAction`), and the web app names each one in every language (audit-actions.test.ts checks both).
 * A refused change is written as `<action>_refused` (auditing.ts's `refusals`), listed here as well.
 */
export const AUDIT_ACTIONS = [
  'user.create',
  'user.update',
  'user.password',
  'user.disconnect',
  'user.disable',
  'user.delete',
  'user.photo',
  'user.import',
  'user.second_factor_reset',
  'user.totp_on',
  'user.totp_off',
  'user.select_channel',
  'user.sso_create',
  'user.sso_link',
  'user.sso_role',
  'user.sso_unlink',
  'user.sso_dismiss',
  'membership.add',
  'membership.remove',
  'membership.set',
  'membership.rights',
  'channel.create',
  'channel.update',
  'channel.delete',
  'channel.import',
  'channel.patch',
  'channel.unpatch',
  'activity.delete',
  'alert.raise',
  'alert.acknowledge',
  'alert.close',
  'alert.ok',
  'geofence.create',
  'geofence.update',
  'geofence.delete',
  'geofence.update_refused',
  'geofence.delete_refused',
  'settings.calls',
  'settings.security',
  'settings.timeZone',
  'settings.statuses',
  'settings.safety',
  'settings.video',
  'privateCall.list',
  'privateCall.export',
  'gateway.create',
  'gateway.update',
  'gateway.secret',
  'gateway.delete',
  'gateway.hangUp',
  'gateway.refused',
  'alias.create',
  'alias.update',
  'alias.delete',
  'alias.assign',
  'alias.take',
  'alias.release',
  'passkey.add',
  'passkey.delete',
  'session.end',
  'session.disable_device',
  'regroup.create',
  'regroup.end',
  'regroup.expire',
  'video.request',
  'video.request_expired',
  'video.answer',
  'video.start_without_consent',
  'ambient.start',
  'ambient.renew',
  'ambient.announce',
  'ambient.stop',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** The catalogue key naming an action (`audit:actions.<key>`): i18next reads dots as nesting, so `.` becomes `_`. */
export const auditActionKey = (action: string): string => action.replaceAll('.', '_');

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

/**
 * The fields of `changes` (at any depth: `loneWorker.channelIds` too) that hold a user's or a channel's id, or a
 * list of them: getAuditLog names them (`names`) so that the log reads "members: Léo Garnier, Inès Roux" (issue 70).
 */
export const AUDIT_ID_FIELDS: Readonly<Record<string, 'users' | 'channels'>> = {
  members: 'users',
  listenOnly: 'users',
  userId: 'users',
  userIds: 'users',
  channels: 'channels',
  channelId: 'channels',
  channelIds: 'channels',
};

/** Newest first. `names`: the users' and channels' names of the ids in the page's changes (those that still exist). */
export const GetAuditLog = call(
  ok({
    res: z.object({
      entries: z.array(AuditEntrySchema),
      totalRecords: z.number(),
      names: z
        .object({ users: z.record(z.string(), z.string()), channels: z.record(z.string(), z.string()) })
        .optional(),
    }),
  }),
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
