/**
 * The activity log's filters (issue 17 point 10) as the page keeps them in its address (?member=&channel=&type=
 * &from=&to=, days as yyyy-MM-dd) and as getAllActivities/ takes them (ids, a type, and ISO moments: from the
 * start of the first day to the start of the day after the last, in the reader's time zone).
 */
import { ACTIVITY_TYPES, type ActivityType } from '@talkgroup/protocol';

export interface ActivityFilterValues {
  member?: number;
  channel?: number;
  type?: ActivityType;
  /** yyyy-MM-dd */
  from?: string;
  /** yyyy-MM-dd, included */
  to?: string;
}

const FILTER_KEYS = ['member', 'channel', 'type', 'from', 'to'] as const;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const idOf = (value: string | null) => {
  const id = Number(value);
  return Number.isInteger(id) && id > 0 ? id : undefined;
};

export function filterFromParams(params: URLSearchParams): ActivityFilterValues {
  const type = params.get('type');
  const from = params.get('from') ?? '';
  const to = params.get('to') ?? '';
  return {
    member: idOf(params.get('member')),
    channel: idOf(params.get('channel')),
    type: ACTIVITY_TYPES.includes(type as ActivityType) ? (type as ActivityType) : undefined,
    from: DAY.test(from) ? from : undefined,
    to: DAY.test(to) ? to : undefined,
  };
}

/**
 * Writes a change of the filter into the address as it is now (the keys `change` names; an undefined one is
 * removed, the others stay): a change made before the page drew the previous one keeps it. A changed filter
 * starts again at page 1.
 */
export function writeFilter(params: URLSearchParams, change: Partial<ActivityFilterValues>): URLSearchParams {
  const next = new URLSearchParams(params);
  next.delete('page');
  for (const key of FILTER_KEYS) {
    if (!(key in change)) continue;
    const value = change[key];
    if (value === undefined || value === '') next.delete(key);
    else next.set(key, String(value));
  }
  return next;
}

/** The change that clears every filter. */
export const NO_FILTER: ActivityFilterValues = Object.fromEntries(FILTER_KEYS.map((key) => [key, undefined]));

export function isFiltering(filter: ActivityFilterValues): boolean {
  return Object.values(filter).some((value) => value !== undefined);
}

/** Local midnight of a yyyy-MM-dd day, `plusDays` later, as an ISO moment. */
function startOfDay(day: string, plusDays = 0): string {
  const [year, month, date] = day.split('-').map(Number);
  return new Date(year, month - 1, date + plusDays).toISOString();
}

/** The optional fields of getAllActivities/. */
export function callFilter(filter: ActivityFilterValues) {
  return {
    ...(filter.member !== undefined ? { userId: filter.member } : {}),
    ...(filter.channel !== undefined ? { channelId: filter.channel } : {}),
    ...(filter.type !== undefined ? { type: filter.type } : {}),
    ...(filter.from !== undefined ? { from: startOfDay(filter.from) } : {}),
    ...(filter.to !== undefined ? { to: startOfDay(filter.to, 1) } : {}),
  };
}
