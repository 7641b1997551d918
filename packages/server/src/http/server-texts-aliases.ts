/** The server's sentences about functional aliases (issue 59), by code and language; server-texts.ts spreads them. */
import type { ServerLanguage } from '@talkgroup/protocol';

type Texts = Record<ServerLanguage, string>;

export const ALIAS_TEXTS = {
  alias_created: {
    en: 'Function "{{name}}" created.',
    fr: 'Fonction « {{name}} » créée.',
    de: 'Funktion „{{name}}“ erstellt.',
  },
  alias_updated: {
    en: 'Function "{{name}}" updated.',
    fr: 'Fonction « {{name}} » modifiée.',
    de: 'Funktion „{{name}}“ geändert.',
  },
  alias_deleted: { en: 'Function deleted.', fr: 'Fonction supprimée.', de: 'Funktion gelöscht.' },
  alias_taken: {
    en: 'You hold "{{name}}" now.',
    fr: 'Vous tenez maintenant « {{name}} ».',
    de: 'Sie haben jetzt „{{name}}“ übernommen.',
  },
  alias_released: {
    en: '"{{name}}" given back.',
    fr: '« {{name}} » rendue.',
    de: '„{{name}}“ abgegeben.',
  },
  alias_assigned: {
    en: '"{{name}}" assigned.',
    fr: '« {{name}} » attribuée.',
    de: '„{{name}}“ zugewiesen.',
  },
  alias_not_found: { en: 'Function not found.', fr: 'Fonction introuvable.', de: 'Funktion nicht gefunden.' },
  alias_name_taken: {
    en: 'A function named "{{name}}" already exists: choose another name.',
    fr: 'Une fonction nommée « {{name}} » existe déjà : choisissez un autre nom.',
    de: 'Eine Funktion namens „{{name}}“ gibt es bereits: Wählen Sie einen anderen Namen.',
  },
  alias_full: {
    en: '"{{name}}" is already held by {{max}} people, as many as it allows: one of them must give it back first.',
    fr: '« {{name}} » est déjà tenue par {{max}} personne(s), le maximum : l’une d’elles doit d’abord la rendre.',
    de: '„{{name}}“ haben bereits {{max}} Personen, so viele wie erlaubt: Eine muss sie zuerst abgeben.',
  },
  alias_holders_over: {
    en: '{{count}} people hold this function now: the maximum cannot be lower.',
    fr: '{{count}} personne(s) tiennent cette fonction : le maximum ne peut pas être inférieur.',
    de: '{{count}} Personen haben diese Funktion: Das Maximum kann nicht niedriger sein.',
  },
  alias_assign_not_allowed: {
    en: 'You may assign a function only to members of the channels you dispatch.',
    fr: 'Vous ne pouvez attribuer une fonction qu’aux membres des canaux que vous dirigez.',
    de: 'Sie dürfen eine Funktion nur Mitgliedern der Kanäle zuweisen, die Sie disponieren.',
  },
  alias_not_held: {
    en: 'Nobody holds "{{name}}" now: the call cannot be made.',
    fr: 'Personne ne tient « {{name}} » en ce moment : l’appel est impossible.',
    de: 'Niemand hat „{{name}}“ gerade übernommen: Der Anruf ist nicht möglich.',
  },
  alias_role_not_allowed: {
    en: 'Your role may not take "{{name}}": an administrator chooses who may.',
    fr: 'Votre rôle ne permet pas de prendre « {{name}} » : un administrateur choisit qui le peut.',
    de: 'Ihre Rolle darf „{{name}}“ nicht übernehmen: Ein Administrator legt fest, wer das darf.',
  },
} satisfies Record<string, Texts>;
