/**
 * The notifications' texts (issue 34), in the language of the device that subscribed (the Accept-Language of
 * its savePushSubscription: fr, en or de; English when it named none of them).
 */
import type { ServerLanguage } from '@talkgroup/protocol';

type Texts = Record<ServerLanguage, string>;

export const PUSH_NOTIFICATION_TEXTS = {
  sos_title: { en: 'SOS: {{name}}', fr: 'SOS : {{name}}', de: 'SOS: {{name}}' },
  sos_body: {
    en: '{{name}} sent an emergency alert in {{channel}}.',
    fr: '{{name}} a envoyé une alerte d’urgence dans {{channel}}.',
    de: '{{name}} hat in {{channel}} einen Notruf gesendet.',
  },
  sos_body_nowhere: {
    en: '{{name}} sent an emergency alert.',
    fr: '{{name}} a envoyé une alerte d’urgence.',
    de: '{{name}} hat einen Notruf gesendet.',
  },
  call_title: { en: '{{name}} is calling you', fr: '{{name}} vous appelle', de: '{{name}} ruft Sie an' },
  call_body: {
    en: 'Private call: answer or decline.',
    fr: 'Appel privé : répondez ou refusez.',
    de: 'Privater Anruf: annehmen oder ablehnen.',
  },
  missed_call_title: { en: 'Missed call', fr: 'Appel manqué', de: 'Verpasster Anruf' },
  missed_call_body: {
    en: '{{name}} called you.',
    fr: '{{name}} vous a appelé.',
    de: '{{name}} hat Sie angerufen.',
  },
  transmission_title: { en: '{{channel}}', fr: '{{channel}}', de: '{{channel}}' },
  transmission_body: {
    en: '{{name}} is talking in {{channel}}.',
    fr: '{{name}} parle dans {{channel}}.',
    de: '{{name}} spricht in {{channel}}.',
  },
  geofence_title: { en: 'Geofence {{fence}}', fr: 'Zone {{fence}}', de: 'Zone {{fence}}' },
  geofence_enter: {
    en: '{{name}} entered {{fence}}.',
    fr: '{{name}} est entré dans {{fence}}.',
    de: '{{name}} hat {{fence}} betreten.',
  },
  geofence_exit: {
    en: '{{name}} left {{fence}}.',
    fr: '{{name}} est sorti de {{fence}}.',
    de: '{{name}} hat {{fence}} verlassen.',
  },
} satisfies Record<string, Texts>;

export type PushTextKey = keyof typeof PUSH_NOTIFICATION_TEXTS;

export function pushText(key: PushTextKey, language: ServerLanguage, params: Record<string, string>): string {
  return PUSH_NOTIFICATION_TEXTS[key][language].replace(/\{\{(\w+)\}\}/g, (_, name: string) => params[name] ?? '');
}
