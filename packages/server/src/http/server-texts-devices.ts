/** The server's sentences about members' devices (issue 60: device status and remote disable). */
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
    en: "This member's app is not open: ambient listening needs its /talk page open.",
    fr: "L'application de ce membre n'est pas ouverte : l'écoute d'ambiance a besoin de sa page /talk ouverte.",
    de: 'Die App dieses Mitglieds ist nicht geöffnet: Umgebungsmithören braucht seine geöffnete /talk-Seite.',
  },
  ambient_not_found: {
    en: 'This ambient listening is over or unknown.',
    fr: "Cette écoute d'ambiance est terminée ou inconnue.",
    de: 'Dieses Umgebungsmithören ist beendet oder unbekannt.',
  },
} satisfies Partial<Record<ServerMessageCode, Texts>>;
