/**
 * Which privileged calls are audited and how: the call runs in one transaction (transactional.ts) with
 * its audit row — who, what, the target's fields before and after (a password only as "changed"), the
 * address and the request id. The row commits with the change or not at all.
 */
import {
  AcknowledgeEmergencyAlert,
  AddUserToChannel,
  type Call,
  CloseEmergencyAlert,
  ConfirmTotpSetup,
  CreateChannel,
  CreateGateway,
  CreateGeofence,
  CreateMultipleChannels,
  CreateMultipleUsers,
  DeleteChannel,
  DeleteGateway,
  DeleteGeofence,
  DeleteOldActivities,
  DeleteUser,
  DeleteUserFromChannel,
  DeleteUserTokens,
  DisableTotp,
  HangUpGatewayCall,
  PatchChannels,
  RemoveUserChannels,
  ResetGatewaySecret,
  ResetSecondFactor,
  SetCallSettings,
  SetChannelMemberRights,
  SetSecurityPolicy,
  SetStatuses,
  SetTimeZone,
  SetUserDisabled,
  SignUpUser,
  UnpatchChannels,
  UpdateChannel,
  UpdateChannelUsers,
  UpdateGateway,
  UpdateGeofence,
  UpdatePasswordUser,
  UpdateUserChannels,
  UpdateUserChannelsByChannelName,
  UpdateUserData,
  UploadUserPhoto,
} from '@talkgroup/protocol';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/schema.ts';
import { HttpError } from '../http/errors.ts';
import type { TokenOwner } from '../http/route.ts';
import { deskSpecs } from './desk-specs.ts';
import { sessionSpecs } from './session-specs.ts';
import { type Snapshot, snapshot } from './snapshots.ts';
import type { AuditSpec } from './spec.ts';
import type { AuditStore } from './store.ts';
import type { Transactional } from './transactional.ts';

export type { AuditSpec };

const identifierOf = (db: Db) => async (body: { userIdentifier: string }) =>
  (
    await db
      .selectFrom('users')
      .select('id')
      .where('identifier', '=', body.userIdentifier.trim().toLowerCase())
      .executeTakeFirst()
  )?.id;

function specs(db: Db): Map<Call, AuditSpec> {
  const byIdentifier = identifierOf(db);
  return new Map<Call, AuditSpec>([
    [SignUpUser, { action: 'user.create', targetType: 'user', targetId: (_b, answer) => answer?.user?.id }],
    [UpdateUserData, { action: 'user.update', targetType: 'user', targetId: (b) => b.id }],
    [UpdatePasswordUser, { action: 'user.password', targetType: 'user', targetId: (b) => b.id }],
    [DeleteUserTokens, { action: 'user.disconnect', targetType: 'user', targetId: (b) => b.userId }],
    [SetUserDisabled, { action: 'user.disable', targetType: 'user', targetId: (b) => b.userId }],
    [DeleteUser, { action: 'user.delete', targetType: 'user', targetId: (b) => b.UserId }],
    [UploadUserPhoto, { action: 'user.photo', targetType: 'user', targetId: (b) => b.userId }],
    [
      CreateMultipleUsers,
      {
        action: 'user.import',
        targetType: 'user',
        afterwards: true,
        // A big import is a job (issue 29): this row says it began; the job writes what it did when it ends.
        summary: (_b, answer) =>
          answer.jobId !== undefined
            ? { jobId: answer.jobId, state: answer.state, rows: answer.total }
            : {
                added: answer.createdUsers.added.map((row: { identifier: unknown }) => row.identifier),
                alreadyExisting: answer.createdUsers.alreadyExisting.length,
                notAdded: answer.createdUsers.notAdded.length,
              },
      },
    ],
    [UpdateUserChannelsByChannelName, { action: 'membership.add', targetType: 'user', targetId: byIdentifier }],
    [RemoveUserChannels, { action: 'membership.set', targetType: 'user', targetId: byIdentifier }],
    [UpdateChannelUsers, { action: 'membership.set', targetType: 'user', targetId: (b) => b.userId }],
    [CreateChannel, { action: 'channel.create', targetType: 'channel', targetId: (_b, answer) => answer?.res?.id }],
    [UpdateChannel, { action: 'channel.update', targetType: 'channel', targetId: (b) => b.channelId }],
    [DeleteChannel, { action: 'channel.delete', targetType: 'channel', targetId: (b) => b.channelId }],
    [
      CreateMultipleChannels,
      {
        action: 'channel.import',
        targetType: 'channel',
        summary: (_b, answer) => ({
          added: answer.channelsCreated.added.map((row: { name: unknown }) => row.name),
          alreadyExisting: answer.channelsCreated.alreadyExisting.length,
          notAdded: answer.channelsCreated.notAdded.length,
        }),
      },
    ],
    [AddUserToChannel, { action: 'membership.add', targetType: 'channel', targetId: (b) => b.channelId }],
    [SetChannelMemberRights, { action: 'membership.rights', targetType: 'channel', targetId: (b) => b.channelId }],
    [DeleteUserFromChannel, { action: 'membership.remove', targetType: 'channel', targetId: (b) => b.channelId }],
    [UpdateUserChannels, { action: 'membership.set', targetType: 'channel', targetId: (b) => b.channelId }],
    [
      DeleteOldActivities,
      {
        action: 'activity.delete',
        targetType: 'activity',
        summary: (b, answer) => ({ timeFrame: b.timeFrame, deleted: answer.deleted }),
      },
    ],
    [
      PatchChannels,
      {
        action: 'channel.patch',
        targetType: 'channel',
        summary: (b, answer) => ({ patchId: answer.res.patchId, channels: b.channelIds }),
      },
    ],
    [UnpatchChannels, { action: 'channel.unpatch', targetType: 'channel', summary: (b) => ({ patchId: b.patchId }) }],
    [
      SetCallSettings,
      {
        action: 'settings.calls',
        targetType: 'setting',
        summary: (_b, answer) => ({ membersMayCallMembers: answer.res.membersMayCallMembers }),
      },
    ],
    [
      SetSecurityPolicy,
      {
        action: 'settings.security',
        targetType: 'setting',
        summary: (_b, answer) => ({ requireSecondFactor: answer.res.requireSecondFactor }),
      },
    ],
    // Issue 50: the organisation's time zone (null: back to the server's).
    [SetTimeZone, { action: 'settings.timeZone', targetType: 'setting', summary: (b) => ({ timeZone: b.timeZone }) }],
    // Issue 49: the members' statuses, as the list reads after the change.
    [
      SetStatuses,
      {
        action: 'settings.statuses',
        targetType: 'setting',
        summary: (_b, answer) => ({
          statuses: answer.res.map(
            (status: { label: { fr: string }; color: string }) => `${status.label.fr} ${status.color}`,
          ),
        }),
      },
    ],
    // Issue 38: a user's second factor, set or removed by the user or reset by an administrator (never a secret).
    [
      ResetSecondFactor,
      {
        action: 'user.second_factor_reset',
        targetType: 'user',
        targetId: (b) => b.userId,
        summary: () => ({ secondFactor: 'removed' }),
      },
    ],
    [
      ConfirmTotpSetup,
      {
        action: 'user.totp_on',
        targetType: 'user',
        targetId: (_b, _a, auth) => auth?.userId,
        summary: () => ({ totp: true }),
      },
    ],
    [
      DisableTotp,
      {
        action: 'user.totp_off',
        targetType: 'user',
        targetId: (_b, _a, auth) => auth?.userId,
        summary: () => ({ totp: false }),
      },
    ],
    [
      AcknowledgeEmergencyAlert,
      {
        action: 'alert.acknowledge',
        targetType: 'alert',
        targetId: (b) => Number(b.alertId),
        summary: (b) => ({ acknowledged: b.alertId }),
      },
    ],
    // Issue 50: closed with its outcome (real, or a false alarm).
    [
      CloseEmergencyAlert,
      {
        action: 'alert.close',
        targetType: 'alert',
        targetId: (b) => Number(b.alertId),
        summary: (b) => ({ closed: b.alertId, outcome: b.outcome }),
      },
    ],
    [CreateGeofence, { action: 'geofence.create', targetType: 'geofence', targetId: (_b, answer) => answer?.res?.id }],
    // Issue 69: a refused change too (an area channel's zone is an administrator's).
    [
      UpdateGeofence,
      {
        action: 'geofence.update',
        targetType: 'geofence',
        targetId: (b) => Number(b.id),
        refusals: 'geofence.update_refused',
      },
    ],
    [
      DeleteGeofence,
      {
        action: 'geofence.delete',
        targetType: 'geofence',
        targetId: (b) => Number(b.id),
        refusals: 'geofence.delete_refused',
      },
    ],
    // Issue 51: SIP gateways, never with their secret (only that it changed: `secretChanged`).
    [CreateGateway, { action: 'gateway.create', targetType: 'gateway', targetId: (_b, answer) => answer?.res?.id }],
    [UpdateGateway, { action: 'gateway.update', targetType: 'gateway', targetId: (b) => Number(b.id) }],
    [ResetGatewaySecret, { action: 'gateway.secret', targetType: 'gateway', targetId: (b) => Number(b.id) }],
    [DeleteGateway, { action: 'gateway.delete', targetType: 'gateway', targetId: (b) => Number(b.id) }],
    [
      HangUpGatewayCall,
      {
        action: 'gateway.hangUp',
        targetType: 'gateway',
        // The call's row stays until its instance hangs up: it still names the gateway after the change.
        targetId: async (b) =>
          (await db.selectFrom('gateway_calls').select('gateway_id').where('call_id', '=', b.callId).executeTakeFirst())
            ?.gateway_id,
        summary: (b) => ({ callId: b.callId }),
      },
    ],
    ...deskSpecs(),
    ...sessionSpecs(db),
  ]);
}

/**
 * The fields that differ; a password only as `passwordChanged` and a gateway's secret only as `secretChanged`
 * when it was replaced (the hashes are compared, never written).
 */
export function changesBetween(before: Snapshot | undefined, after: Snapshot | undefined) {
  const changes: Record<string, { before: unknown; after: unknown }> = {};
  const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  for (const key of keys) {
    const was = before?.[key] ?? null;
    const is = after?.[key] ?? null;
    if (JSON.stringify(was) === JSON.stringify(is)) continue;
    if (key === 'password') changes.passwordChanged = { before: null, after: is !== null };
    else if (key === 'secret') {
      if (was !== null && is !== null) changes.secretChanged = { before: null, after: true };
    } else changes[key] = { before: was, after: is };
  }
  return changes;
}

export function auditing(db: Db, tx: Transactional, store: AuditStore) {
  const table = specs(db);
  return {
    /** Runs a privileged call with its audit row in one transaction (other calls run as they are). */
    async around<T>(
      call: Call,
      ctx: { auth: TokenOwner | undefined; req: FastifyRequest; body: unknown },
      run: () => Promise<T>,
    ) {
      const spec = table.get(call);
      const { auth, req, body } = ctx;
      // Every privileged change, whoever makes it (an administrator, a dispatcher taking an alert, a member
      // changing its own password); a sign-up without a token has no actor to name.
      if (!spec || !auth) return run();
      const audited = async () => {
        const knownId =
          spec.summary && spec.targetType !== 'alert' ? undefined : await spec.targetId?.(body, undefined, auth);
        const before = knownId !== undefined ? await snapshot(db, spec.targetType, knownId) : undefined;
        const answer = await run();
        const targetId = knownId ?? (await spec.targetId?.(body, answer, auth));
        const after = targetId !== undefined ? await snapshot(db, spec.targetType, targetId) : undefined;
        await store.write({
          actorId: auth.userId,
          action: spec.action,
          targetType: spec.targetType,
          targetId: targetId ?? null,
          targetName: (after ?? before)?.name ?? null,
          changes: spec.summary
            ? Object.fromEntries(
                Object.entries(spec.summary(body, answer)).map(([k, v]) => [k, { before: null, after: v }]),
              )
            : changesBetween(before, after),
          address: req.ip ?? null,
          requestId: String(req.id),
        });
        return answer;
      };
      const done = spec.afterwards ? audited() : tx.run(audited);
      const refused = spec.refusals;
      if (!refused) return done;
      return done.catch(async (error: unknown) => {
        if (error instanceof HttpError && error.statusCode === 403) {
          const targetId = await spec.targetId?.(body, undefined, auth);
          const target = targetId !== undefined ? await snapshot(db, spec.targetType, targetId) : undefined;
          await store.write({
            actorId: auth.userId,
            action: refused,
            targetType: spec.targetType,
            targetId: target ? (targetId ?? null) : null,
            targetName: target?.name ?? null,
            changes: { refused: { before: null, after: error.code } },
            address: req.ip ?? null,
            requestId: String(req.id),
          });
        }
        throw error;
      });
    },
  };
}

export type Auditing = ReturnType<typeof auditing>;

declare module 'fastify' {
  interface FastifyInstance {
    /** Set by auditRoutes (audit/routes.ts); route.ts runs administrators' calls through it. */
    auditing?: Auditing;
  }
}
