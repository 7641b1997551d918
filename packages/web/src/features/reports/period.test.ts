import { describe, expect, it } from 'vitest';
import { addDays, dayOf, dayStart, isDay, periodDays, periodQuery } from './period.ts';

describe('report periods', () => {
  it('start a day at its midnight in the time zone, across daylight-saving changes', () => {
    expect(dayStart('2026-07-01', 'Europe/Paris').toISOString()).toBe('2026-06-30T22:00:00.000Z');
    expect(dayStart('2026-01-15', 'Europe/Paris').toISOString()).toBe('2026-01-14T23:00:00.000Z');
    // Paris goes to summer time on 29 March 2026 at 02:00: that day has 23 hours.
    expect(dayStart('2026-03-29', 'Europe/Paris').toISOString()).toBe('2026-03-28T23:00:00.000Z');
    expect(dayStart('2026-03-30', 'Europe/Paris').toISOString()).toBe('2026-03-29T22:00:00.000Z');
    // And back on 25 October 2026 at 03:00: 25 hours.
    expect(dayStart('2026-10-26', 'Europe/Paris').getTime() - dayStart('2026-10-25', 'Europe/Paris').getTime()).toBe(
      25 * 3_600_000,
    );
    expect(dayStart('2026-11-01', 'America/New_York').toISOString()).toBe('2026-11-01T04:00:00.000Z');
    expect(dayStart('2026-11-02', 'America/New_York').toISOString()).toBe('2026-11-02T05:00:00.000Z');
    expect(dayStart('2026-05-05', 'UTC').toISOString()).toBe('2026-05-05T00:00:00.000Z');
    expect(dayStart('2026-05-05', 'Asia/Kolkata').toISOString()).toBe('2026-05-04T18:30:00.000Z');
  });

  it('take the first moment of a day that skips its midnight', () => {
    // Santiago moved its clocks from 00:00 to 01:00 on 6 September 2026.
    const start = dayStart('2026-09-06', 'America/Santiago');
    expect(dayOf(start, 'America/Santiago')).toBe('2026-09-06');
    expect(dayOf(start.getTime() - 1, 'America/Santiago')).toBe('2026-09-05');
  });

  it('tell the day of an instant in a time zone', () => {
    expect(dayOf(Date.parse('2026-11-07T23:30:00Z'), 'Europe/Paris')).toBe('2026-11-08');
    expect(dayOf(Date.parse('2026-11-07T23:30:00Z'), 'UTC')).toBe('2026-11-07');
  });

  it('cover the presets and a custom period, the last day included', () => {
    const custom = { fromDay: '2026-11-01', toDay: '2026-11-08' };
    expect(periodDays({ preset: 'today', ...custom }, '2026-11-27')).toEqual({
      fromDay: '2026-11-27',
      toDay: '2026-11-27',
    });
    expect(periodDays({ preset: 'days7', ...custom }, '2026-03-02')).toEqual({
      fromDay: '2026-02-24',
      toDay: '2026-03-02',
    });
    expect(periodDays({ preset: 'days30', ...custom }, '2026-11-27')).toEqual({
      fromDay: '2026-10-29',
      toDay: '2026-11-27',
    });
    expect(periodDays({ preset: 'custom', ...custom }, '2026-11-27')).toEqual(custom);
    expect(periodDays({ preset: 'custom', fromDay: '2026-11-09', toDay: '2026-11-08' }, '2026-11-27')).toBeNull();
    expect(periodDays({ preset: 'custom', fromDay: '', toDay: '2026-11-08' }, '2026-11-27')).toBeNull();
    expect(periodQuery(custom, 'Europe/Paris')).toEqual({
      from: '2026-10-31T23:00:00.000Z',
      to: '2026-11-08T23:00:00.000Z',
    });
  });

  it('move days on the calendar and check them', () => {
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2028-03-01', -1)).toBe('2028-02-29');
    expect(isDay('2026-02-29')).toBe(false);
    expect(isDay('2026-02-28')).toBe(true);
    expect(isDay('28/02/2026')).toBe(false);
  });
});
