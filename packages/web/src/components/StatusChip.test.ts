/** The chip's age, by the minute, in the page's words. */
import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { statusAge } from './StatusChip.tsx';

describe('statusAge', () => {
  const t = ((key: string, values: Record<string, unknown> = {}) =>
    `${key}:${JSON.stringify(values)}`) as unknown as TFunction;
  const since = Date.parse('2026-11-26T10:00:00.000Z');
  const after = (minutes: number) => statusAge(t, since, since + minutes * 60_000);

  it('says under a minute, then minutes, then hours and minutes, then days', () => {
    expect(after(0.5)).toBe('statusChip.justNow:{}');
    expect(after(12)).toBe('statusChip.minutes:{"count":12}');
    expect(after(65)).toBe('statusChip.hours:{"hours":1,"minutes":"05"}');
    expect(after(60 * 50)).toBe('statusChip.days:{"count":2}');
  });
});
