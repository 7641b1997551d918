/**
 * The sentence that tells what an activity was (spec section 3, timeline texts), in the reader's language:
 * 'Mia Member a rejoint le canal Alpha'. Shared by the timelines, the users list ('last activity') and the
 * map's info window. `activitySentence` is pure (give it the `activity` namespace's t); components use
 * `useActivitySentence()`.
 */
import { ACTIVITY_TYPES, type Activity, type ActivityType } from '@talkgroup/protocol';
import i18next, { type TFunction } from 'i18next';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../i18n/dates.ts';

export type ActivityT = TFunction<'activity'>;

export type ActivityNames = {
  user: string;
  channel: string;
  /** The geofence of a geofence_enter / geofence_exit. */
  zone: string;
  /** dispatch_*: the member who asked, and a transfer's dispatcher. */
  requester: string;
  to: string;
  /** status_change: the new status's label in the reader's language. */
  status: string;
  /** emergency_close: the alert's sender and its outcome (a real emergency, a false alarm). */
  sender: string;
  outcome: string;
};

type Named = Pick<Activity, 'user' | 'channel'> &
  Partial<Pick<Activity, 'geofence' | 'dispatch' | 'status' | 'emergency' | 'alert'>>;

/** A status's label in the page's language (French, the default, when it has none in it). */
function statusLabel(t: ActivityT, status: Activity['status']): string {
  if (!status?.label) return t('noStatus');
  const language = (i18next.resolvedLanguage ?? i18next.language ?? 'fr').slice(0, 2);
  return status.label[language as 'fr' | 'en' | 'de'] ?? status.label.fr;
}

const KNOWN_TYPES: ReadonlySet<string> = new Set(ACTIVITY_TYPES);

/** The user's display name (or first and last name), the channel's and the zone's names, as the activity kept them. */
export function activityNames(t: ActivityT, activity: Named): ActivityNames {
  const user = activity.user;
  const userName =
    user?.display_name?.trim() || `${user?.firstName ?? ''} ${user?.lastName ?? ''}`.trim() || t('someone');
  return {
    user: userName,
    channel: activity.channel?.name?.trim() || t('unknownChannel'),
    zone: activity.geofence?.name?.trim() || t('unknownZone'),
    requester: activity.dispatch?.requester?.trim() || userName,
    to: activity.dispatch?.to?.trim() || t('someone'),
    status: statusLabel(t, activity.status),
    sender: activity.emergency?.sender?.trim() || t('someone'),
    outcome: activity.emergency ? t(`outcomes.${activity.emergency.outcome}`) : '',
  };
}

/** Every type of spec section 3 has its sentence; a type the console does not know still reads. */
export function activitySentence(
  t: ActivityT,
  activity: Named & Pick<Activity, 'type'>,
  names: ActivityNames = activityNames(t, activity),
): string {
  if (!KNOWN_TYPES.has(activity.type)) return t('other', { ...names, type: String(activity.type) });
  const sentence = t(`types.${activity.type as ActivityType}`, names);
  // Issue 60: an SOS says why, and who raised it for the member.
  if (activity.type === 'emergency' && activity.alert) {
    const reason = t(`alertReason.${activity.alert.reason}`);
    const by = activity.alert.raisedBy;
    return by ? t('alertRaisedBy', { sentence, reason, by }) : t('alertWhy', { sentence, reason });
  }
  // A close says how the request ended, and its incident reference (issue 58).
  const { outcome, reference } = activity.dispatch ?? {};
  if (activity.type !== 'dispatch_close' || !outcome) return sentence;
  const how = t(`dispatchOutcomes.${outcome as 'resolved'}`, { defaultValue: outcome });
  return reference ? t('dispatchClosedRef', { sentence, how, reference }) : t('dispatchClosed', { sentence, how });
}

/**
 * `const describe = useActivitySentence(); describe(user.userActivities[0], { withDate: true })`
 * -> 'Connexion de Mia Member, le 03 mars 2025 14:05', or 'Pas d'activité encore.' when there is none.
 */
export interface ActivitySentenceOptions {
  /** Adds the date, 'dd MMM yyyy HH:mm' in the reader's language. */
  withDate?: boolean;
}

export function useActivitySentence(): (
  activity: Activity | null | undefined,
  options?: ActivitySentenceOptions,
) => string {
  const { t, i18n } = useTranslation('activity');
  const language = i18n.resolvedLanguage ?? i18n.language;
  return useCallback(
    (activity, options = {}) => {
      if (!activity) return t('none');
      const sentence = activitySentence(t, activity);
      if (!options.withDate) return sentence;
      return t('withDate', { sentence, date: formatDate(activity.createdAt, undefined, language) });
    },
    [t, language],
  );
}
