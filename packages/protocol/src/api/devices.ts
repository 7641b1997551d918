/**
 * A member's device (issue 60, items 4 and 5; docs/dispatchers/dispatch-console.md "Device status" and
 * docs/administrators/sessions.md): what /talk reports of its phone (`device_status`: battery, network, whether
 * the page is on screen, wake lock, position accuracy, app version, push), read by those who watch the member, and
 * a lost or stolen phone's session disabled by an administrator (its storage wiped, its token refused for good).
 */
import { z } from 'zod';
import { call, Id, OkSchema, ok } from '../call.ts';

/** An open /talk answers `device_status_request` within this time (requestDeviceStatus). */
export const DEVICE_STATUS_ANSWER_MS = 5000;
/** The console flags a battery under this level (0..1, as the Battery Status API gives it). */
export const DEVICE_LOW_BATTERY = 0.15;

const isoTime = z
  .string()
  .max(40)
  .refine((value) => !Number.isNaN(Date.parse(value)), 'must be an ISO 8601 time');

/**
 * What /talk sends as `device_status` (on connect, on each change, and when asked). Every field is bounded: the
 * payload is hostile until validated. `battery.level` is 0..1 (the Battery Status API's); null where the browser
 * does not tell (Safari, Firefox).
 */
export const DeviceStatusReport = z.object({
  battery: z
    .object({
      level: z.number().min(0, 'must be between 0 and 1').max(1, 'must be between 0 and 1'),
      charging: z.boolean(),
    })
    .nullable()
    .default(null),
  network: z.object({
    online: z.boolean(),
    /** The Network Information API's `effectiveType` (`4g`, `3g`, `2g`, `slow-2g`); null where unknown. */
    effectiveType: z.string().max(20).nullable().default(null),
  }),
  /** The page is on screen (document.visibilityState). */
  visible: z.boolean(),
  /** A screen wake lock is held. */
  wakeLock: z.boolean().default(false),
  /** The last position's accuracy (metres) and when it was taken; null: none shared. */
  position: z
    .object({ accuracy: z.number().min(0).max(10_000_000).nullable(), at: isoTime })
    .nullable()
    .default(null),
  /** The build's version (APP_VERSION and the build's commit). */
  appVersion: z.string().max(60).default(''),
  /** This browser holds a Web Push subscription. */
  push: z.boolean().default(false),
});
export type DeviceStatusReportInput = z.input<typeof DeviceStatusReport>;

/** The latest report of a member's device, with when it came and whether an app of the member's is open now. */
export const DeviceStatusSchema = z.object({
  userId: z.number(),
  battery: z.object({ level: z.number(), charging: z.boolean() }).nullable(),
  network: z.object({ online: z.boolean(), effectiveType: z.string().nullable() }),
  visible: z.boolean(),
  wakeLock: z.boolean(),
  position: z.object({ accuracy: z.number().nullable(), at: z.string() }).nullable(),
  appVersion: z.string(),
  push: z.boolean(),
  /** When the server received the report (ISO). */
  reportedAt: z.string(),
  /** A page of the member's is connected now (on any instance). */
  appOpen: z.boolean(),
});
export type DeviceStatus = z.output<typeof DeviceStatusSchema>;

/**
 * Asks the member's open pages for a fresh `device_status` (`device_status_request`): an open /talk answers within
 * DEVICE_STATUS_ANSWER_MS, and the consoles that watch the member get it. `appOpen`: whether any was there to ask.
 * An administrator, or a dispatcher of one of the member's channels; anyone else 403. Issue 69: down the ranks only
 * (a role equal to or above the caller's, or oneself: 403 `role_not_below_yours`; administrators read each other's).
 */
export const RequestDeviceStatus = call(ok({ res: z.object({ userId: z.number(), appOpen: z.boolean() }) }))(
  '/user/api/requestDeviceStatus',
  'channel.devices',
  z.object({ userId: Id }),
);
/** The member's latest report (null: none came yet), with the same rights as requestDeviceStatus. */
export const GetDeviceStatus = call(ok({ res: DeviceStatusSchema.nullable() }))(
  '/user/api/getDeviceStatus',
  'channel.devices',
  z.object({ userId: Id }),
);

/** One of a user's sessions as an administrator lists it (the ids of getSessions). */
export const UserSessionSchema = z.object({
  sessionId: z.number(),
  /** Browser and system read from its user agent ("Chrome · Android"), else the user agent, else empty. */
  device: z.string(),
  /** Its last use (its sign-in when never used since), ISO. */
  lastSeen: z.string(),
  address: z.string().nullable(),
  createdAt: z.string(),
  method: z.string(),
});
export type UserSession = z.output<typeof UserSessionSchema>;

/** A user's live sessions, newest first (administrators). */
export const GetUserSessions = call(ok({ res: z.array(UserSessionSchema) }))(
  '/user/api/getUserSessions',
  'users.manage',
  z.object({ userId: Id }),
);
/**
 * Disables one device (administrators): its session ends (the token is refused from then on, on HTTP and sockets),
 * its push subscription goes, and (issue 69) the passkeys registered from that session; its sockets get
 * `device_disabled` and are closed once that is committed; the page wipes its storage. Audited
 * (`session.disable_device`, naming whose device) in the same transaction: no row, no disable.
 */
export const DisableDevice = call(
  OkSchema.extend({
    res: z.object({
      userId: z.number(),
      sessionId: z.number(),
      device: z.string(),
      /** How many of the user's passkeys were registered from that session, and removed with it. */
      passkeysRemoved: z.number(),
    }),
  }),
)('/user/api/disableDevice', 'users.manage', z.object({ sessionId: Id }));

/** `device_disabled`: to the disabled session's sockets, just before the server closes them. */
export interface DeviceDisabled {
  message: string;
}

/** The socket events of this part (events.ts's maps extend these). */
export interface DeviceClientEvents {
  /** /talk's report of its device; the ack says why a report was refused. */
  device_status: (
    payload: DeviceStatusReportInput,
    ack?: (answer: { success: boolean; result?: string }) => void,
  ) => void;
}
export interface DeviceServerEvents {
  /** To administrators and the dispatchers of the member's channels: a member's device reported. */
  device_status: (status: DeviceStatus) => void;
  /** To the member's sockets: send a `device_status` now (requestDeviceStatus). */
  device_status_request: () => void;
  /** To a disabled session's sockets (disableDevice): wipe the page's storage; the session is over for good. */
  device_disabled: (payload: DeviceDisabled) => void;
}
