/** savePushSubscription, deletePushSubscription and declinePushedCall (issues 34 and 47; docs/api.md). */
import { DeclinePushedCall, DeletePushSubscription, SavePushSubscription } from '@talkgroup/protocol';
import type { FastifyInstance } from 'fastify';
import type { SessionStore } from '../auth/sessions.ts';
import type { PrivateCalls } from '../calls/private-calls.ts';
import type { Config } from '../config/config.ts';
import { badRequest, conflict, forbidden } from '../http/errors.ts';
import { languageOf, said } from '../http/messages.ts';
import { defineRoutes } from '../http/route.ts';
import { checkEndpoint, checkKeys } from './endpoints.ts';
import type { Push } from './service.ts';

/** What this part uses of the services (app.ts hands them over). */
export interface PushRoutesServices {
  config: Config;
  sessions: SessionStore;
  privateCalls: Pick<PrivateCalls, 'byId' | 'declineRinging'>;
}

export function pushRoutes(app: FastifyInstance, services: PushRoutesServices, push: Push): void {
  const route = defineRoutes(app, services.sessions);

  route(SavePushSubscription, async ({ body, auth, req }) => {
    if (!push.publicKey) throw badRequest('push_off');
    const { subscription } = body;
    const refused =
      (await checkEndpoint(subscription.endpoint, services.config.pushEndpointAllow)) ?? checkKeys(subscription.keys);
    if (refused) throw badRequest(refused);
    // Another user's endpoint is never taken over: a browser gives each subscription an endpoint of its own, so
    // the same one from another account is a copy (the page then subscribes again and gets a fresh one).
    if ((await push.store.save(auth, subscription, languageOf(req))) === 'taken') throw conflict('push_endpoint_taken');
    return { success: true, ...said('push_saved') };
  });

  route(DeletePushSubscription, async ({ body, auth }) => {
    await push.store.remove(auth.userId, body.endpoint);
    return { success: true, ...said('push_deleted') };
  });

  route(DeclinePushedCall, async ({ body }) => {
    const call = push.declineKeys ? await services.privateCalls.byId(body.callId) : undefined;
    // The callee's key, or (a call to an alias, issue 59) the key of one of the holders it rings.
    const rung = call ? [call.callee.userId, ...(call.alias?.ringing ?? [])] : [];
    const holder = rung.find((id) => id !== null && push.declineKeys?.matches(body.callId, id, body.key));
    // An unknown call and a wrong key answer alike: the key is the only way in.
    if (!call || holder === undefined || holder === null) throw forbidden('push_decline_refused');
    await services.privateCalls.declineRinging(call.callId, holder);
    return { success: true, ...said('call_declined') };
  });
}
