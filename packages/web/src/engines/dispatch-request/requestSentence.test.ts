import type { DispatchRequest } from '@talkgroup/protocol';
import { createInstance } from 'i18next';
import { describe, expect, it } from 'vitest';
import de from '../../i18n/locales/de/dispatchRequest.json';
import en from '../../i18n/locales/en/dispatchRequest.json';
import fr from '../../i18n/locales/fr/dispatchRequest.json';
import { type DispatchRequestT, formatWaited, placeInLine, requestSentence } from './requestSentence.ts';

async function translator(language: 'fr' | 'en' | 'de'): Promise<DispatchRequestT> {
  const i18n = createInstance();
  await i18n.init({
    lng: language,
    resources: { fr: { dispatchRequest: fr }, en: { dispatchRequest: en }, de: { dispatchRequest: de } },
    ns: ['dispatchRequest'],
    defaultNS: 'dispatchRequest',
    interpolation: { escapeValue: false },
  });
  return i18n.getFixedT(language, 'dispatchRequest') as DispatchRequestT;
}

const request = (overrides: Partial<DispatchRequest> = {}): DispatchRequest => ({
  requestId: 4,
  channelId: 2,
  channelName: 'Quai',
  requester: { userId: 7, name: 'Mia Member' },
  priority: 'normal',
  note: '',
  state: 'waiting',
  position: 1,
  waitedMs: 0,
  createdAt: '2026-11-26T23:00:00.000Z',
  ...overrides,
});

const dana = { userId: 3, name: 'Dana' };
const sam = { userId: 5, name: 'Sam' };

describe("a member's place in the dispatch queue", () => {
  it('reads as an English ordinal: 1st, 2nd, 3rd, then th (11th to 13th too), 21st', async () => {
    const t = await translator('en');
    const places = [1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111].map((n) => placeInLine(t, n));
    expect(places).toEqual([
      '1st in line',
      '2nd in line',
      '3rd in line',
      '4th in line',
      '11th in line',
      '12th in line',
      '13th in line',
      '21st in line',
      '22nd in line',
      '23rd in line',
      '101st in line',
      '111th in line',
    ]);
  });

  it('reads "1er" then "Ne" in French', async () => {
    const t = await translator('fr');
    expect([1, 2, 3, 11, 21].map((n) => placeInLine(t, n))).toEqual([
      '1er dans la file',
      '2e dans la file',
      '3e dans la file',
      '11e dans la file',
      '21e dans la file',
    ]);
  });

  it('reads "N." in German', async () => {
    const t = await translator('de');
    expect([1, 2, 3, 11].map((n) => placeInLine(t, n))).toEqual([
      '1. in der Warteschlange',
      '2. in der Warteschlange',
      '3. in der Warteschlange',
      '11. in der Warteschlange',
    ]);
  });
});

describe("the sentence of a member's request", () => {
  it.each([
    ['en', request({ state: 'taken', heldBy: dana, answer: 'private', position: null }), 'Taken by Dana'],
    ['fr', request({ state: 'taken', heldBy: dana, answer: 'private', position: null }), 'Pris par Dana'],
    ['de', request({ state: 'taken', heldBy: dana, position: null }), 'Übernommen von Dana'],
    ['en', request({ state: 'taken', heldBy: dana, answer: 'channel', position: null }), 'Dana answers on Quai'],
    ['fr', request({ state: 'taken', heldBy: dana, answer: 'channel', position: null }), 'Dana vous répond sur Quai'],
    ['de', request({ state: 'taken', heldBy: dana, answer: 'channel', position: null }), 'Dana antwortet in Quai'],
    ['en', request({ state: 'transferring', heldBy: dana, transferTo: sam }), 'Being transferred to Sam…'],
    ['fr', request({ state: 'transferring', heldBy: dana, transferTo: sam }), 'Transfert vers Sam…'],
    ['de', request({ state: 'transferring', heldBy: dana, transferTo: sam }), 'Wird an Sam weitergeleitet…'],
    ['en', request({ state: 'closed' }), 'Request closed'],
    ['fr', request({ state: 'closed' }), 'Demande terminée'],
    ['de', request({ state: 'closed' }), 'Anfrage abgeschlossen'],
    ['en', request({ state: 'expired' }), 'Request expired: nobody answered'],
    ['fr', request({ state: 'expired' }), "Demande expirée : personne n'a répondu"],
    ['de', request({ state: 'expired' }), 'Anfrage abgelaufen: niemand hat geantwortet'],
    ['en', request({ state: 'cancelled' }), 'Request cancelled'],
    ['en', request({ state: 'waiting', position: 2 }), '2nd in line'],
    ['fr', request({ state: 'waiting', position: 2 }), '2e dans la file'],
  ] as const)('in %s: %#', async (language, shown, sentence) => {
    const t = await translator(language);
    expect(requestSentence(t, shown)).toBe(sentence);
  });

  it('has a sentence of its own for every state, in every language', async () => {
    for (const language of ['fr', 'en', 'de'] as const) {
      const t = await translator(language);
      const states = ['closed', 'cancelled', 'abandoned', 'expired'] as const;
      const sentences = states.map((state) => requestSentence(t, request({ state, position: null })));
      expect(new Set(sentences).size, language).toBe(states.length);
      for (const sentence of sentences) expect(sentence, language).not.toMatch(/card\.|\{\{/);
    }
  });
});

describe('the time a request has waited', () => {
  it('reads as a clock', () => {
    expect(formatWaited(0)).toBe('0:00');
    expect(formatWaited(42_400)).toBe('0:42');
    expect(formatWaited(725_000)).toBe('12:05');
    expect(formatWaited(3_729_000)).toBe('1:02:09');
    expect(formatWaited(-5)).toBe('0:00');
  });
});
