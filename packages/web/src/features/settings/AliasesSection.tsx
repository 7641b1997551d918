/**
 * /settings, "Fonctions" (issue 59): the functional aliases people take on /account and /talk ("Chef de quart"),
 * each with how many may hold it at once, the roles that may take it (issue 69: a checkbox per role, dispatchers
 * and administrators unless told), and who holds it now. Each row is renamed or changed and saved on its own
 * (updateAlias), or deleted (deleteAlias); the form below adds one (createAlias). All audited by the server.
 */
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormLabel from '@mui/material/FormLabel';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
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

/** How many may hold it, from a field's text (the server refuses what is out of range, with its sentence). */
/** How many may hold a function at once, shown beside its field (issue 70). */
const HOLDERS_BOUNDS: Bounds = { min: 1, max: ALIAS_HOLDERS_MAX };
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

function AliasRow({ alias, onFailure }: { alias: Alias; onFailure: (message: string | undefined) => void }) {
  const { t } = useTranslation(['settings', 'common']);
  const client = useQueryClient();
  const notify = useNotify();
  const [name, setName] = useState(alias.name);
  const [max, setMax] = useState(String(alias.maxHolders));
  const [takeRoles, setTakeRoles] = useState<Role[]>(knownRoles(alias.takeRoles));
  const wordsOf = useFieldWords();
  const refresh = () => void client.invalidateQueries({ queryKey: callKey(GetAliases) });
  const update = useApiMutation(UpdateAlias, {
    onSuccess: (answer) => {
      refresh();
      onFailure(undefined);
      notify({ severity: 'success', message: t('common:server.alias_updated', { name: answer.res.name }) });
    },
    onError: (error) => onFailure(errorMessage(error, t('settings:aliases.failed'))),
  });
  const remove = useApiMutation(DeleteAlias, {
    onSuccess: () => {
      refresh();
      onFailure(undefined);
      notify({ severity: 'success', message: t('common:server.alias_deleted') });
    },
    onError: (error) => onFailure(errorMessage(error, t('settings:aliases.failed'))),
  });
  const changed =
    name.trim() !== alias.name || holdersOf(max) !== alias.maxHolders || !sameRoles(takeRoles, alias.takeRoles);
  const holders = alias.holders.map((holder) => holder.name).join(', ');
  return (
    <Box
      role="group"
      aria-label={t('settings:aliases.row', { name: alias.name })}
      sx={{
        display: 'flex',
        flexWrap: 'wrap',
        alignItems: 'center',
        gap: 1,
        p: 1.5,
        borderRadius: 1,
        border: '1px solid',
        borderColor: 'divider',
      }}
    >
      <TextField
        size="small"
        label={t('settings:aliases.name')}
        value={name}
        onChange={(event) => setName(event.target.value)}
        slotProps={{ htmlInput: { maxLength: ALIAS_NAME_MAX } }}
        sx={{ flex: '1 1 200px', minWidth: 0 }}
      />
      <TextField
        size="small"
        type="number"
        label={t('settings:aliases.maxHolders')}
        value={max}
        onChange={(event) => setMax(event.target.value)}
        slotProps={{ htmlInput: { min: 1, max: ALIAS_HOLDERS_MAX } }}
        {...wordsOf('maxHolders', HOLDERS_BOUNDS, update.error)}
        sx={{ width: 150 }}
      />
      <TakeRolesField label={t('settings:aliases.takeRoles')} value={takeRoles} onChange={setTakeRoles} />
      <Typography variant="body2" sx={{ flex: '1 1 160px', color: 'text.secondary' }}>
        {holders ? t('settings:aliases.heldBy', { names: holders }) : t('settings:aliases.free')}
      </Typography>
      <Box sx={{ display: 'flex', ml: 'auto', gap: 1 }}>
        <Button
          size="small"
          disabled={!changed || update.isPending}
          onClick={() => update.mutate({ aliasId: alias.id, name: name.trim(), maxHolders: holdersOf(max), takeRoles })}
          aria-label={t('settings:aliases.saveOne', { name: alias.name })}
        >
          {t('settings:aliases.save')}
        </Button>
        <IconButton
          aria-label={t('settings:aliases.remove', { name: alias.name })}
          disabled={remove.isPending}
          onClick={() => remove.mutate({ aliasId: alias.id })}
        >
          <DeleteIcon />
        </IconButton>
      </Box>
    </Box>
  );
}

export function AliasesSection() {
  const { t } = useTranslation(['settings', 'common']);
  const client = useQueryClient();
  const notify = useNotify();
  const aliases = useAliases();
  const [name, setName] = useState('');
  const [max, setMax] = useState('1');
  const [takeRoles, setTakeRoles] = useState<Role[]>(ALIAS_TAKE_ROLES_DEFAULT);
  const [failure, setFailure] = useState<string>();
  const wordsOf = useFieldWords();
  const create = useApiMutation(CreateAlias, {
    onSuccess: (answer) => {
      void client.invalidateQueries({ queryKey: callKey(GetAliases) });
      setName('');
      setMax('1');
      setTakeRoles(ALIAS_TAKE_ROLES_DEFAULT);
      setFailure(undefined);
      notify({ severity: 'success', message: t('common:server.alias_created', { name: answer.res.name }) });
    },
    onError: (error) => setFailure(errorMessage(error, t('settings:aliases.failed'))),
  });
  const list = aliases.data?.res;
  return (
    <Paper variant="outlined" component="section" aria-labelledby="settings-aliases" sx={{ p: 3, mt: 3 }}>
      <Typography id="settings-aliases" variant="h6" component="h2" sx={{ mb: 1 }}>
        {t('settings:aliases.title')}
      </Typography>
      <Typography variant="body2" sx={{ mb: 2 }}>
        {t('settings:aliases.help')}
      </Typography>
      {aliases.error ? (
        <Alert severity="error" sx={{ mb: 2 }}>
          {errorMessage(aliases.error, t('common:errors.somethingWrong'))}
        </Alert>
      ) : null}
      {list?.length === 0 ? (
        <Typography variant="body2" sx={{ mb: 2, color: 'text.secondary' }}>
          {t('settings:aliases.empty')}
        </Typography>
      ) : null}
      <Box sx={{ display: 'grid', gap: 1.5 }}>
        {(list ?? []).map((alias) => (
          <AliasRow
            key={`${alias.id}-${alias.name}-${alias.maxHolders}-${alias.takeRoles.join()}`}
            alias={alias}
            onFailure={setFailure}
          />
        ))}
      </Box>
      {failure ? (
        <Alert severity="error" sx={{ mt: 2 }}>
          {failure}
        </Alert>
      ) : null}
      <Box
        component="form"
        onSubmit={(event) => {
          event.preventDefault();
          setFailure(undefined);
          create.mutate({ name: name.trim(), maxHolders: holdersOf(max), takeRoles });
        }}
        sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mt: 2, alignItems: 'center' }}
      >
        <TextField
          size="small"
          label={t('settings:aliases.newName')}
          value={name}
          onChange={(event) => setName(event.target.value)}
          slotProps={{ htmlInput: { maxLength: ALIAS_NAME_MAX } }}
          sx={{ flex: '1 1 200px', minWidth: 0 }}
        />
        <TextField
          size="small"
          type="number"
          label={t('settings:aliases.newMaxHolders')}
          value={max}
          onChange={(event) => setMax(event.target.value)}
          slotProps={{ htmlInput: { min: 1, max: ALIAS_HOLDERS_MAX } }}
          {...wordsOf('maxHolders', HOLDERS_BOUNDS, create.error)}
          sx={{ width: 150 }}
        />
        <TakeRolesField label={t('settings:aliases.newTakeRoles')} value={takeRoles} onChange={setTakeRoles} />
        <Button type="submit" startIcon={<AddIcon />} disabled={create.isPending || name.trim() === ''}>
          {t('settings:aliases.add')}
        </Button>
      </Box>
    </Paper>
  );
}
