/** The server's sentences about members' devices (issue 60: device status and remote disable). */
import type { ServerLanguage, ServerMessageCode } from '@talkgroup/protocol';

type Texts = Record<ServerLanguage, string>;

export const DEVICE_TEXTS = {
  device_disabled: {
    en: 'Device disabled: its session ended and its data is wiped.',
    fr: 'Terminal désactivé : sa session est terminée et ses données sont effacées.',
    de: 'Gerät deaktiviert: Seine Sitzung ist beendet und seine Daten werden gelöscht.',
  },
} satisfies Partial<Record<ServerMessageCode, Texts>>;
