/** The languages the console speaks (spec sections 1 and 9): French by default, English, German. */
export const LANGUAGES = [
  { code: 'fr', short: 'Fr', name: 'Français' },
  { code: 'en', short: 'En', name: 'English' },
  { code: 'de', short: 'De', name: 'Deutsch' },
] as const;

export type Language = (typeof LANGUAGES)[number]['code'];

export const DEFAULT_LANGUAGE: Language = 'fr';
/** Where the choice persists (i18next-browser-languagedetector's convention). */
export const LANGUAGE_STORAGE_KEY = 'i18nextLng';

/** Namespaces bundled with the first page; the others load with the page that uses them. */
export const EAGER_NAMESPACES = ['common', 'auth'] as const;
export const NAMESPACES = [
  'common',
  'auth',
  'dashboard',
  'users',
  'channels',
  'activities',
  'activity',
  'room',
  'talk',
  'emergency',
  'audit',
  'tracking',
  'dispatch',
  'dispatchRequest',
  'calls',
  'account',
  'settings',
  'reports',
  'safety',
  'video',
] as const;
export type Namespace = (typeof NAMESPACES)[number];

export function toLanguage(code: string | undefined): Language {
  const short = (code ?? '').slice(0, 2).toLowerCase();
  return LANGUAGES.some((language) => language.code === short) ? (short as Language) : DEFAULT_LANGUAGE;
}
