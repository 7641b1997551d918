/** savePushSubscription and deletePushSubscription (issue 34; docs/api.md). */
import { DeletePushSubscription, SavePushSubscription } from '@talkgroup/protocol';
import type { FastifyInstance } from 'fastify';
import type { SessionStore } from '../auth/sessions.ts';
import type { Config } from '../config.ts';
import { badRequest } from '../http/errors.ts';
import { languageOf, said } from '../http/messages.ts';
import { defineRoutes } from '../http/route.ts';
import { checkEndpoint, checkKeys } from './endpoints.ts';
import type { Push } from './service.ts';

/** What this part uses of the services (app.ts hands them over). */
export interface PushRoutesServices {
  config: Config;
  sessions: SessionStore;
}

export function pushRoutes(app: FastifyInstance, services: PushRoutesServices, push: Push): void {
  const route = defineRoutes(app, services.sessions);

  route(SavePushSubscription, async ({ body, auth, req }) => {
    if (!push.publicKey) throw badRequest('push_off');
    const { subscription } = body;
    const refused =
      (await checkEndpoint(subscription.endpoint, services.config.pushEndpointAllow)) ?? checkKeys(subscription.keys);
    if (refused) throw badRequest(refused);
    await push.store.save(auth, subscription, languageOf(req));
    return { success: true, ...said('push_saved') };
  });

  route(DeletePushSubscription, async ({ body, auth }) => {
    await push.store.remove(auth.userId, body.endpoint);
    return { success: true, ...said('push_deleted') };
  });
}
