/**
 * Worker safety (issue 60): the organisation's safety settings, lone-worker check-ins and their escalation.
 * A lone worker is asked `lone_worker_check` every interval; unanswered after the grace it is reminded, after a
 * second grace its dispatchers and the administrators get `loneWorkerAlert`, after a third an SOS with reason
 * 'lone_worker' is raised for it. Every interval and grace is at least the server's LONE_WORKER_MIN_SECONDS
 * (a 400 says so): the contract bounds them only from above.
 */
import { z } from 'zod';
import { call, Empty, Id, ok } from '../call.ts';
import { RoleSchema } from '../roles.ts';

/** A day: no check-in interval or grace is longer. */
export const LONE_WORKER_MAX_SECONDS = 86_400;
export const AMBIENT_LISTENING_MODES = ['off', 'announced', 'discreet'] as const;
export type AmbientListeningMode = (typeof AMBIENT_LISTENING_MODES)[number];
/**
 * Issue 69: which SOS opens its member's microphone (the emergency floor). 'own_alert': only the member's own (its
 * press, its phone's man-down countdown, its missed check-ins); 'any_alert': one a dispatcher or an administrator
 * raises for it too. Never where its membership only listens, for an SOS raised by someone else.
 */
export const EMERGENCY_OPEN_MIC_MODES = ['own_alert', 'any_alert'] as const;
export type EmergencyOpenMicMode = (typeof EMERGENCY_OPEN_MIC_MODES)[number];

/** The man-down figures' bounds (inclusive), for the schema and for the form that shows them (issue 70). */
export const MAN_DOWN_LIMITS = {
  stillSeconds: { min: 1, max: 600 },
  noMotionMinutes: { min: 0, max: 240 },
  countdownSeconds: { min: 5, max: 300 },
} as const;
const bounded = (field: keyof typeof MAN_DOWN_LIMITS) =>
  z.number().int().min(MAN_DOWN_LIMITS[field].min).max(MAN_DOWN_LIMITS[field].max);

const seconds = z.number().int('must be a whole number of seconds').positive().max(LONE_WORKER_MAX_SECONDS);

export const SafetySettingsSchema = z.object({
  loneWorker: z.object({
    /** How often a lone worker is asked (default 1800). */
    intervalSeconds: seconds,
    /** How long each step waits for an answer: reminder, alert, SOS (default 120). */
    graceSeconds: seconds,
    /** Roles whose members must work with lone-worker protection (their /talk starts it, they cannot stop it). */
    roles: z.array(RoleSchema).max(20),
    /** Channels whose members must, likewise. */
    channelIds: z.array(z.number().int().positive()).max(1000),
  }),
  manDown: z.object({
    /** How long a fallen phone must lie still before the countdown (default 10). */
    stillSeconds: bounded('stillSeconds'),
    /** No movement for this many minutes starts the countdown too; 0: off (the default). */
    noMotionMinutes: bounded('noMotionMinutes'),
    /** How long the phone counts down before raising the SOS (default 30). */
    countdownSeconds: bounded('countdownSeconds'),
  }),
  /** Whether dispatchers may listen to a member's surroundings, and whether the member is told. */
  ambientListening: z.enum(AMBIENT_LISTENING_MODES),
  /** Whether an SOS raised for a member by someone else opens the member's microphone (issue 69). */
  emergencyOpenMic: z.enum(EMERGENCY_OPEN_MIC_MODES),
});
export type SafetySettings = z.output<typeof SafetySettingsSchema>;

export const SAFETY_DEFAULTS: SafetySettings = {
  loneWorker: { intervalSeconds: 1800, graceSeconds: 120, roles: [], channelIds: [] },
  manDown: { stillSeconds: 10, noMotionMinutes: 0, countdownSeconds: 30 },
  ambientListening: 'off',
  emergencyOpenMic: 'own_alert',
};

/** Any part of the settings: what is absent stays as it is. */
export const SafetySettingsChange = z
  .object({
    loneWorker: SafetySettingsSchema.shape.loneWorker.partial().strict(),
    manDown: SafetySettingsSchema.shape.manDown.partial().strict(),
    ambientListening: SafetySettingsSchema.shape.ambientListening,
    emergencyOpenMic: SafetySettingsSchema.shape.emergencyOpenMic,
  })
  .partial()
  .strict();

/** `loneWorkerMinSeconds`: the server's LONE_WORKER_MIN_SECONDS, the least interval and grace (issue 70). */
export const GetSafetySettings = call(ok({ res: SafetySettingsSchema, loneWorkerMinSeconds: z.number().optional() }))(
  '/user/api/getSafetySettings',
  'signedIn',
  Empty,
);
export const SetSafetySettings = call(ok({ res: SafetySettingsSchema }))(
  '/user/api/setSafetySettings',
  'settings.manage',
  SafetySettingsChange,
);

export const LONE_WORKER_STATES = ['ok', 'due', 'missed', 'escalated'] as const;
export type LoneWorkerState = (typeof LONE_WORKER_STATES)[number];

/** One member working alone, as getLoneWorkers lists it. */
export const LoneWorkerSchema = z.object({
  userId: z.number(),
  name: z.string(),
  /** ok: answered; due: asked (and maybe reminded), not answered; missed: its dispatchers alerted; escalated: SOS. */
  state: z.enum(LONE_WORKER_STATES),
  /** When it is (or was) next asked. */
  nextCheckAt: z.string(),
  /** Its latest answer (or when it started). */
  lastCheckIn: z.string(),
  startedAt: z.string(),
  intervalSeconds: z.number(),
  graceSeconds: z.number(),
  /** Required by its role or one of its channels: the member cannot stop it. */
  required: z.boolean(),
});
export type LoneWorker = z.output<typeof LoneWorkerSchema>;

/** One's own lone work: null when off; `required` says whether the organisation asks for it. */
export const MyLoneWorkerSchema = z.object({ res: LoneWorkerSchema.nullable(), required: z.boolean() });

export const StartLoneWorker = call(ok(MyLoneWorkerSchema.shape))(
  '/user/api/startLoneWorker',
  'signedIn',
  z.object({ intervalSeconds: seconds.optional() }).strict(),
);
export const StopLoneWorker = call(ok(MyLoneWorkerSchema.shape))('/user/api/stopLoneWorker', 'signedIn', Empty);
/** "I'm OK": answers the check (a granted press of the talk button does too). 409 when lone work is off. */
export const CheckIn = call(ok(MyLoneWorkerSchema.shape))('/user/api/checkIn', 'signedIn', Empty);
export const GetMyLoneWorker = call(ok(MyLoneWorkerSchema.shape))('/user/api/getMyLoneWorker', 'signedIn', Empty);
/** Administrators: everyone working alone; dispatchers: the members of the channels where they take alerts. */
export const GetLoneWorkers = call(ok({ res: z.array(LoneWorkerSchema) }))(
  '/user/api/getLoneWorkers',
  'channel.alerts',
  z.object({ userId: Id.optional() }).strict(),
);

/** Sent to the member's sockets: answer before `dueAt` (the next step's time). */
export const LoneWorkerCheckSchema = z.object({ dueAt: z.string(), reminder: z.boolean().optional() });
export type LoneWorkerCheck = z.output<typeof LoneWorkerCheckSchema>;

/** Sent to the member's dispatchers and the administrators: it did not answer twice. */
export const LoneWorkerAlertSchema = z.object({
  userId: z.number(),
  name: z.string(),
  lastCheckIn: z.string(),
  position: z.object({ lat: z.number(), lng: z.number(), accuracy: z.number().nullable(), at: z.string() }).nullable(),
});
export type LoneWorkerAlert = z.output<typeof LoneWorkerAlertSchema>;

/**
 * Issue 70: sent to the member's dispatchers and the administrators whenever its lone work changes (started,
 * asked, answered, alerted, escalated, stopped): `worker` null once it stopped. Their consoles need no polling.
 */
export const LoneWorkerChangeSchema = z.object({ userId: z.number(), worker: LoneWorkerSchema.nullable() });
export type LoneWorkerChange = z.output<typeof LoneWorkerChangeSchema>;

/** Lone work's pushes (issue 60). */
export interface SafetyServerEvents {
  /** To a lone worker's sockets: "Are you OK?" (checkIn answers); `reminder` the second time. */
  lone_worker_check: (payload: LoneWorkerCheck) => void;
  /** To administrators and the dispatchers of the member's channels: it answered no check twice. */
  loneWorkerAlert: (payload: LoneWorkerAlert) => void;
  /** Issue 70: to administrators and the dispatchers of the member's channels: its lone work changed (null: off). */
  loneWorkerChanged: (payload: LoneWorkerChange) => void;
}
