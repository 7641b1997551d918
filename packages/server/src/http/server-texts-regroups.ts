/** The server's sentences about regroups and the remote change of a member's channel (issue 59). */
import type { ServerLanguage, ServerMessageCode } from '@talkgroup/protocol';

type Texts = Record<ServerLanguage, string>;

export const REGROUP_TEXTS = {
  regroup_created: {
    en: 'Regroup "{{name}}" created: its members are switched to it.',
    fr: 'Regroupement « {{name}} » créé : ses membres y sont basculés.',
    de: 'Umgruppierung „{{name}}“ erstellt: Ihre Mitglieder wurden dorthin umgeschaltet.',
  },
  regroup_ended: {
    en: 'Regroup ended: its members are back on their channels.',
    fr: 'Regroupement terminé : ses membres sont revenus sur leurs canaux.',
    de: 'Umgruppierung beendet: Ihre Mitglieder sind zurück in ihren Kanälen.',
  },
  regroup_not_found: {
    en: 'Regroup not found.',
    fr: 'Regroupement introuvable.',
    de: 'Umgruppierung nicht gefunden.',
  },
  regroup_already_ended: {
    en: 'This regroup is already over.',
    fr: 'Ce regroupement est déjà terminé.',
    de: 'Diese Umgruppierung ist bereits beendet.',
  },
  regroup_user_not_allowed: {
    en: '{{name}} is not a member of the channels you dispatch: you may not regroup them.',
    fr: '{{name}} n’est membre d’aucun des canaux que vous dispatchez : vous ne pouvez pas le regrouper.',
    de: '{{name}} ist in keinem der Kanäle, die Sie disponieren: Sie dürfen diese Person nicht umgruppieren.',
  },
  channel_selected_for: {
    en: '{{name}} is switched to {{channel}}.',
    fr: '{{name}} est basculé sur {{channel}}.',
    de: '{{name}} wurde auf {{channel}} umgeschaltet.',
  },
  select_not_member: {
    en: '{{name}} is not a member of this channel.',
    fr: '{{name}} n’est pas membre de ce canal.',
    de: '{{name}} ist kein Mitglied dieses Kanals.',
  },
  select_rank_not_allowed: {
    en: 'You may not switch the channel of {{name}}: only someone of a higher role may.',
    fr: 'Vous ne pouvez pas changer le canal de {{name}} : seul un rôle supérieur au sien le peut.',
    de: 'Sie dürfen den Kanal von {{name}} nicht umschalten: Das darf nur eine höhere Rolle.',
  },
  regroup_limit: {
    en: 'You have {{max}} regroups open, the most one may: end one before you make another.',
    fr: 'Vous avez {{max}} regroupements en cours, le maximum : terminez-en un avant d’en créer un autre.',
    de: 'Sie haben {{max}} laufende Umgruppierungen, das Maximum: Beenden Sie eine, bevor Sie eine neue erstellen.',
  },
} satisfies Partial<Record<ServerMessageCode, Texts>>;
