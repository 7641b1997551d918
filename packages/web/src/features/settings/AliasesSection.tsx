/**
 * /settings, "Fonctions" (issue 59): the functional aliases people take on /account and /talk ("Chef de quart"),
 * each with how many may hold it at once, the roles that may take it (issue 69: a checkbox per role, dispatchers
 * and administrators unless told), and who holds it now. Each row is renamed or changed and saved on its own
 * (updateAlias), or deleted (deleteAlias); the form below adds one (createAlias). All audited by the server.
 */
import AddIcon from '@mui/icons-material/Add';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormLabel from '@mui/material/FormLabel';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  ALIAS_HOLDERS_MAX,
  ALIAS_NAME_MAX,
  ALIAS_TAKE_ROLES_DEFAULT,
  type Alias,
  CreateAlias,
  DeleteAlias,
  GetAliases,
  ROLES,
  type Role,
  UpdateAlias,
} from '@talkgroup/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAliases } from '../../api/aliases.ts';
import { errorMessage } from '../../api/client.ts';
import { callKey, useApiMutation } from '../../api/queries.ts';
import { useNotify } from '../../components/Notifier.tsx';
import { type Bounds, useFieldWords } from './bounds.ts';
import { ListEditor, ListEditorAdder, ListEditorRow } from './ListEditor.tsx';

/** How many may hold a function at once, shown beside its field (issue 70). */
const HOLDERS_BOUNDS: Bounds = { min: 1, max: ALIAS_HOLDERS_MAX };
/** How many may hold it, from a field's text (the server refuses what is out of range, with its sentence). */
const holdersOf = (text: string) => Number.parseInt(text, 10) || 0;

/** The roles an alias names that this version knows, in the table's order. */
const knownRoles = (roles: readonly string[]): Role[] => ROLES.filter((role) => roles.includes(role));
const sameRoles = (a: readonly string[], b: readonly string[]) => knownRoles(a).join() === knownRoles(b).join();

/** The roles that may take an alias by themselves: a group named `label`, one labelled checkbox per role. */
function TakeRolesField(props: { label: string; value: Role[]; onChange: (roles: Role[]) => void }) {
  const { t } = useTranslation('settings');
  const { value, onChange } = props;
  return (
    <FormControl component="fieldset" sx={{ flex: '1 1 260px' }}>
      <FormLabel component="legend" sx={{ typography: 'body2' }}>
        {props.label}
      </FormLabel>
      <FormGroup row>
        {ROLES.map((role) => (
          <FormControlLabel
            key={role}
            label={t(`aliases.role.${role}`)}
            control={
              <Checkbox
                size="small"
                checked={value.includes(role)}
                onChange={(event) =>
                  onChange(knownRoles(event.target.checked ? [...value, role] : value.filter((r) => r !== role)))
                }
              />
            }
          />
        ))}
      </FormGroup>
    </FormControl>
  );
}

/** A function as its fields hold it, a row's or the new one's. */
interface AliasDraft {
  name: string;
  maxHolders: string;
  takeRoles: Role[];
}

const NEW_ALIAS: AliasDraft = { name: '', maxHolders: '1', takeRoles: ALIAS_TAKE_ROLES_DEFAULT };
const draftOf = (alias: Alias): AliasDraft => ({
  name: alias.name,
  maxHolders: String(alias.maxHolders),
  takeRoles: knownRoles(alias.takeRoles),
});
/** What createAlias and updateAlias receive for a draft. */
const fieldsOf = (draft: AliasDraft) => ({
  name: draft.name.trim(),
  maxHolders: holdersOf(draft.maxHolders),
  takeRoles: draft.takeRoles,
});

/** The labels of a row's fields, and of the new function's. */
const FIELD_LABELS = {
  row: {
    name: 'aliases.name',
    maxHolders: 'aliases.maxHolders',
    takeRoles: 'aliases.takeRoles',
  },
  new: {
    name: 'aliases.newName',
    maxHolders: 'aliases.newMaxHolders',
    takeRoles: 'aliases.newTakeRoles',
  },
} as const;

/** A function's name, how many may hold it (with the last refusal's words about it) and who may take it. */
function AliasFields(props: {
  labels: keyof typeof FIELD_LABELS;
  draft: AliasDraft;
  onChange: (draft: AliasDraft) => void;
  error: unknown;
}) {
  const { t } = useTranslation('settings');
  const wordsOf = useFieldWords();
  const { draft, onChange } = props;
  const labels = FIELD_LABELS[props.labels];
  return (
    <>
      <TextField
        size="small"
        label={t(labels.name)}
        value={draft.name}
        onChange={(event) => onChange({ ...draft, name: event.target.value })}
        slotProps={{ htmlInput: { maxLength: ALIAS_NAME_MAX } }}
        sx={{ flex: '1 1 200px', minWidth: 0 }}
      />
      <TextField
        size="small"
        type="number"
        label={t(labels.maxHolders)}
        value={draft.maxHolders}
        onChange={(event) => onChange({ ...draft, maxHolders: event.target.value })}
        slotProps={{ htmlInput: { min: 1, max: ALIAS_HOLDERS_MAX } }}
        {...wordsOf('maxHolders', HOLDERS_BOUNDS, props.error)}
        sx={{ width: 150 }}
      />
      <TakeRolesField
        label={t(labels.takeRoles)}
        value={draft.takeRoles}
        onChange={(takeRoles) => onChange({ ...draft, takeRoles })}
      />
    </>
  );
}

function AliasRow({ alias, onFailure }: { alias: Alias; onFailure: (message: string | undefined) => void }) {
  const { t } = useTranslation(['settings', 'common']);
  const client = useQueryClient();
  const notify = useNotify();
  const [draft, setDraft] = useState(() => draftOf(alias));
  const done = (message: string) => {
    void client.invalidateQueries({ queryKey: callKey(GetAliases) });
    onFailure(undefined);
    notify({ severity: 'success', message });
  };
  const failed = (error: unknown) => onFailure(errorMessage(error, t('settings:aliases.failed')));
  const update = useApiMutation(UpdateAlias, {
    onSuccess: (answer) => done(t('common:server.alias_updated', { name: answer.res.name })),
    onError: failed,
  });
  const remove = useApiMutation(DeleteAlias, {
    onSuccess: () => done(t('common:server.alias_deleted')),
    onError: failed,
  });
  const changed =
    draft.name.trim() !== alias.name ||
    holdersOf(draft.maxHolders) !== alias.maxHolders ||
    !sameRoles(draft.takeRoles, alias.takeRoles);
  const holders = alias.holders.map((holder) => holder.name).join(', ');
  return (
    <ListEditorRow
      label={t('settings:aliases.row', { name: alias.name })}
      actions={
        <Button
          size="small"
          disabled={!changed || update.isPending}
          onClick={() => update.mutate({ aliasId: alias.id, ...fieldsOf(draft) })}
          aria-label={t('settings:aliases.saveOne', { name: alias.name })}
        >
          {t('settings:aliases.save')}
        </Button>
      }
      remove={{
        label: t('settings:aliases.remove', { name: alias.name }),
        disabled: remove.isPending,
        onClick: () => remove.mutate({ aliasId: alias.id }),
      }}
    >
      <AliasFields labels="row" draft={draft} onChange={setDraft} error={update.error} />
      <Typography variant="body2" sx={{ flex: '1 1 160px', color: 'text.secondary' }}>
        {holders ? t('settings:aliases.heldBy', { names: holders }) : t('settings:aliases.free')}
      </Typography>
    </ListEditorRow>
  );
}

export function AliasesSection() {
  const { t } = useTranslation(['settings', 'common']);
  const client = useQueryClient();
  const notify = useNotify();
  const aliases = useAliases();
  const [draft, setDraft] = useState(NEW_ALIAS);
  const [failure, setFailure] = useState<string>();
  const create = useApiMutation(CreateAlias, {
    onSuccess: (answer) => {
      void client.invalidateQueries({ queryKey: callKey(GetAliases) });
      setDraft(NEW_ALIAS);
      setFailure(undefined);
      notify({ severity: 'success', message: t('common:server.alias_created', { name: answer.res.name }) });
    },
    onError: (error) => setFailure(errorMessage(error, t('settings:aliases.failed'))),
  });
  return (
    <ListEditor
      id="settings-aliases"
      title={t('settings:aliases.title')}
      help={t('settings:aliases.help')}
      loadError={aliases.error}
      rows={aliases.data?.res}
      rowKey={(alias) => `${alias.id}-${alias.name}-${alias.maxHolders}-${alias.takeRoles.join()}`}
      renderRow={(alias) => <AliasRow alias={alias} onFailure={setFailure} />}
      empty={t('settings:aliases.empty')}
      failure={failure}
      adder={
        <ListEditorAdder
          onAdd={() => {
            setFailure(undefined);
            create.mutate(fieldsOf(draft));
          }}
        >
          <AliasFields labels="new" draft={draft} onChange={setDraft} error={create.error} />
          <Button type="submit" startIcon={<AddIcon />} disabled={create.isPending || draft.name.trim() === ''}>
            {t('settings:aliases.add')}
          </Button>
        </ListEditorAdder>
      }
    />
  );
}
