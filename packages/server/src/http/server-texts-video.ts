/** The server's sentences about live video (issue 61): sharing, watching, requests and recordings. */
import type { ServerLanguage, ServerMessageCode } from '@talkgroup/protocol';

type Texts = Record<ServerLanguage, string>;

export const VIDEO_TEXTS = {
  video_settings_saved: {
    en: 'Video settings saved.',
    fr: 'Paramètres vidéo enregistrés.',
    de: 'Video-Einstellungen gespeichert.',
  },
  video_listen_only: {
    en: 'You may only listen in this channel: you may not share video there.',
    fr: 'Vous pouvez seulement écouter dans ce canal : vous ne pouvez pas y partager de vidéo.',
    de: 'Sie dürfen in diesem Kanal nur zuhören: Sie dürfen dort kein Video teilen.',
  },
  video_not_found: {
    en: 'This live video is over or unknown.',
    fr: 'Cette vidéo en direct est terminée ou inconnue.',
    de: 'Dieses Live-Video ist beendet oder unbekannt.',
  },
  video_viewers_full: {
    en: 'This live video already has its {{max}} viewers: it goes straight from the phone, which cannot send it to more. Try again when one of them closes it.',
    fr: 'Cette vidéo en direct a déjà ses {{max}} spectateurs : elle part directement du téléphone, qui ne peut pas l’envoyer à plus. Réessayez quand l’un d’eux la ferme.',
    de: 'Dieses Live-Video hat schon seine {{max}} Zuschauer: Es geht direkt vom Telefon aus, das es nicht an mehr senden kann. Versuchen Sie es erneut, wenn einer von ihnen es schließt.',
  },
  video_unpublished: {
    en: 'The video did not reach the server: the phone may have lost its connection. Try again.',
    fr: 'La vidéo n’est pas parvenue au serveur : le téléphone a peut-être perdu sa connexion. Réessayez.',
    de: 'Das Video hat den Server nicht erreicht: Das Telefon hat vielleicht seine Verbindung verloren. Versuchen Sie es erneut.',
  },
  video_not_audience: {
    en: 'Only the dispatchers of this channel and the administrators watch its live video.',
    fr: 'Seuls les répartiteurs de ce canal et les administrateurs regardent sa vidéo en direct.',
    de: 'Nur die Disponenten dieses Kanals und die Administratoren sehen sein Live-Video.',
  },
  video_request_not_found: {
    en: 'This video request is over or unknown.',
    fr: 'Cette demande de vidéo est terminée ou inconnue.',
    de: 'Diese Videoanfrage ist beendet oder unbekannt.',
  },
  video_app_closed: {
    en: "This member's app is not open: a video request can be sent only while it is.",
    fr: "L'application de ce membre n'est pas ouverte : une demande de vidéo ne peut être envoyée que lorsqu'elle l'est.",
    de: 'Die App dieses Mitglieds ist nicht geöffnet: Eine Videoanfrage kann erst gesendet werden, wenn sie geöffnet ist.',
  },
  video_member_listen_only: {
    en: 'This member may only listen in this channel: they may not share video there.',
    fr: 'Ce membre peut seulement écouter dans ce canal : il ne peut pas y partager de vidéo.',
    de: 'Dieses Mitglied darf in diesem Kanal nur zuhören: Es darf dort kein Video teilen.',
  },
  video_still_live: {
    en: 'This video is still live: stop it before its recording is uploaded.',
    fr: 'Cette vidéo est encore en direct : arrêtez-la avant d’envoyer son enregistrement.',
    de: 'Dieses Video läuft noch live: Beenden Sie es, bevor seine Aufnahme hochgeladen wird.',
  },
  video_recorded_by_server: {
    en: 'This video went through the media server, which records it: its recording is the server’s, and no other is taken.',
    fr: 'Cette vidéo est passée par le serveur média, qui l’enregistre : son enregistrement est celui du serveur, aucun autre n’est accepté.',
    de: 'Dieses Video lief über den Medienserver, der es aufzeichnet: Seine Aufnahme ist die des Servers, keine andere wird angenommen.',
  },
  video_upload_too_late: {
    en: 'This video ended more than {{minutes}} minutes ago: its recording is no longer taken.',
    fr: 'Cette vidéo s’est terminée il y a plus de {{minutes}} minutes : son enregistrement n’est plus accepté.',
    de: 'Dieses Video endete vor mehr als {{minutes}} Minuten: Seine Aufnahme wird nicht mehr angenommen.',
  },
  video_too_large_for_stream: {
    en: 'This recording is larger than a video of {{seconds}} s can be ({{max}} MB at most): it is not kept.',
    fr: 'Cet enregistrement est plus gros que ne peut l’être une vidéo de {{seconds}} s ({{max}} Mo au plus) : il n’est pas gardé.',
    de: 'Diese Aufnahme ist größer, als ein Video von {{seconds}} s sein kann (höchstens {{max}} MB): Sie wird nicht behalten.',
  },
  video_fields_first: {
    en: 'Send the fields streamId and durationMs before the file video.',
    fr: 'Envoyez les champs streamId et durationMs avant le fichier video.',
    de: 'Senden Sie die Felder streamId und durationMs vor der Datei video.',
  },
  video_request_pending: {
    en: 'A video request to this member is already waiting for an answer: wait for it to be answered or to expire.',
    fr: 'Une demande de vidéo à ce membre attend déjà sa réponse : attendez qu’il y réponde ou qu’elle expire.',
    de: 'Eine Videoanfrage an dieses Mitglied wartet schon auf Antwort: Warten Sie, bis sie beantwortet wird oder abläuft.',
  },
  video_without_consent_rank: {
    en: 'You may not film without consent a user whose role is equal to or above yours.',
    fr: 'Vous ne pouvez pas filmer sans son accord un utilisateur dont le rôle est égal ou supérieur au vôtre.',
    de: 'Sie dürfen einen Benutzer, dessen Rolle gleich oder höher als Ihre ist, nicht ohne seine Zustimmung filmen.',
  },
  video_not_audited: {
    en: 'The audit log could not be written: nothing was done. Try again later.',
    fr: 'Le journal d’audit n’a pas pu être écrit : rien n’a été fait. Réessayez plus tard.',
    de: 'Das Prüfprotokoll konnte nicht geschrieben werden: Nichts wurde getan. Versuchen Sie es später erneut.',
  },
  too_many_video_requests: {
    en: 'Too many video requests: wait {{seconds}} seconds and try again.',
    fr: 'Trop de demandes de vidéo : attendez {{seconds}} secondes puis réessayez.',
    de: 'Zu viele Videoanfragen: Warten Sie {{seconds}} Sekunden und versuchen Sie es erneut.',
  },
  too_many_video_starts: {
    en: 'Too many live videos started: wait {{seconds}} seconds and try again.',
    fr: 'Trop de vidéos en direct démarrées : attendez {{seconds}} secondes puis réessayez.',
    de: 'Zu viele gestartete Live-Videos: Warten Sie {{seconds}} Sekunden und versuchen Sie es erneut.',
  },
} satisfies Partial<Record<ServerMessageCode, Texts>>;
