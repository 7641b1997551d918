import { type Activity, TIMELINE_ACTIVITY_TYPES } from '@talkgroup/protocol';
import { createInstance } from 'i18next';
import { describe, expect, it } from 'vitest';
import { formatDate } from '../../i18n/dates.ts';
import de from '../../i18n/locales/de/activity.json';
import en from '../../i18n/locales/en/activity.json';
import fr from '../../i18n/locales/fr/activity.json';
import { type ActivityT, activitySentence } from './activitySentence.ts';

async function translator(language: 'fr' | 'en' | 'de'): Promise<ActivityT> {
  const i18n = createInstance();
  await i18n.init({
    lng: language,
    resources: { fr: { activity: fr }, en: { activity: en }, de: { activity: de } },
    ns: ['activity'],
    defaultNS: 'activity',
    interpolation: { escapeValue: false },
  });
  return i18n.getFixedT(language, 'activity') as ActivityT;
}

const activity = (type: string, overrides: Partial<Activity> = {}): Activity => ({
  id: 1,
  type: type as Activity['type'],
  createdAt: '2025-03-04T13:05:00.000Z',
  user: { id: 7, firstName: 'Mia', lastName: 'Member', display_name: 'Mia Member' },
  channel: { id: 3, name: 'Alpha Team' },
  ...overrides,
});

describe('activity sentences', () => {
  it.each(['fr', 'en', 'de'] as const)('name the user (and the channel where there is one) in %s', async (language) => {
    const t = await translator(language);
    const seen = new Set<string>();
    for (const type of TIMELINE_ACTIVITY_TYPES) {
      const sentence = activitySentence(t, activity(type));
      expect(sentence, type).toContain('Mia Member');
      if (type.startsWith('channel_') || type.endsWith('_send')) expect(sentence, type).toContain('Alpha Team');
      expect(sentence, type).not.toMatch(/types\.|\{\{/);
      seen.add(sentence);
    }
    // Ten types, ten different sentences.
    expect(seen.size).toBe(TIMELINE_ACTIVITY_TYPES.length);
  });

  it('reads in each language', async () => {
    expect(activitySentence(await translator('fr'), activity('channel_join'))).toBe(
      'Mia Member a rejoint le canal Alpha Team',
    );
    expect(activitySentence(await translator('en'), activity('channel_join'))).toBe(
      'Mia Member joined the channel Alpha Team',
    );
    expect(activitySentence(await translator('de'), activity('channel_join'))).toBe(
      'Mia Member ist dem Kanal Alpha Team beigetreten',
    );
    expect(activitySentence(await translator('fr'), activity('login'))).toBe('Connexion de Mia Member');
  });

  it('still reads for the other types, an unknown type and a deleted user', async () => {
    const t = await translator('en');
    expect(activitySentence(t, activity('connexion_lost'))).toBe('Mia Member lost the connection');
    expect(activitySentence(t, activity('position_update'))).toBe('Mia Member shared their position');
    expect(activitySentence(t, activity('radio_check'))).toBe('Mia Member: radio_check');
    expect(activitySentence(t, activity('logout', { user: null }))).toBe('Someone signed out');
    expect(
      activitySentence(
        t,
        activity('login', { user: { id: null, firstName: 'Ann', lastName: 'Lee', display_name: '' } }),
      ),
    ).toBe('Ann Lee signed in');
  });

  it('names the zone a member entered or left, in each language', async () => {
    const crossing = (type: string) => activity(type, { channel: null, geofence: { id: 4, name: 'Dépôt nord' } });
    expect(activitySentence(await translator('en'), crossing('geofence_enter'))).toBe(
      'Mia Member entered the zone Dépôt nord',
    );
    expect(activitySentence(await translator('fr'), crossing('geofence_exit'))).toBe(
      'Mia Member est sorti(e) de la zone Dépôt nord',
    );
    expect(activitySentence(await translator('de'), crossing('geofence_enter'))).toBe(
      'Mia Member hat die Zone Dépôt nord betreten',
    );
    expect(activitySentence(await translator('en'), activity('geofence_exit'))).toBe(
      'Mia Member left the zone (unknown zone)',
    );
  });

  it('says how a dispatch request was closed, and its reference (issue 58)', async () => {
    const closed = (dispatch: Partial<NonNullable<Activity['dispatch']>>) =>
      activity('dispatch_close', {
        dispatch: { requestId: 4, requester: 'Alex Martin', priority: 'normal', waitedMs: 0, ...dispatch },
      });
    const base = activitySentence(await translator('fr'), closed({}));
    expect(activitySentence(await translator('fr'), closed({ outcome: 'referred', reference: 'INC-42' }))).toBe(
      `${base} : orientée, réf. INC-42`,
    );
    expect(activitySentence(await translator('en'), closed({ outcome: 'no_action' }))).toBe(
      `${activitySentence(await translator('en'), closed({}))}: no action`,
    );
  });

  it("dates the entries 'dd MMM yyyy HH:mm' in the reader's language", () => {
    const at = new Date(2025, 2, 4, 14, 5);
    expect(formatDate(at, undefined, 'fr')).toBe('04 mars 2025 14:05');
    expect(formatDate(at, undefined, 'en')).toBe('04 Mar 2025 14:05');
    expect(formatDate(at, undefined, 'de')).toBe('04 März 2025 14:05');
  });
});
