/**
 * The server's sentences about voice (the floor, recordings), private calls, the dispatch console's patches and
 * monitor list and geofences, by code and language; server-texts.ts holds them with the others.
 */
import type { ServerLanguage, ServerMessageCode } from '@talkgroup/protocol';

type Texts = Record<ServerLanguage, string>;

export const VOICE_TEXTS = {
  connected_to_channel: { en: 'Connected to the channel.', fr: 'Connecté au canal.', de: 'Mit dem Kanal verbunden.' },
  microphone_on: { en: 'Microphone on.', fr: 'Micro activé.', de: 'Mikrofon an.' },
  microphone_off: { en: 'Microphone off.', fr: 'Micro coupé.', de: 'Mikrofon aus.' },
  floor_busy: {
    en: '{{name}} is talking: wait until the channel is free.',
    fr: '{{name}} parle : attendez que le canal soit libre.',
    de: '{{name}} spricht: warten Sie, bis der Kanal frei ist.',
  },
  listen_only: {
    en: 'You may only listen in this channel.',
    fr: 'Vous pouvez seulement écouter dans ce canal.',
    de: 'Sie dürfen in diesem Kanal nur zuhören.',
  },
  call_not_found: { en: 'Call not found.', fr: 'Appel introuvable.', de: 'Anruf nicht gefunden.' },
  geofence_created: { en: 'Geofence created', fr: 'Zone créée', de: 'Zone erstellt' },
  geofence_updated: { en: 'Geofence updated', fr: 'Zone modifiée', de: 'Zone geändert' },
  geofence_deleted: { en: 'Geofence deleted', fr: 'Zone supprimée', de: 'Zone gelöscht' },
  geofence_not_found: { en: 'Geofence not found.', fr: 'Zone introuvable.', de: 'Zone nicht gefunden.' },
  area_geofence_unknown: {
    en: 'areaGeofenceId must be the id of an existing zone, or null.',
    fr: 'areaGeofenceId doit être l’identifiant d’une zone existante, ou null.',
    de: 'areaGeofenceId muss die Kennung einer bestehenden Zone sein, oder null.',
  },
  geofence_area_admin_only: {
    en: 'This zone is the area of the channel "{{channel}}": only an administrator may change or delete it.',
    fr: 'Cette zone est celle du canal « {{channel}} » : seul un administrateur peut la modifier ou la supprimer.',
    de: 'Diese Zone ist der Bereich des Kanals „{{channel}}“: Nur ein Administrator darf sie ändern oder löschen.',
  },
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
  private_calls_not_auditable: {
    en: 'Private calls are not open to audit on this server: it runs without PRIVATE_CALLS_AUDITABLE=true.',
    fr: 'Les appels privés ne sont pas ouverts à l’audit sur ce serveur : il fonctionne sans PRIVATE_CALLS_AUDITABLE=true.',
    de: 'Privatanrufe sind auf diesem Server nicht für Prüfungen freigegeben: Er läuft ohne PRIVATE_CALLS_AUDITABLE=true.',
  },
  call_not_allowed: {
    en: 'You may not call this person privately: a member calls the dispatchers and administrators of its channels.',
    fr: 'Vous ne pouvez pas appeler cette personne en privé : un membre appelle les répartiteurs et les administrateurs de ses canaux.',
    de: 'Sie dürfen diese Person nicht privat anrufen: Ein Mitglied ruft die Disponenten und Administratoren seiner Kanäle an.',
  },
  call_self: {
    en: 'userId: you cannot call yourself.',
    fr: 'Vous ne pouvez pas vous appeler vous-même.',
    de: 'Sie können sich nicht selbst anrufen.',
  },
  call_busy: {
    en: 'Busy: this person cannot take your call now. Try again later.',
    fr: 'Occupé : cette personne ne peut pas prendre votre appel maintenant. Réessayez plus tard.',
    de: 'Besetzt: Diese Person kann Ihren Anruf gerade nicht annehmen. Versuchen Sie es später erneut.',
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
  voice_recording_off: {
    en: 'Recording is turned off for this channel.',
    fr: 'L’enregistrement est désactivé pour ce canal.',
    de: 'Die Aufnahme ist für diesen Kanal ausgeschaltet.',
  },
  voice_recorded_by_server: {
    en: "The media server records this channel's transmissions: a recording sent by a browser is not kept.",
    fr: 'Le serveur média enregistre les transmissions de ce canal : un enregistrement envoyé par un navigateur n’est pas conservé.',
    de: 'Der Medienserver zeichnet die Übertragungen dieses Kanals auf: Eine vom Browser gesendete Aufnahme wird nicht aufbewahrt.',
  },
  voice_no_grant: {
    en: 'No transmission of yours matches this recording: only what you said while the floor was yours is kept, once (its start within 5 s of the grant, its length within the grant).',
    fr: 'Aucune de vos transmissions ne correspond à cet enregistrement : seul ce que vous avez dit pendant que vous aviez la parole est conservé, une fois (début à 5 s près, durée dans celle de la prise de parole).',
    de: 'Keine Ihrer Übertragungen passt zu dieser Aufnahme: Nur was Sie sagten, während Sie das Wort hatten, wird einmal aufbewahrt (Beginn auf 5 s genau, Dauer innerhalb der Wortmeldung).',
  },
} satisfies Partial<Record<ServerMessageCode, Texts>>;
