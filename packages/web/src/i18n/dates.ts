/** Dates in the reader's language with date-fns (spec sections 3 and 9 give date-fns patterns). */
import { format, type Locale } from 'date-fns';
import { de, enUS, fr } from 'date-fns/locale';
import i18n from 'i18next';
import { type Language, toLanguage } from './languages.ts';

/** 'dd MMM yyyy HH:mm': lists, timelines (spec section 3). */
export const DATE_TIME_PATTERN = 'dd MMM yyyy HH:mm';
/**
 * 'd MMM, HH:mm': chat messages. The spec writes 'd MMM , HH:mm'; its space before the comma read as a mistake in
 * French ("29 nov. , 05:47", issue 70): docs/spec-deviations.md.
 */
export const CHAT_TIME_PATTERN = 'd MMM, HH:mm';

const LOCALES: Record<Language, Locale> = { fr, en: enUS, de };

export function dateLocale(language: string | undefined = i18n.resolvedLanguage ?? i18n.language): Locale {
  return LOCALES[toLanguage(language)];
}

/** Formats a Date, an ISO string or a timestamp; an invalid or missing date gives ''. */
export function formatDate(
  date: Date | string | number | null | undefined,
  pattern: string = DATE_TIME_PATTERN,
  language?: string,
): string {
  if (date === null || date === undefined || date === '') return '';
  const value = date instanceof Date ? date : new Date(date);
  if (Number.isNaN(value.getTime())) return '';
  return format(value, pattern, { locale: dateLocale(language) });
}
