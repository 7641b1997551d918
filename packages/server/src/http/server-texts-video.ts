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
    en: "This member's app is not open: a video request needs its /talk page open.",
    fr: "L'application de ce membre n'est pas ouverte : une demande de vidéo a besoin de sa page /talk ouverte.",
    de: 'Die App dieses Mitglieds ist nicht geöffnet: Eine Videoanfrage braucht seine geöffnete /talk-Seite.',
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
} satisfies Partial<Record<ServerMessageCode, Texts>>;
