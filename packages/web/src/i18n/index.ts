/**
 * i18next set-up. `common` and `auth` ship with the first page (sign-in must paint without a round trip);
 * every other namespace is its own small chunk, fetched when a page first calls useTranslation('<ns>').
 * The language is detected from ?lng= then localStorage (`i18nextLng`), never from the browser, because the
 * spec makes French the default whatever the browser says.
 */
import i18n, { type BackendModule, type PostProcessorModule, type ResourceLanguage } from 'i18next';
import LanguageDetector from 'i18next-browser-languagedetector';
import { initReactI18next } from 'react-i18next';
import { frenchTypography } from './frenchTypography.ts';
import {
  DEFAULT_LANGUAGE,
  EAGER_NAMESPACES,
  LANGUAGE_STORAGE_KEY,
  LANGUAGES,
  NAMESPACES,
  toLanguage,
} from './languages.ts';
import deAuth from './locales/de/auth.json';
import deCommon from './locales/de/common.json';
import enAuth from './locales/en/auth.json';
import enCommon from './locales/en/common.json';
import frAuth from './locales/fr/auth.json';
import frCommon from './locales/fr/common.json';

const lazyCatalogues = import.meta.glob<{ default: ResourceLanguage }>([
  './locales/*/*.json',
  '!./locales/*/common.json',
  '!./locales/*/auth.json',
]);

const lazyBackend: BackendModule = {
  type: 'backend',
  init() {},
  read(language, namespace, callback) {
    const load = lazyCatalogues[`./locales/${language}/${namespace}.json`];
    if (!load) {
      callback(new Error(`No catalogue ${language}/${namespace}`), false);
      return;
    }
    load().then(
      (module) => callback(null, module.default),
      (error: Error) => callback(error, false),
    );
  },
};

/** Elision and guillemets in French, once a text's values are in (frenchTypography.ts, issue 70). */
const typography: PostProcessorModule = {
  type: 'postProcessor',
  name: 'frenchTypography',
  process(value, _key, options, translator) {
    const language = String(options?.lng ?? translator?.language ?? '');
    if (typeof value !== 'string' || !language.startsWith('fr')) return value;
    return frenchTypography(value, options as Record<string, unknown>);
  },
};

i18n.on('languageChanged', (language) => {
  document.documentElement.lang = toLanguage(language);
});

void i18n
  .use(lazyBackend)
  .use(typography)
  .use(LanguageDetector)
  .use(initReactI18next)
  .init({
    resources: {
      fr: { common: frCommon, auth: frAuth },
      en: { common: enCommon, auth: enAuth },
      de: { common: deCommon, auth: deAuth },
    },
    partialBundledLanguages: true,
    // The bundled catalogues are there at once: the first render must not wait for a tick.
    initAsync: false,
    ns: [...EAGER_NAMESPACES],
    defaultNS: 'common',
    fallbackNS: false,
    fallbackLng: DEFAULT_LANGUAGE,
    supportedLngs: LANGUAGES.map((language) => language.code),
    nonExplicitSupportedLngs: true,
    load: 'languageOnly',
    detection: {
      order: ['querystring', 'localStorage'],
      lookupQuerystring: 'lng',
      lookupLocalStorage: LANGUAGE_STORAGE_KEY,
      caches: ['localStorage'],
    },
    interpolation: { escapeValue: false },
    postProcess: ['frenchTypography'],
    react: { useSuspense: true },
  });

export { NAMESPACES };
export default i18n;
