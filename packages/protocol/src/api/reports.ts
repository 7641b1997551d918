/**
 * Reports (issue 50): what a period was like, for administrators (every channel) and dispatchers (the channels
 * they hold `channel.reports` in: their own). Talk time and transmissions, busy hours, SOS response times, the
 * dispatch queue's waits, missed transmissions and the most people connected at once; the server computes each
 * with SQL aggregates (never rows loaded into memory) on SQLite and PostgreSQL alike.
 *
 * `from` is included and `to` excluded (ISO 8601 instants). Days and hours are the time zone's (`timeZone`, an
 * IANA name; by default the organisation's, getTimeZone). Durations are milliseconds, times ISO 8601 UTC.
 * Percentiles are nearest-rank: the p-th of n sorted values is the one at rank ceil(p × n).
 */
import { z } from 'zod';
import { call, Id, ok } from '../call.ts';

/** The longest period a report covers (ten years and a little). */
export const REPORT_MAX_DAYS = 3700;
/** How many channels a report may name. */
export const REPORT_MAX_CHANNELS = 1000;

/** True when `name` is a time zone this runtime knows (an IANA name such as Europe/Paris, or UTC). */
export function isTimeZone(name: string): boolean {
  if (name.length === 0 || name.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}
export const TimeZoneName = z.string().refine(isTimeZone, 'must be a time zone such as Europe/Paris');

const Instant = z.iso.datetime({ offset: true, message: 'must be an ISO 8601 date and time' });

export const ReportQuerySchema = z
  .object({
    from: Instant,
    to: Instant,
    /** The channels to include (absent: every channel the caller may report on). */
    channelIds: z.array(Id).max(REPORT_MAX_CHANNELS).optional(),
    timeZone: TimeZoneName.optional(),
  })
  .refine((q) => Date.parse(q.from) < Date.parse(q.to), { message: 'from must be before to', path: ['to'] })
  .refine((q) => Date.parse(q.to) - Date.parse(q.from) <= REPORT_MAX_DAYS * 86_400_000, {
    message: `a report covers ${REPORT_MAX_DAYS} days at most`,
    path: ['to'],
  });
export type ReportQuery = z.input<typeof ReportQuerySchema>;

/** Times of a set of events (milliseconds): how many, the median, the 90th percentile, the longest. */
export const DurationStatsSchema = z.object({
  count: z.number(),
  medianMs: z.number().nullable(),
  p90Ms: z.number().nullable(),
  maxMs: z.number().nullable(),
});
export type DurationStats = z.output<typeof DurationStatsSchema>;

const TalkRowSchema = z.object({ talkMs: z.number(), transmissions: z.number() });

/** The dispatch requests closed, by outcome (closeDispatchCall's `outcome`). */
const QueueOutcomesSchema = z.object({ resolved: z.number(), no_action: z.number(), referred: z.number() });

export const ReportSchema = z.object({
  from: z.string(),
  to: z.string(),
  timeZone: z.string(),
  /** The channels the report covers (the caller's, or those asked among them), by name. */
  channels: z.array(z.object({ id: z.number(), name: z.string() })),
  /**
   * Talk time from the floor's grants (each grant from its start to its end), and from the kept takes without a
   * grant; each transmission once whatever its voice path (a take the media server recorded is its grant's,
   * issue 58), counted in the period it started in. Most talk first.
   */
  talk: z.object({
    channels: z.array(TalkRowSchema.extend({ channelId: z.number(), channelName: z.string() })),
    members: z.array(TalkRowSchema.extend({ userId: z.number().nullable(), name: z.string() })),
  }),
  /**
   * Busy hours: transmissions by day of the week (1 Monday … 7 Sunday) and hour (0 … 23) in the time zone; all
   * 168 cells, day by day and hour by hour, empty ones with 0.
   */
  hours: z.array(z.object({ day: z.number(), hour: z.number(), transmissions: z.number(), talkMs: z.number() })),
  /**
   * SOS alerts raised in the period: time to acknowledge (taken) and to close, from the alert; the outcomes of
   * the closed ones (closeEmergencyAlert). Per channel too (channelId null: an alert sent outside any channel).
   */
  sos: z.object({
    count: z.number(),
    acknowledged: z.number(),
    closed: z.number(),
    real: z.number(),
    falseAlarms: z.number(),
    /** Issue 60: of `count`, those raised by a phone's man-down countdown, and for lone workers who did not answer. */
    manDown: z.number(),
    noResponse: z.number(),
    acknowledge: DurationStatsSchema,
    close: DurationStatsSchema,
    channels: z.array(
      z.object({
        channelId: z.number().nullable(),
        channelName: z.string(),
        count: z.number(),
        falseAlarms: z.number(),
        manDown: z.number(),
        noResponse: z.number(),
        acknowledge: DurationStatsSchema,
        close: DurationStatsSchema,
      }),
    ),
  }),
  /**
   * The dispatch queue: requests made in the period, and the steps made in it (taken, abandoned: the member gone,
   * expired, cancelled by the member); waiting time (at each first take) and handling time (at each close).
   */
  queue: z.object({
    requests: z.number(),
    taken: z.number(),
    abandoned: z.number(),
    expired: z.number(),
    cancelled: z.number(),
    closed: z.number(),
    /** The closes by how they ended (issue 58); a close made before outcomes existed is in none. */
    outcomes: QueueOutcomesSchema,
    waiting: DurationStatsSchema,
    handling: DurationStatsSchema,
    /** Per channel: the same columns as the total, which they add up to (the times: the channel's own). */
    channels: z.array(
      z.object({
        channelId: z.number(),
        channelName: z.string(),
        requests: z.number(),
        taken: z.number(),
        abandoned: z.number(),
        expired: z.number(),
        cancelled: z.number(),
        closed: z.number(),
        outcomes: QueueOutcomesSchema,
        waiting: DurationStatsSchema,
        handling: DurationStatsSchema,
      }),
    ),
    /**
     * Per dispatcher (issue 58), of the steps it made in the period: takes (a retake after a send-back, and a
     * transfer accepted, included), requests sent back, transferred to another, closed; and the handling time
     * of the requests it closed. Most taken first.
     */
    dispatchers: z.array(
      z.object({
        userId: z.number(),
        name: z.string(),
        taken: z.number(),
        returned: z.number(),
        transferred: z.number(),
        closed: z.number(),
        handling: DurationStatsSchema,
      }),
    ),
  }),
  /**
   * Missed transmissions per member, of those recorded in the period in the member's channels (after it joined,
   * by someone else): heard later (not while it was said; played afterwards) and never heard. Members with none
   * are left out; most missed first.
   */
  missed: z.array(z.object({ userId: z.number(), name: z.string(), heardLater: z.number(), neverHeard: z.number() })),
  /**
   * The most people connected at once (any role, sampled at least every minute), per day of the time zone
   * (YYYY-MM-DD), with when it was first reached; days without a sample are left out.
   */
  peaks: z.array(z.object({ day: z.string(), connected: z.number(), at: z.string() })),
});
export type Report = z.output<typeof ReportSchema>;

export const GetReport = call(ok({ res: ReportSchema }))('/user/api/getReport', 'channel.reports', ReportQuerySchema);

/** The organisation's time zone (reports' days and hours): `timeZone` in force, the server's, whether it is set. */
export const TimeZoneSettingSchema = z.object({
  timeZone: z.string(),
  serverTimeZone: z.string(),
  /** false: no choice made, the server's is in force. */
  set: z.boolean(),
});
export type TimeZoneSetting = z.output<typeof TimeZoneSettingSchema>;

export const GetTimeZone = call(ok({ res: TimeZoneSettingSchema }))('/user/api/getTimeZone', 'signedIn', z.object({}));
/** Sets the organisation's time zone (audited); null goes back to the server's. */
export const SetTimeZone = call(ok({ res: TimeZoneSettingSchema }))(
  '/user/api/setTimeZone',
  'settings.manage',
  z.object({ timeZone: TimeZoneName.nullable() }),
);
