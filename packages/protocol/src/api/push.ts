/**
 * Web Push (issue 34): a browser's push subscription (the PushSubscription's toJSON()), saved for the signed-in
 * user and the session that sends it; the server pushes SOS alerts, ringing private calls, transmissions in
 * channels the member is not in now, and geofence alerts to it. getClientConfig's pushPublicKey is the key
 * to subscribe with (null: push is off).
 */
import { z } from 'zod';
import { call, OkSchema } from '../call.ts';

/** What the service worker receives, decrypted: shown as a notification, `url` opened by a tap. */
/** `missed_call`: the ringing call's notification (same tag) becomes a missed call once nobody answered it. */
export const PUSH_KINDS = ['sos', 'call', 'missed_call', 'transmission', 'geofence'] as const;
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
});
export type PushPayload = z.output<typeof PushPayloadSchema>;

export const PushSubscriptionSchema = z.object({
  endpoint: z.string().min(1).max(2048),
  expirationTime: z.number().nullable().optional(),
  keys: z.object({ p256dh: z.string().min(1).max(200), auth: z.string().min(1).max(100) }),
});
export type PushSubscriptionInput = z.output<typeof PushSubscriptionSchema>;

/** One row per endpoint: saving the same endpoint again updates it (its keys, its session). */
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
