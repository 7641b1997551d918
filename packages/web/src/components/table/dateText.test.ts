import { describe, expect, it } from 'vitest';
import { formatDate } from '../../i18n/dates.ts';
import { dateTimeText } from './dateText.ts';

describe('dateTimeText', () => {
  it.each(['fr', 'en', 'de'])("writes 'dd MMM yyyy HH:mm' exactly as date-fns does in %s", (language) => {
    for (let month = 0; month < 12; month++) {
      for (const [day, hour, minute] of [
        [1, 0, 0],
        [9, 9, 5],
        [28, 23, 59],
      ]) {
        const date = new Date(2025, month, day, hour, minute);
        expect(dateTimeText(date.toISOString(), language)).toBe(formatDate(date, undefined, language));
      }
    }
  });

  it('gives an empty text for a missing or invalid date', () => {
    expect(dateTimeText(null)).toBe('');
    expect(dateTimeText('not a date')).toBe('');
  });
});
