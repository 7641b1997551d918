/**
 * Every text of the console is a key present in all three languages: a key added in one catalogue and
 * forgotten in another fails here, with the language, namespace and key named.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LANGUAGES, NAMESPACES } from './languages.ts';

const root = path.join(import.meta.dirname, 'locales');
const languages = LANGUAGES.map((language) => language.code);

type Catalogue = Record<string, unknown>;

function load(language: string, namespace: string): Catalogue {
  return JSON.parse(readFileSync(path.join(root, language, `${namespace}.json`), 'utf8'));
}

/** 'nav.dashboard' -> 'Dashboard' for every leaf. */
function flatten(catalogue: Catalogue, prefix = ''): Map<string, unknown> {
  const leaves = new Map<string, unknown>();
  for (const [key, value] of Object.entries(catalogue)) {
    const name = prefix ? `${prefix}.${key}` : key;
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      for (const [leaf, text] of flatten(value as Catalogue, name)) leaves.set(leaf, text);
    } else {
      leaves.set(name, value);
    }
  }
  return leaves;
}

/** i18next plural forms differ per language (German and English have one, French has 'many'): compare bases. */
function baseKey(key: string): string {
  return key.replace(/_(zero|one|two|few|many|other)$/, '');
}

const placeholders = (text: unknown) => [...String(text).matchAll(/\{\{\s*([\w.]+)[^}]*\}\}/g)].map((m) => m[1]).sort();

describe('translation catalogues', () => {
  it('have one file per namespace in every language, and no stray file', () => {
    for (const language of languages) {
      const files = readdirSync(path.join(root, language)).filter((file) => file.endsWith('.json'));
      expect(files.sort(), `files of ${language}`).toEqual(NAMESPACES.map((namespace) => `${namespace}.json`).sort());
    }
  });

  describe.each(NAMESPACES)('namespace %s', (namespace) => {
    const catalogues = Object.fromEntries(languages.map((language) => [language, flatten(load(language, namespace))]));

    it.each(languages)('in %s has every key that another language has', (language) => {
      const own = new Set([...catalogues[language].keys()].map(baseKey));
      const missing = languages
        .filter((other) => other !== language)
        .flatMap((other) => [...catalogues[other].keys()].map((key) => ({ key: baseKey(key), other })))
        .filter(({ key }) => !own.has(key))
        .map(({ key, other }) => `${language}/${namespace}: "${key}" (present in ${other})`);
      expect([...new Set(missing)]).toEqual([]);
    });

    it.each(languages)('in %s has no empty text and the same {{placeholders}} as English', (language) => {
      const english = catalogues.en;
      const problems: string[] = [];
      for (const [key, text] of catalogues[language]) {
        if (typeof text !== 'string' || text.trim() === '') problems.push(`${key}: empty or not a string`);
        const reference = english.get(key);
        if (reference !== undefined && placeholders(reference).join() !== placeholders(text).join()) {
          problems.push(`${key}: placeholders ${placeholders(text)} differ from English ${placeholders(reference)}`);
        }
      }
      expect(problems).toEqual([]);
    });
  });
});
