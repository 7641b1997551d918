/**
 * Web Push (issue 34): a browser's push subscription (the PushSubscription's toJSON()), saved for the signed-in
 * user and the session that sends it; the server pushes SOS alerts, ringing private calls, transmissions in
 * channels the member is not in now, and geofence alerts to it. getClientConfig's pushPublicKey is the key
 * to subscribe with (null: push is off).
 */
import { z } from 'zod';
import { call, Id, OkSchema } from '../call.ts';

/** What the service worker receives, decrypted: shown as a notification, `url` opened by a tap. */
/** `missed_call`: the ringing call's notification (same tag) becomes a missed call once nobody answered it. */
/** `lone_worker` (issue 60): a lone worker's check (to itself) or its missed checks (to its dispatchers). */
export const PUSH_KINDS = [
  'sos',
  'call',
  'missed_call',
  'transmission',
  'geofence',
  'dispatch',
  'lone_worker',
] as const;
export type PushKind = (typeof PUSH_KINDS)[number];
export const PushPayloadSchema = z.object({
  kind: z.enum(PUSH_KINDS),
  title: z.string(),
  body: z.string(),
  /** The page that handles it (/talk, a private call's, an alert's). */
  url: z.string(),
  /** One notification per tag: a new one replaces the previous one (a channel's transmissions). */
  tag: z.string(),
  /** A ringing call's id: the service worker's decline action answers it. */
  callId: z.number().optional(),
  /**
   * A ringing call's decline key (issue 47): with `callId`, declinePushedCall declines that call, and nothing
   * else, without a session token (the service worker keeps none).
   */
  declineKey: z.string().optional(),
  /** A ringing call that answers the callee's dispatch request (issue 58): that request. */
  requestId: z.number().optional(),
});
export type PushPayload = z.output<typeof PushPayloadSchema>;

export const PushSubscriptionSchema = z.object({
  endpoint: z.string().min(1).max(2048),
  expirationTime: z.number().nullable().optional(),
  keys: z.object({ p256dh: z.string().min(1).max(200), auth: z.string().min(1).max(100) }),
});
export type PushSubscriptionInput = z.output<typeof PushSubscriptionSchema>;

/**
 * One row per endpoint, at most one per session and five per user: saving replaces the session's previous one
 * and, past five, the user's least recently saved one. The same endpoint saved again by its user updates it (its
 * keys, its session); another user's endpoint is refused (409 push_endpoint_taken).
 */
export const SavePushSubscription = call(OkSchema)(
  '/user/api/savePushSubscription',
  'signedIn',
  z.object({ subscription: PushSubscriptionSchema }),
);
/** Removes the caller's subscription of this endpoint (none: nothing to do, still a success). */
export const DeletePushSubscription = call(OkSchema)(
  '/user/api/deletePushSubscription',
  'signedIn',
  z.object({ endpoint: z.string().min(1).max(2048) }),
);
/**
 * Declines a ringing call from its notification (the service worker): no token, the call's decline key from its
 * push instead (issue 47). 403 push_decline_refused for a wrong key or an unknown call; 409 call_not_ringing once
 * it no longer rings (so it works once).
 */
export const DeclinePushedCall = call(OkSchema)(
  '/user/api/declinePushedCall',
  'public',
  z.object({ callId: Id, key: z.string().min(1).max(100) }),
);
