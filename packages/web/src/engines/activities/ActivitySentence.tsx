/** The activity's sentence with the user's and the channel's names in bold (names are text, never markup). */
import type { Activity } from '@talkgroup/protocol';
import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import { activityNames, activitySentence } from './activitySentence.ts';

// Invisible separators that no translation contains: the sentence is built around them, then split.
const USER = '\u2063u\u2063';
const CHANNEL = '\u2063c\u2063';
const ZONE = '\u2063z\u2063';

export function ActivitySentence({
  activity,
}: {
  activity: Pick<Activity, 'type' | 'user' | 'channel'> &
    Partial<Pick<Activity, 'geofence' | 'dispatch' | 'status' | 'alert'>>;
}) {
  const { t } = useTranslation('activity');
  const names = activityNames(t, activity);
  const template = activitySentence(t, activity, { ...names, user: USER, channel: CHANNEL, zone: ZONE });
  return (
    <>
      {template.split(/(\u2063[ucz]\u2063)/).map((part, index) => {
        const key = `${index}-${part}`;
        if (part === USER) return <strong key={key}>{names.user}</strong>;
        if (part === CHANNEL) return <strong key={key}>{names.channel}</strong>;
        if (part === ZONE) return <strong key={key}>{names.zone}</strong>;
        return <Fragment key={key}>{part}</Fragment>;
      })}
    </>
  );
}
