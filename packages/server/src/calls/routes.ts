/**
 * Private calls and who may make them (issue 27, docs/api.md "Private calls"): start, answer and end a call,
 * a user's own calls, and the organisation's call settings (members calling members), which an administrator
 * changes and the audit log keeps.
 */
import {
  AnswerPrivateCall,
  EndPrivateCall,
  GetCallSettings,
  GetPrivateCalls,
  SetCallSettings,
  StartPrivateCall,
} from '@talkgroup/protocol';
import type { FastifyInstance } from 'fastify';
import type { SessionStore } from '../auth/sessions.ts';
import { said } from '../http/messages.ts';
import { defineRoutes } from '../http/route.ts';
import type { SettingsStore } from '../settings/store.ts';
import type { PrivateCalls } from './private-calls.ts';

/** What this part uses of the services (app.ts hands them over). */
export interface CallRoutesServices {
  privateCalls: PrivateCalls;
  sessions: SessionStore;
  settings: SettingsStore;
}

export function callRoutes(app: FastifyInstance, services: CallRoutesServices): void {
  const { privateCalls, settings } = services;
  const route = defineRoutes(app, services.sessions);

  route(StartPrivateCall, async ({ body, auth }) => {
    const { call, crossed } = await privateCalls.start(auth, body.userId);
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

  route(GetCallSettings, async () => ({ success: true, res: await settings.calls() }));

  route(SetCallSettings, async ({ body }) => ({
    success: true,
    ...said('call_settings_saved'),
    res: await settings.setCalls({ membersMayCallMembers: body.membersMayCallMembers }),
  }));

  app.addHook('onClose', async () => privateCalls.stop());
}
