/**
 * Web Push (issue 34), put together at start: the VAPID keys (made once, kept in the database, or given), the
 * subscriptions, the sender's queues, the calls' decline keys and the listeners that decide what is pushed.
 * PUSH=off: no keys, no listeners, getClientConfig says pushPublicKey null, savePushSubscription and
 * declinePushedCall refuse.
 */

import type { MembershipStore } from '../channels/membership.ts';
import type { Config } from '../config/config.ts';
import type { Db } from '../db/schema.ts';
import type { EventBus } from '../events.ts';
import { loadOrCreateSecret } from '../messages/files.ts';
import type { Metrics } from '../process/metrics.ts';
import { type CallDeclineKeys, callDeclineKeys } from './decline-keys.ts';
import { loadVapidKeys } from './keys.ts';
import { pushNotifications } from './notify.ts';
import { PUSH_COUNTER, type PushSender, pushSender } from './sender.ts';
import type { PushSubscriptionStore } from './store.ts';

/** What this part uses of the services (app.ts hands them over). */
export interface PushServices {
  config: Config;
  db: Db;
  events: EventBus;
  memberships: MembershipStore;
  pushSubscriptions: PushSubscriptionStore;
}

export interface Push {
  /** base64url of the 65-byte VAPID public key; null when push is off. */
  publicKey: string | null;
  store: PushSubscriptionStore;
  /** Undefined when push is off. */
  sender: PushSender | undefined;
  /** The ringing calls' decline keys (in the call's push); undefined when push is off. */
  declineKeys: CallDeclineKeys | undefined;
  close(): void;
}

/** VAPID_SUBJECT, else mailto: the first administrator's email (read once it is first needed). */
function subjectOf(services: PushServices): () => Promise<string> {
  let subject: string | undefined = services.config.vapidSubject;
  return async () => {
    if (subject) return subject;
    const admin = await services.db
      .selectFrom('users')
      .select('identifier')
      .where('role', '=', 'admin')
      .orderBy('id')
      .limit(1)
      .executeTakeFirst();
    const email = admin?.identifier.includes('@') ? admin.identifier : undefined;
    if (email) subject = `mailto:${email}`;
    return subject ?? 'mailto:postmaster@localhost';
  };
}

export async function createPush(
  services: PushServices,
  metrics: Pick<Metrics, 'counter'>,
  onError: (error: unknown, what: string) => void,
): Promise<Push> {
  const { config } = services;
  const store = services.pushSubscriptions;
  if (!config.push) return { publicKey: null, store, sender: undefined, declineKeys: undefined, close() {} };
  // DATA_DIR/secret.key, which every instance shares (services.ts reads the same file).
  const declineKeys = callDeclineKeys(loadOrCreateSecret(config.dataDir));
  const keys = await loadVapidKeys(services.db, config);
  const sender = pushSender({
    keys,
    subject: subjectOf(services),
    store,
    count: metrics.counter(PUSH_COUNTER),
    allow: config.pushEndpointAllow,
    extraCa: config.pushExtraCa,
    onError,
  });
  const stop = pushNotifications({
    db: services.db,
    events: services.events,
    memberships: services.memberships,
    store,
    sender,
    declineKeys,
    ringMs: config.privateCallRingMs,
    onError,
  });
  return {
    publicKey: keys.publicKey,
    store,
    sender,
    declineKeys,
    close() {
      stop();
      sender.close();
    },
  };
}
