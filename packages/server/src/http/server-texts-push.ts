/**
 * The sentences of Web Push (issue 34), by language: the answers to its calls, by code (spread into
 * SERVER_TEXTS with the others), and what its notifications say, in the language of the device that subscribed
 * (the Accept-Language of its savePushSubscription: fr, en or de; English when it named none of them). A
 * notification is no answer to a call, so its keys are not codes of packages/protocol: pushText reads them.
 */
import type { ServerLanguage, ServerMessageCode } from '@talkgroup/protocol';

type Texts = Record<ServerLanguage, string>;

export const PUSH_TEXTS = {
  push_saved: {
    en: 'Notifications are on for this device.',
    fr: 'Les notifications sont activées sur cet appareil.',
    de: 'Benachrichtigungen sind auf diesem Gerät eingeschaltet.',
  },
  push_deleted: {
    en: 'Notifications are off for this device.',
    fr: 'Les notifications sont désactivées sur cet appareil.',
    de: 'Benachrichtigungen sind auf diesem Gerät ausgeschaltet.',
  },
  push_off: {
    en: 'Notifications are turned off on this server.',
    fr: 'Les notifications sont désactivées sur ce serveur.',
    de: 'Benachrichtigungen sind auf diesem Server ausgeschaltet.',
  },
  push_endpoint_https: {
    en: 'The push service address must be an https:// address.',
    fr: 'L’adresse du service de notifications doit commencer par https://.',
    de: 'Die Adresse des Push-Dienstes muss mit https:// beginnen.',
  },
  push_endpoint_private: {
    en: 'The push service address leads to a private or local network: the server does not send there.',
    fr: 'L’adresse du service de notifications mène à un réseau privé ou local : le serveur n’y envoie rien.',
    de: 'Die Adresse des Push-Dienstes führt in ein privates oder lokales Netz: Der Server sendet nicht dorthin.',
  },
  push_endpoint_unknown: {
    en: 'The push service address does not resolve: check the device’s network and try again.',
    fr: 'L’adresse du service de notifications est introuvable : vérifiez le réseau de l’appareil et réessayez.',
    de: 'Die Adresse des Push-Dienstes wird nicht gefunden: Prüfen Sie das Netz des Geräts und versuchen Sie es erneut.',
  },
  push_endpoint_taken: {
    en: 'This push address is saved for another account: subscribe this device again to get a new one.',
    fr: 'Cette adresse de notifications est enregistrée pour un autre compte : réabonnez cet appareil pour en obtenir une nouvelle.',
    de: 'Diese Push-Adresse ist für ein anderes Konto gespeichert: Abonnieren Sie auf diesem Gerät erneut, um eine neue zu erhalten.',
  },
  push_decline_refused: {
    en: 'This call cannot be declined with this key.',
    fr: 'Cet appel ne peut pas être refusé avec cette clé.',
    de: 'Dieser Anruf kann mit diesem Schlüssel nicht abgelehnt werden.',
  },
  push_key_invalid: {
    en: 'The subscription’s p256dh key is not a valid P-256 public key.',
    fr: 'La clé p256dh de l’abonnement n’est pas une clé publique P-256 valide.',
    de: 'Der p256dh-Schlüssel des Abonnements ist kein gültiger öffentlicher P-256-Schlüssel.',
  },
  push_auth_invalid: {
    en: 'The subscription’s auth secret must be 16 bytes (base64url).',
    fr: 'Le secret auth de l’abonnement doit faire 16 octets (base64url).',
    de: 'Das auth-Geheimnis des Abonnements muss 16 Byte lang sein (base64url).',
  },
} satisfies Partial<Record<ServerMessageCode, Texts>>;

export const PUSH_NOTIFICATION_TEXTS = {
  sos_title: { en: 'SOS: {{name}}', fr: 'SOS : {{name}}', de: 'SOS: {{name}}' },
  // Issue 60: the alert says why.
  sos_title_man_down: { en: 'Man down: {{name}}', fr: 'Homme à terre : {{name}}', de: 'Person am Boden: {{name}}' },
  sos_title_lone_worker: { en: 'No response: {{name}}', fr: 'Sans réponse : {{name}}', de: 'Keine Antwort: {{name}}' },
  lone_worker_check_title: { en: 'Are you OK?', fr: 'Tout va bien ?', de: 'Alles in Ordnung?' },
  lone_worker_check_body: {
    en: 'Lone work: tap to answer “I’m OK”.',
    fr: 'Travail isolé : touchez pour répondre « Je vais bien ».',
    de: 'Alleinarbeit: Tippen Sie, um „Mir geht es gut“ zu antworten.',
  },
  lone_worker_reminder_body: {
    en: 'Reminder: answer now, or your dispatchers will be alerted.',
    fr: 'Rappel : répondez maintenant, sinon vos répartiteurs seront alertés.',
    de: 'Erinnerung: Antworten Sie jetzt, sonst wird Ihre Leitstelle alarmiert.',
  },
  lone_worker_alert_body: {
    en: '{{name}} has not answered two lone-worker checks.',
    fr: '{{name}} n’a pas répondu à deux contrôles de travail isolé.',
    de: '{{name}} hat auf zwei Kontrollen der Alleinarbeit nicht geantwortet.',
  },
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
  call_body_request: {
    en: 'Answering your request',
    fr: 'Réponse à votre demande',
    de: 'Antwort auf Ihre Anfrage',
  },
  call_body_request_note: {
    en: 'Answering your request: {{note}}',
    fr: 'Réponse à votre demande : {{note}}',
    de: 'Antwort auf Ihre Anfrage: {{note}}',
  },
  missed_call_title: { en: 'Missed call', fr: 'Appel manqué', de: 'Verpasster Anruf' },
  missed_call_body: {
    en: '{{name}} called you.',
    fr: '{{name}} vous a appelé.',
    de: '{{name}} hat Sie angerufen.',
  },
  alias_call_taken_body: {
    en: '{{name}} answered the call to {{alias}}.',
    fr: '{{name}} a répondu à l’appel pour {{alias}}.',
    de: '{{name}} hat den Anruf für {{alias}} angenommen.',
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
  dispatch_remind_title: {
    en: '{{name}} is waiting for dispatch',
    fr: '{{name}} attend le dispatch',
    de: '{{name}} wartet auf die Leitstelle',
  },
  dispatch_remind_body: {
    en: 'Waiting for {{minutes}} min on {{channel}}: open the dispatch console.',
    fr: 'En attente depuis {{minutes}} min sur {{channel}} : ouvrez la console de dispatch.',
    de: 'Wartet seit {{minutes}} Min. in {{channel}}: Öffnen Sie die Leitstelle.',
  },
} satisfies Record<string, Texts>;

export type PushNotificationKey = keyof typeof PUSH_NOTIFICATION_TEXTS;
