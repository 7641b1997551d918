/**
 * A report's period as the page chooses it (today, the last 7 or 30 days, or two dates, both included) and as
 * getReport asks for it: `from` the first day's start and `to` the start of the day after the last, both taken in
 * the report's time zone, so that a day is the time zone's day also across a daylight-saving change (a day of
 * 23 or 25 hours).
 */

export type PeriodPreset = 'today' | 'days7' | 'days30' | 'custom';

/** A calendar day, 'YYYY-MM-DD'. */
export type Day = string;

export interface PeriodChoice {
  preset: PeriodPreset;
  /** The days of a custom period (both included); ignored by the presets. */
  fromDay: Day;
  toDay: Day;
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The wall-clock parts of an instant in a time zone. */
export function zonedParts(instant: number, timeZone: string) {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(instant));
  const get = (type: string) => Number(parts.find((part) => part.type === type)?.value);
  return {
    year: get('year'),
    month: get('month'),
    day: get('day'),
    hour: get('hour'),
    minute: get('minute'),
    second: get('second'),
  };
}

/** How far the time zone's clock is ahead of UTC at this instant (milliseconds). */
function offsetAt(instant: number, timeZone: string): number {
  const p = zonedParts(instant, timeZone);
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return asUtc - Math.floor(instant / 1000) * 1000;
}

/** The instant a day starts at in a time zone (its first moment: midnight, or later on a day that skips it). */
export function dayStart(day: Day, timeZone: string): Date {
  const match = DAY.exec(day);
  if (!match) throw new Error(`not a day: ${day}`);
  const midnight = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  // The offset at the guess may differ from the one at the answer (a change that night): try both.
  const first = midnight - offsetAt(midnight, timeZone);
  const second = midnight - offsetAt(first, timeZone);
  const candidates = [first, second].filter((instant) => dayOf(instant, timeZone) === day).sort((a, b) => a - b);
  return new Date(candidates[0] ?? Math.max(first, second));
}

/** The day an instant falls on in a time zone. */
export function dayOf(instant: number | Date, timeZone: string): Day {
  const p = zonedParts(typeof instant === 'number' ? instant : instant.getTime(), timeZone);
  return `${String(p.year).padStart(4, '0')}-${String(p.month).padStart(2, '0')}-${String(p.day).padStart(2, '0')}`;
}

/** A day moved by whole days on the calendar. */
export function addDays(day: Day, days: number): Day {
  const match = DAY.exec(day);
  if (!match) throw new Error(`not a day: ${day}`);
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]) + days));
  return date.toISOString().slice(0, 10);
}

export function isDay(text: string): boolean {
  const match = DAY.exec(text);
  return match !== null && addDays(text, 0) === text;
}

/** The first and last days (both included) a choice covers, today being `today`; null when they are not a period. */
export function periodDays(choice: PeriodChoice, today: Day): { fromDay: Day; toDay: Day } | null {
  switch (choice.preset) {
    case 'today':
      return { fromDay: today, toDay: today };
    case 'days7':
      return { fromDay: addDays(today, -6), toDay: today };
    case 'days30':
      return { fromDay: addDays(today, -29), toDay: today };
    case 'custom':
      return isDay(choice.fromDay) && isDay(choice.toDay) && choice.fromDay <= choice.toDay
        ? { fromDay: choice.fromDay, toDay: choice.toDay }
        : null;
  }
}

/** getReport's `from` and `to`: the first day's start, and the start of the day after the last (excluded). */
export function periodQuery(days: { fromDay: Day; toDay: Day }, timeZone: string): { from: string; to: string } {
  return {
    from: dayStart(days.fromDay, timeZone).toISOString(),
    to: dayStart(addDays(days.toDay, 1), timeZone).toISOString(),
  };
}

/** The time zones to choose from: the runtime's list, with UTC and the ones given (the organisation's) in it. */
export function timeZoneNames(...wanted: string[]): string[] {
  const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return [...new Set([...known, 'UTC', ...wanted.filter(Boolean)])].sort();
}
