/** The server's sentences about the dispatch queue, members' statuses (issue 49) and reports (issues 50, 57). */
import type { ServerLanguage, ServerMessageCode } from '@talkgroup/protocol';

type Texts = Record<ServerLanguage, string>;

export const DISPATCH_TEXTS = {
  dispatch_requested: {
    en: 'Dispatch called: your request is in the queue.',
    fr: 'Dispatch appelé : votre demande est dans la file.',
    de: 'Leitstelle gerufen: Ihre Anfrage ist in der Warteschlange.',
  },
  dispatch_taken: { en: 'Request taken.', fr: 'Demande prise.', de: 'Anfrage übernommen.' },
  dispatch_returned: {
    en: 'Request sent back to the queue.',
    fr: 'Demande renvoyée dans la file.',
    de: 'Anfrage in die Warteschlange zurückgestellt.',
  },
  dispatch_transferred: {
    en: 'Transfer asked: waiting for {{name}}.',
    fr: 'Transfert demandé : en attente de {{name}}.',
    de: 'Weiterleitung angefragt: Warten auf {{name}}.',
  },
  dispatch_transfer_answered: { en: 'Transfer answered.', fr: 'Transfert répondu.', de: 'Weiterleitung beantwortet.' },
  dispatch_closed: { en: 'Request closed.', fr: 'Demande terminée.', de: 'Anfrage abgeschlossen.' },
  dispatch_cancelled: { en: 'Request cancelled.', fr: 'Demande annulée.', de: 'Anfrage zurückgezogen.' },
  dispatch_request_open: {
    en: 'You already asked for dispatch on this channel: wait for an answer or cancel that request first.',
    fr: 'Vous avez déjà appelé le dispatch sur ce canal : attendez la réponse ou annulez d’abord cette demande.',
    de: 'Sie haben die Leitstelle in diesem Kanal bereits gerufen: Warten Sie auf die Antwort oder ziehen Sie diese Anfrage zuerst zurück.',
  },
  dispatch_request_not_found: {
    en: 'Dispatch request not found.',
    fr: 'Demande de dispatch introuvable.',
    de: 'Anfrage an die Leitstelle nicht gefunden.',
  },
  dispatch_already_taken: {
    en: 'Already taken by {{name}}.',
    fr: 'Déjà prise par {{name}}.',
    de: 'Bereits übernommen von {{name}}.',
  },
  dispatch_request_ended: {
    en: 'This request is already over.',
    fr: 'Cette demande est déjà terminée.',
    de: 'Diese Anfrage ist bereits beendet.',
  },
  dispatch_not_taken: {
    en: 'This request is not taken by a dispatcher now.',
    fr: 'Cette demande n’est pas prise par un dispatcheur en ce moment.',
    de: 'Diese Anfrage ist gerade von keinem Disponenten übernommen.',
  },
  dispatch_not_holder: {
    en: 'Only the dispatcher who holds this request, or an administrator, may do this.',
    fr: 'Seul le dispatcheur qui tient cette demande, ou un administrateur, peut faire cela.',
    de: 'Nur der Disponent, der diese Anfrage hält, oder ein Administrator darf das.',
  },
  dispatch_transfer_target: {
    en: 'This request can be transferred only to another dispatcher of its channel.',
    fr: 'Cette demande ne peut être transférée qu’à un autre dispatcheur de son canal.',
    de: 'Diese Anfrage kann nur an einen anderen Disponenten ihres Kanals weitergeleitet werden.',
  },
  dispatch_not_transfer_target: {
    en: 'This request is not being transferred to you.',
    fr: 'Cette demande ne vous est pas transférée.',
    de: 'Diese Anfrage wird nicht an Sie weitergeleitet.',
  },
  too_many_dispatch_requests: {
    en: 'Too many calls to dispatch: wait {{seconds}} seconds before calling again. An SOS always goes through.',
    fr: 'Trop d’appels au dispatch : attendez {{seconds}} secondes avant de rappeler. Un SOS passe toujours.',
    de: 'Zu viele Rufe an die Leitstelle: Warten Sie {{seconds}} Sekunden, bevor Sie erneut rufen. Ein SOS geht immer durch.',
  },
  too_many_dispatch_cancels: {
    en: 'Too many dispatch requests cancelled: wait {{seconds}} seconds before cancelling again.',
    fr: 'Trop de demandes de dispatch annulées : attendez {{seconds}} secondes avant d’en annuler une autre.',
    de: 'Zu viele Anfragen an die Leitstelle zurückgezogen: Warten Sie {{seconds}} Sekunden, bevor Sie erneut eine zurückziehen.',
  },
  statuses_saved: { en: 'Statuses saved.', fr: 'Statuts enregistrés.', de: 'Status gespeichert.' },
  status_set: { en: 'Status set.', fr: 'Statut mis à jour.', de: 'Status gesetzt.' },
  status_not_found: {
    en: 'This status is not in the list: reload the statuses.',
    fr: 'Ce statut n’est pas dans la liste : rechargez les statuts.',
    de: 'Dieser Status ist nicht in der Liste: Laden Sie die Status neu.',
  },
  status_not_allowed: {
    en: 'You may set the status only of members of the channels you dispatch.',
    fr: 'Vous ne pouvez changer que le statut des membres des canaux que vous dispatchez.',
    de: 'Sie dürfen nur den Status von Mitgliedern der Kanäle setzen, die Sie disponieren.',
  },
  too_many_status_changes: {
    en: 'Too many status changes: wait {{seconds}} seconds before changing it again.',
    fr: 'Trop de changements de statut : attendez {{seconds}} secondes avant de le changer à nouveau.',
    de: 'Zu viele Statuswechsel: Warten Sie {{seconds}} Sekunden, bevor Sie ihn erneut ändern.',
  },
  report_channel_not_allowed: {
    en: 'You may read the reports only of the channels you dispatch: not of channel {{ids}}.',
    fr: 'Vous ne pouvez consulter que les rapports des canaux que vous dispatchez : pas ceux du canal {{ids}}.',
    de: 'Sie dürfen nur die Berichte der Kanäle lesen, die Sie disponieren: nicht die von Kanal {{ids}}.',
  },
  report_running: {
    en: 'Your previous report is still being computed: wait {{seconds}} seconds and try again.',
    fr: 'Votre rapport précédent est encore en cours de calcul : attendez {{seconds}} secondes puis réessayez.',
    de: 'Ihr vorheriger Bericht wird noch berechnet: Warten Sie {{seconds}} Sekunden und versuchen Sie es erneut.',
  },
  reports_busy: {
    en: 'The server is computing other reports: wait {{seconds}} seconds and try again.',
    fr: 'Le serveur calcule déjà d’autres rapports : attendez {{seconds}} secondes puis réessayez.',
    de: 'Der Server berechnet gerade andere Berichte: Warten Sie {{seconds}} Sekunden und versuchen Sie es erneut.',
  },
  report_reader_failed: {
    en: 'The report could not be computed: its reader stopped. Try again.',
    fr: 'Le rapport n’a pas pu être calculé : son lecteur s’est arrêté. Réessayez.',
    de: 'Der Bericht konnte nicht berechnet werden: sein Leser wurde beendet. Versuchen Sie es erneut.',
  },
} satisfies Partial<Record<ServerMessageCode, Texts>>;
