/**
 * The emergency alert (SOS, issue 14): a member or an administrator raises it, every administrator sees it at
 * once with a position, one of them takes it (acknowledges). Calls of the contract and the alert's shape.
 */
import { z } from 'zod';
import { call, Empty, Id, ok } from './call.ts';

export const EmergencyAlertSchema = z.object({
  id: z.number(),
  /** null once the sender's account is deleted; its name stays. */
  userId: z.number().nullable(),
  display_name: z.string(),
  channelId: z.number().nullable(),
  channelName: z.string().nullable(),
  lat: z.number().nullable(),
  lng: z.number().nullable(),
  /** Metres, as the browser's geolocation gives it. */
  accuracy: z.number().nullable(),
  createdAt: z.string(),
  /** Who took it, and when: null while the alert is open. */
  acknowledgedBy: z.object({ id: z.number().nullable(), display_name: z.string() }).nullable(),
  acknowledgedAt: z.string().nullable(),
  /** Who closed it, when, and how it turned out (issue 50): null until closed (closeEmergencyAlert). */
  closedBy: z.object({ id: z.number().nullable(), display_name: z.string() }).nullable().optional(),
  closedAt: z.string().nullable().optional(),
  outcome: z.enum(['real', 'false']).nullable().optional(),
  /**
   * Why it was raised (issue 60): 'sos' (the button, or a dispatcher for a member), 'man_down' (a fall, or no
   * movement, counted down on the phone), 'lone_worker' (check-ins unanswered: the server raised it).
   */
  reason: z.enum(['sos', 'man_down', 'lone_worker']),
  /** A dispatcher or administrator who raised it for the member (sendEmergencyAlert { userId }); else absent. */
  raisedBy: z.object({ id: z.number().nullable(), display_name: z.string() }).nullable().optional(),
  /** Issue 70: when the member said "Je vais bien" after it (reportOk); the alert stays open until closed. */
  okAt: z.string().nullable().optional(),
});
export type EmergencyAlert = z.output<typeof EmergencyAlertSchema>;
export const EMERGENCY_REASONS = ['sos', 'man_down', 'lone_worker'] as const;
export type EmergencyReason = (typeof EMERGENCY_REASONS)[number];

/** How long a sender waits between two alerts, and how long its emergency floor lasts. */
export const EMERGENCY_MIN_INTERVAL_MS = 30_000;
export const EMERGENCY_FLOOR_MS = 10_000;

/** What an alert carries: the channel (absent: the one the sender is in, if any) and the position when known. */
export const EmergencyAlertInput = z
  .object({
    channelId: Id.optional(),
    lat: z.number().min(-90).max(90).optional(),
    lng: z.number().min(-180).max(180).optional(),
    accuracy: z.number().min(0).max(1e7).optional(),
    /** Issue 60: a phone's man-down countdown ran out ('lone_worker' is the server's alone). */
    reason: z.enum(['sos', 'man_down']).optional(),
    /**
     * Issue 60: raised for this member by a dispatcher (or an administrator); audited as the dispatcher's. Issue 69:
     * with `channelId` (400 without), a channel the caller dispatches and the member belongs to (403 otherwise); at
     * the member's last reported position (`lat`, `lng`, `accuracy` are not used); it opens the member's microphone
     * only with the safety setting `emergencyOpenMic: 'any_alert'`.
     */
    userId: Id.optional(),
  })
  .refine((body) => (body.lat === undefined) === (body.lng === undefined), {
    message: 'lat and lng go together',
    path: ['lng'],
  });

export const SendEmergencyAlert = call(ok({ res: EmergencyAlertSchema }))(
  '/user/api/sendEmergencyAlert',
  'signedIn',
  EmergencyAlertInput,
);
export const AcknowledgeEmergencyAlert = call(ok({ res: EmergencyAlertSchema }))(
  '/user/api/acknowledgeEmergencyAlert',
  'channel.alerts',
  z.object({ alertId: Id }),
);
/** How an alert turned out: a real emergency, or a false alarm. */
export const EMERGENCY_OUTCOMES = ['real', 'false'] as const;
export type EmergencyOutcome = (typeof EMERGENCY_OUTCOMES)[number];
/**
 * Closes an alert with its outcome (issue 50), by a dispatcher of its channel or an administrator; an open alert
 * is taken by the same step. In the activity log (emergency_close); a closed alert is 409.
 */
export const CloseEmergencyAlert = call(ok({ res: EmergencyAlertSchema }))(
  '/user/api/closeEmergencyAlert',
  'channel.alerts',
  z.object({ alertId: Id, outcome: z.enum(EMERGENCY_OUTCOMES) }),
);
/** Open alerts first (newest first), then the acknowledged ones (newest first). */
export const GetEmergencyAlerts = call(
  ok({ res: z.object({ alerts: z.array(EmergencyAlertSchema), totalRecords: z.number(), open: z.number() }) }),
)(
  '/user/api/getEmergencyAlerts',
  'channel.alerts',
  z.object({
    start: z.coerce.number().int().min(0).default(0),
    limit: z.coerce.number().int().min(1).max(200).default(20),
  }),
);

/**
 * Issue 70: the caller's own alert that is not closed yet (its newest), or null: its phone shows it ("Alerte envoyée
 * à vos répartiteurs", then who took it) from the page's first load; pushes (emergencyAlert, emergencyAcknowledged)
 * keep it current.
 */
export const GetMyEmergencyAlert = call(ok({ res: EmergencyAlertSchema.nullable() }))(
  '/user/api/getMyEmergencyAlert',
  'signedIn',
  Empty,
);
/**
 * Issue 70: "Je vais bien" after one's own alert: its dispatchers and the administrators get `emergencyOk` at once
 * (a line on the alert, a notice); audited. `alertId` absent: the caller's newest alert not closed yet. 404 when the
 * caller has no such alert (another's alert is never its), 409 when it is closed already.
 */
export const ReportOk = call(ok({ res: EmergencyAlertSchema }))(
  '/user/api/reportOk',
  'signedIn',
  z.object({ alertId: Id.optional() }).strict(),
);

/**
 * Issue 70: the alert that opened a member's microphone (`floor_granted`'s `alert`: its reason, the name of who raised
 * it for the member): its phone says why its microphone is on, and for how long.
 */
export interface OpenMicAlert {
  id: number;
  reason: EmergencyReason;
  raisedBy: string | null;
}

/** The alert's pushes (docs/api.md "Real-time pushes made by these calls"). */
export interface EmergencyServerEvents {
  /** To every administrator and the rooms of the sender's channels, and (issue 70) the sender's sockets: an SOS. */
  emergencyAlert: (alert: EmergencyAlert) => void;
  /** To the same: someone took the alert, or closed it with its outcome (issue 50). */
  emergencyAcknowledged: (alert: EmergencyAlert) => void;
  /**
   * Issue 70: to every administrator, those who take the alert's alerts and its member's sockets: its member said
   * "Je vais bien" (reportOk); the alert carries `okAt`.
   */
  emergencyOk: (alert: EmergencyAlert) => void;
}
