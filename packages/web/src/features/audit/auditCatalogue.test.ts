/**
 * Issue 70: the audit log names every action the server can write in the reader's language, never as a raw key
 * (`video.request`). AUDIT_ACTIONS is the server's list (its writers take only those), so each of its actions, and
 * each kind of target, must read as words in French, English and German.
 */
import { AUDIT_ACTIONS, AUDIT_TARGET_TYPES, auditActionKey } from '@talkgroup/protocol';
import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import de from '../../i18n/locales/de/audit.json';
import en from '../../i18n/locales/en/audit.json';
import fr from '../../i18n/locales/fr/audit.json';

const catalogues = { fr, en, de };
const reader = i18next.createInstance();

beforeAll(async () => {
  await reader.init({
    resources: { fr: { audit: fr }, en: { audit: en }, de: { audit: de } },
    ns: ['audit'],
    defaultNS: 'audit',
    fallbackLng: false,
    interpolation: { escapeValue: false },
  });
});

describe.each(Object.keys(catalogues) as Array<keyof typeof catalogues>)('the audit log in %s', (language) => {
  const t = (key: string) => reader.getFixedT(language, 'audit')(key as never, { defaultValue: '' }) as string;

  it.each(AUDIT_ACTIONS.map((action) => [action]))('names %s in words', (action) => {
    // As AuditPage asks for it: a missing text would show the raw action.
    const shown = t(`actions.${auditActionKey(action)}`);
    expect(shown, `${language}: audit:actions.${auditActionKey(action)}`).not.toBe('');
    expect(shown).not.toContain(action);
    expect(shown).not.toMatch(/^[a-z]+[._][a-z_]+$/i);
  });

  it('names each kind of target and heads its columns', () => {
    for (const type of AUDIT_TARGET_TYPES) expect(t(`targets.${type}`), type).not.toBe('');
    for (const column of ['time', 'actor', 'action', 'target', 'changes', 'address'])
      expect(t(`columns.${column}`), column).not.toBe('');
  });

  it('has no text for an action the server no longer writes', () => {
    const known = new Set(AUDIT_ACTIONS.map(auditActionKey));
    expect(Object.keys(catalogues[language].actions).filter((key) => !known.has(key))).toEqual([]);
  });
});

it('heads the actor column "Auteur" / "By" / "Von": dispatchers and members act too', () => {
  expect([fr.columns.actor, en.columns.actor, de.columns.actor]).toEqual(['Auteur', 'By', 'Von']);
});
