/**
 * The fields shared by Add User and Edit User Profile: names, login (read-only when editing), pseudo, password and
 * its validation with show/hide, the map-access switch ('Droit d'accés à la carte', No by default) and the
 * channel selection table.
 */
import Box from '@mui/material/Box';
import FormControl from '@mui/material/FormControl';
import FormLabel from '@mui/material/FormLabel';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { Channel } from '@talkgroup/protocol';
import type { MRT_ColumnDef } from 'material-react-table';
import { useCallback, useId, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { SelectionTable } from '../../components/table/SelectionTable.tsx';
import { PasswordInput } from './PasswordInput.tsx';
import { loginProblem, passwordHint, type UserFormValues } from './userForm.ts';

export interface UserFormFieldsProps {
  mode: 'add' | 'edit';
  values: UserFormValues;
  onChange: (values: UserFormValues) => void;
  channels: Channel[];
  channelsLoading: boolean;
  pageSizes: number[] | Array<{ label: string; value: number }>;
  /** Set after a submit: shows the required fields that are blank. */
  showBlank: boolean;
}

type ChannelRow = Pick<Channel, 'id' | 'name'>;

export function UserFormFields({
  mode,
  values,
  onChange,
  channels,
  channelsLoading,
  pageSizes,
  showBlank,
}: UserFormFieldsProps) {
  const { t } = useTranslation('users');
  const id = useId();
  const set =
    <K extends keyof UserFormValues>(key: K) =>
    (value: UserFormValues[K]) =>
      onChange({ ...values, [key]: value });
  const text = (key: 'firstName' | 'lastName' | 'login' | 'pseudo' | 'password' | 'confirmPassword') => ({
    value: values[key],
    onChange: (event: React.ChangeEvent<HTMLInputElement>) => set(key)(event.target.value),
  });
  const blank = (value: string, required: boolean) => showBlank && required && value.trim() === '';

  const login = mode === 'add' ? loginProblem(values.login) : undefined;
  const hint = passwordHint(values.password);
  const mismatch = values.confirmPassword !== '' && values.password !== values.confirmPassword;

  const columns = useMemo<MRT_ColumnDef<ChannelRow>[]>(
    () => [{ accessorKey: 'name', header: t('form.channelName') }],
    [t],
  );
  const rows = useMemo<ChannelRow[]>(() => channels.map(({ id, name }) => ({ id, name })), [channels]);
  const searchText = useCallback((row: ChannelRow) => row.name, []);

  return (
    <Stack spacing={2.5}>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
        <TextField
          label={t('form.firstName')}
          required
          autoComplete="off"
          error={blank(values.firstName, true)}
          {...text('firstName')}
        />
        <TextField
          label={t('form.lastName')}
          required
          autoComplete="off"
          error={blank(values.lastName, true)}
          {...text('lastName')}
        />
        <TextField
          label={t('form.login')}
          required={mode === 'add'}
          type="email"
          autoComplete="off"
          error={blank(values.login, mode === 'add') || login !== undefined}
          helperText={mode === 'edit' ? t('form.readOnly') : login ? t(`validation.${login}`) : undefined}
          slotProps={{ input: { readOnly: mode === 'edit' } }}
          {...text('login')}
        />
        <TextField label={t('form.pseudo')} autoComplete="off" {...text('pseudo')} />
        <PasswordInput
          label={mode === 'add' ? t('form.password') : t('form.newPassword')}
          required={mode === 'add'}
          autoComplete="new-password"
          error={blank(values.password, mode === 'add')}
          helperText={hint ? t(`validation.${hint}`) : mode === 'edit' ? t('form.keepPassword') : undefined}
          sx={hint ? { '& .MuiFormHelperText-root': { color: 'warning.main' } } : undefined}
          {...text('password')}
        />
        <PasswordInput
          label={t('form.confirmPassword')}
          required={mode === 'add'}
          autoComplete="new-password"
          error={mismatch}
          helperText={mismatch ? t('validation.mismatch') : undefined}
          {...text('confirmPassword')}
        />
      </Box>

      <FormControl component="fieldset">
        <FormLabel component="legend" id={`${id}-map`} sx={{ fontWeight: 600, color: 'text.primary' }}>
          {t('form.mapRight')}
        </FormLabel>
        <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
          <Typography variant="body2" aria-hidden>
            {t('form.no')}
          </Typography>
          <Switch
            checked={values.mapRight}
            onChange={(event) => set('mapRight')(event.target.checked)}
            slotProps={{ input: { role: 'switch', 'aria-labelledby': `${id}-map` } }}
          />
          <Typography variant="body2" aria-hidden>
            {t('form.yes')}
          </Typography>
        </Stack>
      </FormControl>

      <SelectionTable<ChannelRow>
        rows={rows}
        columns={columns}
        selected={values.channelIds}
        onChange={set('channelIds')}
        searchText={searchText}
        title={t('form.channels')}
        summary={t('form.channelsHint', { count: values.channelIds.length })}
        emptyText={t('form.noChannels')}
        pageSizes={pageSizes}
        loading={channelsLoading}
        search={{
          label: t('toolbar.search'),
          placeholder: t('toolbar.search'),
          clearLabel: t('toolbar.clearSearch'),
        }}
      />
    </Stack>
  );
}
