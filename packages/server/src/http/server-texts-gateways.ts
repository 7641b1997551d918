/** The server's sentences about SIP gateways (issue 51). */
import type { ServerLanguage, ServerMessageCode } from '@talkgroup/protocol';

type Texts = Record<ServerLanguage, string>;

export const GATEWAY_TEXTS = {
  gateway_created: {
    en: 'Gateway added: copy its secret now, it will not be shown again.',
    fr: 'Passerelle ajoutée : copiez son secret maintenant, il ne sera plus affiché.',
    de: 'Gateway hinzugefügt: Kopieren Sie sein Geheimnis jetzt, es wird nicht wieder angezeigt.',
  },
  gateway_updated: { en: 'Gateway updated.', fr: 'Passerelle modifiée.', de: 'Gateway geändert.' },
  gateway_secret_reset: {
    en: 'New secret made: the old one no longer works. Copy it now, it will not be shown again.',
    fr: 'Nouveau secret créé : l’ancien ne fonctionne plus. Copiez-le maintenant, il ne sera plus affiché.',
    de: 'Neues Geheimnis erstellt: Das alte gilt nicht mehr. Kopieren Sie es jetzt, es wird nicht wieder angezeigt.',
  },
  gateway_deleted: { en: 'Gateway deleted.', fr: 'Passerelle supprimée.', de: 'Gateway gelöscht.' },
  gateway_hung_up: { en: 'Call hung up.', fr: 'Appel raccroché.', de: 'Anruf beendet.' },
  gateway_login_taken: {
    en: 'Another gateway already uses the login {{login}}: choose another one.',
    fr: 'Une autre passerelle utilise déjà l’identifiant {{login}} : choisissez-en un autre.',
    de: 'Ein anderes Gateway verwendet bereits den Login {{login}}: Wählen Sie einen anderen.',
  },
  gateway_not_found: { en: 'Gateway not found.', fr: 'Passerelle introuvable.', de: 'Gateway nicht gefunden.' },
  gateway_call_not_found: {
    en: 'This gateway call has already ended.',
    fr: 'Cet appel de passerelle est déjà terminé.',
    de: 'Dieser Gateway-Anruf ist bereits beendet.',
  },
} satisfies Partial<Record<ServerMessageCode, Texts>>;
