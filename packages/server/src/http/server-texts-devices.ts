/**
 * The server's sentences about members' devices (issue 60: device status and remote disable), and issue 69's about
 * watching people: down the ranks only, and an SOS raised for a member.
 */
import type { ServerLanguage, ServerMessageCode } from '@talkgroup/protocol';

type Texts = Record<ServerLanguage, string>;

export const DEVICE_TEXTS = {
  device_disabled: {
    en: 'Device disabled: its session ended and its data is wiped.',
    fr: 'Terminal désactivé : sa session est terminée et ses données sont effacées.',
    de: 'Gerät deaktiviert: Seine Sitzung ist beendet und seine Daten werden gelöscht.',
  },
  ambient_off: {
    en: 'Ambient listening is off in this organisation: an administrator can allow it in the settings (Worker safety).',
    fr: "L'écoute d'ambiance est désactivée dans cette organisation : un administrateur peut l'autoriser dans les paramètres (Sécurité des travailleurs).",
    de: 'Umgebungsmithören ist in dieser Organisation ausgeschaltet: Ein Administrator kann es in den Einstellungen (Sicherheit der Beschäftigten) erlauben.',
  },
  ambient_app_closed: {
    en: "This member's app is not open: ambient listening can start only while it is.",
    fr: "L'application de ce membre n'est pas ouverte : l'écoute d'ambiance ne peut commencer que lorsqu'elle l'est.",
    de: 'Die App dieses Mitglieds ist nicht geöffnet: Umgebungsmithören kann erst beginnen, wenn sie geöffnet ist.',
  },
  ambient_not_found: {
    en: 'This ambient listening is over or unknown.',
    fr: "Cette écoute d'ambiance est terminée ou inconnue.",
    de: 'Dieses Umgebungsmithören ist beendet oder unbekannt.',
  },
  // Issue 69: listening, device status (and video without consent, selectChannelFor) go down the ranks only.
  role_not_below_yours: {
    en: 'Not allowed on this person: their role is equal to or above yours (member, then dispatcher, then administrator); only an administrator acts on another administrator, and nobody on oneself.',
    fr: 'Non autorisé sur cette personne : son rôle est égal ou supérieur au vôtre (membre, puis répartiteur, puis administrateur) ; seul un administrateur agit sur un autre administrateur, et personne sur soi-même.',
    de: 'Bei dieser Person nicht erlaubt: Deren Rolle ist gleich oder höher als Ihre (Mitglied, dann Disponent, dann Administrator); nur ein Administrator handelt bei einem anderen Administrator, und niemand bei sich selbst.',
  },
  emergency_raised_recently: {
    en: 'An emergency alert was raised for this member less than 30 seconds ago: the administrators have it.',
    fr: "Une alerte d'urgence a été déclenchée pour ce membre il y a moins de 30 secondes : les administrateurs l'ont reçue.",
    de: 'Für dieses Mitglied wurde vor weniger als 30 Sekunden ein Notruf ausgelöst: Die Administratoren haben ihn.',
  },
} satisfies Partial<Record<ServerMessageCode, Texts>>;
