/**
 * The fields shared by Add User and Edit User Profile: names, login (read-only when editing), pseudo, password and
 * its validation with show/hide, the map-access switch ('Droit d'accès à la carte', No by default) and the
 * channel selection table.
 */
import Box from '@mui/material/Box';
import FormControl from '@mui/material/FormControl';
import FormLabel from '@mui/material/FormLabel';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField, { type TextFieldProps } from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  type ChannelOverview,
  DEFAULT_TALK_PRIORITY,
  PASSWORD_MIN_LENGTH,
  ROLES,
  TALK_PRIORITIES,
} from '@talkgroup/protocol';
import type { MRT_ColumnDef } from 'material-react-table';
import { useCallback, useId, useMemo } from 'react';
import { Controller, useController, useFormContext, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { SelectionTable } from '../../components/table/SelectionTable.tsx';
import { PasswordInput } from './PasswordInput.tsx';
import { loginProblem, passwordHint, type UserFormValues } from './userForm.ts';

export interface UserFormFieldsProps {
  mode: 'add' | 'edit';
  /** The form is the signed-in user's own account: its role cannot be changed (by anyone). */
  ownAccount?: boolean;
  channels: ChannelOverview[];
  channelsLoading: boolean;
  pageSizes: number[] | Array<{ label: string; value: number }>;
}

type ChannelRow = Pick<ChannelOverview, 'id' | 'name'>;

/** The fields of the form of the surrounding <FormProvider> (useUserForm). */
export function UserFormFields({
  mode,
  ownAccount = false,
  channels,
  channelsLoading,
  pageSizes,
}: UserFormFieldsProps) {
  const { t } = useTranslation('users');
  const id = useId();
  const { control, formState, setValue } = useFormContext<UserFormValues>();
  const values = useWatch({ control }) as UserFormValues;
  // Set by a refused submit, cleared as the field is corrected.
  const blank = (key: 'firstName' | 'lastName' | 'login' | 'password') => formState.errors[key] !== undefined;

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
        <FormText name="firstName" label={t('form.firstName')} required autoComplete="off" error={blank('firstName')} />
        <FormText name="lastName" label={t('form.lastName')} required autoComplete="off" error={blank('lastName')} />
        <FormText
          name="login"
          label={t('form.login')}
          required={mode === 'add'}
          type="email"
          autoComplete="off"
          error={(mode === 'add' && blank('login')) || login !== undefined}
          helperText={mode === 'edit' ? t('form.readOnly') : login ? t(`validation.${login}`) : undefined}
          slotProps={{ input: { readOnly: mode === 'edit' } }}
        />
        <FormText name="pseudo" label={t('form.pseudo')} autoComplete="off" />
        <FormText
          password
          name="password"
          label={mode === 'add' ? t('form.password') : t('form.newPassword')}
          required={mode === 'add'}
          autoComplete="new-password"
          error={mode === 'add' && blank('password')}
          helperText={
            hint
              ? t(`validation.${hint}`)
              : `${mode === 'edit' ? `${t('form.keepPassword')} ` : ''}${t('form.passwordRule', { min: PASSWORD_MIN_LENGTH })}`
          }
          sx={hint ? { '& .MuiFormHelperText-root': { color: 'warning.main' } } : undefined}
        />
        <FormText
          password
          name="confirmPassword"
          label={t('form.confirmPassword')}
          required={mode === 'add'}
          autoComplete="new-password"
          error={mismatch}
          helperText={mismatch ? t('validation.mismatch') : undefined}
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
          <Controller
            name="mapRight"
            control={control}
            render={({ field }) => (
              <Switch
                checked={field.value}
                onChange={(event) => field.onChange(event.target.checked)}
                slotProps={{ input: { role: 'switch', 'aria-labelledby': `${id}-map` } }}
              />
            )}
          />
          <Typography variant="body2" aria-hidden>
            {t('form.yes')}
          </Typography>
        </Stack>
      </FormControl>

      <Controller
        name="role"
        control={control}
        render={({ field }) => (
          <TextField
            select
            label={t('form.role')}
            value={field.value}
            onChange={(event) => field.onChange(event.target.value)}
            disabled={ownAccount}
            helperText={ownAccount ? t('form.ownRole') : t(`form.roleHelp.${field.value}`)}
            sx={{ maxWidth: 360 }}
          >
            {ROLES.map((role) => (
              <MenuItem key={role} value={role}>
                {t(`form.roles.${role}`)}
              </MenuItem>
            ))}
          </TextField>
        )}
      />

      <Controller
        name="talkPriority"
        control={control}
        render={({ field }) => (
          <TextField
            select
            label={t('form.talkPriority')}
            value={field.value === null ? 'role' : String(field.value)}
            onChange={(event) => field.onChange(event.target.value === 'role' ? null : Number(event.target.value))}
            helperText={t('form.talkPriorityHelp')}
            sx={{ maxWidth: 360 }}
          >
            <MenuItem value="role">
              {t('form.talkPriorityOfRole', { priority: DEFAULT_TALK_PRIORITY[values.role] })}
            </MenuItem>
            {TALK_PRIORITIES.map((priority) => (
              <MenuItem key={priority} value={String(priority)}>
                {priority}
              </MenuItem>
            ))}
          </TextField>
        )}
      />

      <SelectionTable<ChannelRow>
        rows={rows}
        columns={columns}
        selected={values.channelIds}
        onChange={(ids) => setValue('channelIds', ids)}
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

type TextName = 'firstName' | 'lastName' | 'login' | 'pseudo' | 'password' | 'confirmPassword';

/** A text field of the form, controlled by react-hook-form (so that a reset or a left-trim shows at once). */
function FormText({ name, password = false, ...props }: TextFieldProps & { name: TextName; password?: boolean }) {
  const { field } = useController<UserFormValues, TextName>({ name });
  const Input = password ? PasswordInput : TextField;
  return (
    <Input
      {...props}
      name={field.name}
      value={field.value}
      onChange={field.onChange}
      onBlur={field.onBlur}
      inputRef={field.ref}
    />
  );
}
