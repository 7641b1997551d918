/**
 * Private calls and who may make them (issue 27, docs/api.md "Private calls"): start, answer and end a call,
 * a user's own calls, and the organisation's call settings (members calling members), which an administrator
 * changes and the audit log keeps. Compliance (issue 47): where PRIVATE_CALLS_AUDITABLE=true, one who may
 * export a private call lists the calls of a period to choose one; each listing is audited.
 */
import {
  AnswerPrivateCall,
  EndPrivateCall,
  GetCallSettings,
  GetPrivateCalls,
  ListPrivateCalls,
  SetCallSettings,
  StartPrivateCall,
} from '@talkgroup/protocol';
import type { FastifyInstance } from 'fastify';
import type { AuditStore } from '../audit/store.ts';
import type { SessionStore } from '../auth/sessions.ts';
import type { Config } from '../config/config.ts';
import { forbidden } from '../http/errors.ts';
import { said } from '../http/messages.ts';
import { defineRoutes } from '../http/route.ts';
import type { SettingsStore } from '../settings/store.ts';
import type { PrivateCalls } from './private-calls.ts';

/** What this part uses of the services (app.ts hands them over). */
export interface CallRoutesServices {
  audit: AuditStore;
  config: Pick<Config, 'privateCallsAuditable'>;
  privateCalls: PrivateCalls;
  sessions: SessionStore;
  settings: SettingsStore;
}

export function callRoutes(app: FastifyInstance, services: CallRoutesServices): void {
  const { privateCalls, settings } = services;
  const route = defineRoutes(app, services.sessions);

  route(StartPrivateCall, async ({ body, auth }) => {
    // A functional alias (issue 59): its holders ring, the caller hears the alias's name.
    if (body.aliasId !== undefined) {
      const call = await privateCalls.startAlias(auth, body.aliasId);
      return {
        success: true,
        ...said('call_ringing', { name: call.alias?.name ?? call.callee.name }),
        res: { callId: call.callId, room: call.room },
      };
    }
    const { call, crossed } = await privateCalls.start(auth, body.userId as number);
    return {
      success: true,
      // Two calls crossed (the callee was calling this caller): they are one call, answered.
      ...(crossed ? said('call_answered') : said('call_ringing', { name: call.callee.name })),
      res: { callId: call.callId, room: call.room },
    };
  });

  route(AnswerPrivateCall, async ({ body, auth }) => {
    const call = await privateCalls.answer(auth, body.callId, body.accept);
    return { success: true, ...said(body.accept ? 'call_answered' : 'call_declined'), res: call };
  });

  route(EndPrivateCall, async ({ body, auth }) => {
    await privateCalls.end(auth, body.callId);
    return { success: true, ...said('call_ended') };
  });

  route(GetPrivateCalls, async ({ body, auth }) => ({
    success: true,
    res: await privateCalls.history(auth.userId, body.limit),
  }));

  // Who listed which period is written before anything is answered: a listing the audit log missed never
  // reaches anyone.
  route(ListPrivateCalls, async ({ body, auth, req }) => {
    if (!services.config.privateCallsAuditable) throw forbidden('private_calls_not_auditable');
    const period = { from: body.from?.toISOString() ?? null, to: body.to?.toISOString() ?? null };
    await services.audit.write({
      actorId: auth.userId,
      action: 'privateCall.list',
      targetType: 'privateCall',
      targetId: null,
      targetName: null,
      changes: {
        from: { before: null, after: period.from },
        to: { before: null, after: period.to },
      },
      address: req.ip,
      requestId: req.id,
    });
    const { calls, hasMore } = await privateCalls.inPeriod(body);
    return { success: true, res: calls, hasMore };
  });

  route(GetCallSettings, async () => ({ success: true, res: await settings.calls() }));

  route(SetCallSettings, async ({ body }) => ({
    success: true,
    ...said('call_settings_saved'),
    res: await settings.setCalls({ membersMayCallMembers: body.membersMayCallMembers }),
  }));

  app.addHook('onClose', async () => privateCalls.stop());
}
