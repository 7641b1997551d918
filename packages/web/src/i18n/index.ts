/**
 * i18next set-up. French's `common` and `auth` ship with the first page (French is the default: sign-in must
 * paint without a round trip); English's and German's, and every other namespace, are small chunks of their own,
 * fetched when the language is chosen or a page first calls useTranslation('<ns>') (the app's Suspense waits).
 * Bundling all three languages' `common` put the first page over its size budget.
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
import frAuth from './locales/fr/auth.json';
import frCommon from './locales/fr/common.json';

const lazyCatalogues = import.meta.glob<{ default: ResourceLanguage }>([
  './locales/*/*.json',
  '!./locales/fr/common.json',
  '!./locales/fr/auth.json',
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
    },
    partialBundledLanguages: true,
    // French's bundled catalogues are there at once: its first render does not wait for a tick.
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
