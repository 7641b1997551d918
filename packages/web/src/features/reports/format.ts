/**
 * How the report's values read on the page (in its language: "1 h 12 min", "1 234", "lun. 2 nov. 2026") and how
 * they are written in its files: numbers stay numbers, durations become minutes (two decimals; the header says
 * "(min)"), times the report's time zone's "YYYY-MM-DD HH:mm" (texts are kept from running as formulas by the
 * writers: exportReport.ts).
 */
import type { TFunction } from 'i18next';
import type { ColumnKind, MeasureValue } from './measures.ts';
import { zonedParts } from './period.ts';

type T = TFunction<'reports'>;

/** Monday … Sunday, in the language (getReport's days 1 … 7). */
export function weekdayNames(language: string): string[] {
  const format = new Intl.DateTimeFormat(language, { weekday: 'long', timeZone: 'UTC' });
  // 2 November 2026 is a Monday.
  return Array.from({ length: 7 }, (_, index) => format.format(Date.UTC(2026, 10, 2 + index)));
}

export function formatCount(value: number, language: string): string {
  return new Intl.NumberFormat(language).format(value);
}

/** "1 h 12 min", "12 min", "45 s", "—" for none; minutes rounded, seconds below a minute. */
export function formatDuration(ms: number | null | undefined, t: T, language: string): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return t('duration.none');
  if (ms < 59_500) return t('duration.s', { s: formatCount(Math.round(ms / 1000), language) });
  const minutes = Math.round(ms / 60_000);
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  if (h === 0) return t('duration.m', { m: formatCount(m, language) });
  if (m === 0) return t('duration.h', { h: formatCount(h, language) });
  return t('duration.hm', { h: formatCount(h, language), m: formatCount(m, language) });
}

/** A 'YYYY-MM-DD' day as the language writes it, with its weekday. */
export function formatDay(day: string, language: string): string {
  const [year, month, date] = day.split('-').map(Number);
  return new Intl.DateTimeFormat(language, {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(Date.UTC(year ?? 1970, (month ?? 1) - 1, date ?? 1));
}

/** An instant's wall-clock time in the time zone ("09:41"). */
export function formatTime(instant: string, timeZone: string, language: string): string {
  return new Intl.DateTimeFormat(language, { timeZone, hour: '2-digit', minute: '2-digit' }).format(new Date(instant));
}

export interface FormatContext {
  t: T;
  language: string;
  timeZone: string;
}

/** A cell as the page's table shows it. */
export function displayCell(value: MeasureValue, kind: ColumnKind, { t, language, timeZone }: FormatContext): string {
  if (value === null) return t('duration.none');
  switch (kind) {
    case 'text':
      return String(value);
    case 'count':
      return typeof value === 'number' ? formatCount(value, language) : String(value);
    case 'duration':
      return formatDuration(Number(value), t, language);
    case 'day':
      return formatDay(String(value), language);
    case 'time':
      return formatTime(String(value), timeZone, language);
  }
}

/** An instant as "YYYY-MM-DD HH:mm" in the time zone (a spreadsheet reads it as a date and time). */
function sheetTime(instant: string, timeZone: string): string {
  const p = zonedParts(Date.parse(instant), timeZone);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${p.year}-${two(p.month)}-${two(p.day)} ${two(p.hour)}:${two(p.minute)}`;
}

/** A cell as the files hold it: counts and minutes as numbers (texts are kept from running as formulas by the writers: exportReport.ts). */
export function fileCell(value: MeasureValue, kind: ColumnKind, timeZone: string): string | number | null {
  if (value === null) return null;
  switch (kind) {
    case 'text':
      return String(value);
    case 'count':
      return Number(value);
    case 'duration':
      return Math.round(Number(value) / 600) / 100;
    case 'day':
      return String(value);
    case 'time':
      return sheetTime(String(value), timeZone);
  }
}
