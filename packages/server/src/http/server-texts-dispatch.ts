/**
 * The server's sentences of the dispatch console and private calls (issue 27), by code and language; part of
 * SERVER_TEXTS (server-texts.ts), which checks that every code has its sentences.
 */
import type { ServerLanguage, ServerMessageCode } from '@talkgroup/protocol';

type Texts = Record<ServerLanguage, string>;

export const DISPATCH_TEXTS = {
  monitor_list_saved: {
    en: 'Monitor list saved.',
    fr: 'Liste d’écoute enregistrée.',
    de: 'Abhörliste gespeichert.',
  },
  channels_patched: {
    en: 'Channels patched: what is said in one is heard in the others.',
    fr: 'Canaux raccordés : ce qui est dit dans l’un est entendu dans les autres.',
    de: 'Kanäle zusammengeschaltet: Was in einem gesagt wird, hören die anderen.',
  },
  channels_unpatched: { en: 'Patch removed.', fr: 'Raccordement supprimé.', de: 'Zusammenschaltung aufgehoben.' },
  call_ringing: { en: 'Calling {{name}}…', fr: 'Appel de {{name}}…', de: '{{name}} wird angerufen…' },
  call_answered: { en: 'Call accepted.', fr: 'Appel accepté.', de: 'Anruf angenommen.' },
  call_declined: { en: 'Call declined.', fr: 'Appel refusé.', de: 'Anruf abgelehnt.' },
  call_ended: { en: 'Call ended.', fr: 'Appel terminé.', de: 'Anruf beendet.' },
  call_settings_saved: {
    en: 'Call settings saved.',
    fr: 'Réglages des appels enregistrés.',
    de: 'Anrufeinstellungen gespeichert.',
  },
  patch_unavailable: {
    en: 'Channels can be patched only through the media server: this server has none (JANUS_URL), or one of these channels is peer to peer (voice mode mesh).',
    fr: 'Les canaux ne peuvent être raccordés que par le serveur média : ce serveur n’en a pas (JANUS_URL), ou l’un de ces canaux est en pair à pair (mode vocal mesh).',
    de: 'Kanäle lassen sich nur über den Medienserver zusammenschalten: Dieser Server hat keinen (JANUS_URL), oder einer dieser Kanäle ist Peer-to-Peer (Sprachmodus mesh).',
  },
  channel_already_patched: {
    en: 'The channel {{name}} is already patched: unpatch it first.',
    fr: 'Le canal {{name}} est déjà raccordé : supprimez d’abord ce raccordement.',
    de: 'Der Kanal {{name}} ist bereits zusammengeschaltet: Heben Sie das zuerst auf.',
  },
  patch_not_found: { en: 'Patch not found.', fr: 'Raccordement introuvable.', de: 'Zusammenschaltung nicht gefunden.' },
  private_call_not_found: { en: 'Call not found.', fr: 'Appel introuvable.', de: 'Anruf nicht gefunden.' },
  call_not_allowed: {
    en: 'You may not call {{name}} privately: a member calls the dispatchers and administrators of its channels.',
    fr: 'Vous ne pouvez pas appeler {{name}} en privé : un membre appelle les répartiteurs et les administrateurs de ses canaux.',
    de: 'Sie dürfen {{name}} nicht privat anrufen: Ein Mitglied ruft die Disponenten und Administratoren seiner Kanäle an.',
  },
  call_self: {
    en: 'userId: you cannot call yourself.',
    fr: 'Vous ne pouvez pas vous appeler vous-même.',
    de: 'Sie können sich nicht selbst anrufen.',
  },
  call_busy: {
    en: '{{name}} is in another call.',
    fr: '{{name}} est déjà en communication.',
    de: '{{name}} ist in einem anderen Gespräch.',
  },
  call_in_progress: {
    en: 'You are already in a call: end it first.',
    fr: 'Vous êtes déjà en communication : terminez d’abord cet appel.',
    de: 'Sie sind bereits in einem Gespräch: Beenden Sie es zuerst.',
  },
  call_not_ringing: {
    en: 'This call is no longer ringing.',
    fr: 'Cet appel ne sonne plus.',
    de: 'Dieser Anruf klingelt nicht mehr.',
  },
  too_many_calls: {
    en: 'Too many private calls: wait {{seconds}} s.',
    fr: 'Trop d’appels privés : attendez {{seconds}} s.',
    de: 'Zu viele Privatanrufe: Warten Sie {{seconds}} s.',
  },
  not_a_call_party: {
    en: 'This call is not yours.',
    fr: 'Cet appel ne vous concerne pas.',
    de: 'Dieser Anruf betrifft Sie nicht.',
  },
} satisfies Partial<Record<ServerMessageCode, Texts>>;
