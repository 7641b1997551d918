/**
 * "Ajouter une passerelle" / "Modifier {name}" (issue 51): a gateway's name, its SIP login, the channels it may
 * dial (each by its number: only channels through the media server have one), the addresses it may call from
 * (one per line; empty: any), how it takes the floor (its voice, with attack and hang time, or DTMF), its floor
 * priority, whether it receives nothing between transmissions (a radio) or the channel's silence (a phone), and
 * how many calls it may hold at once (issue 57; empty: one per channel it may dial, past which a call is busy).
 * Checked with protocol's rules before sending; a refusal is shown with the server's sentence. A creation hands
 * the gateway and its generated secret to `onCreated` (shown once by GatewaySecretDialog).
 */
import { zodResolver } from '@hookform/resolvers/zod';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import MenuItem from '@mui/material/MenuItem';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import { channelNumber, GATEWAY_PRIORITIES, type Gateway } from '@talkgroup/protocol';
import { useEffect, useMemo, useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../api/client.ts';
import { useChannels } from '../../api/directory.ts';
import { CancelButton, FormDialog, SubmitButton } from '../../components/FormDialog.tsx';
import { type Notice, useNotify } from '../../components/Notifier.tsx';
import { useCreateGateway, useUpdateGateway } from './api/gateways.ts';
import {
  changedFields,
  formOfGateway,
  type GatewayForm,
  GatewayFormSchema,
  gatewayOfForm,
  NEW_GATEWAY,
  wrongAddressLine,
} from './gatewayForm.ts';

export interface DialableChannel {
  id: number;
  name: string;
  number: string;
}

/** The channels a gateway can dial: those through the media server, by number. */
export function useDialableChannels(): DialableChannel[] {
  const channels = useChannels().data?.res;
  return useMemo(
    () =>
      (channels ?? [])
        .flatMap((channel) => {
          const number = channelNumber(channel);
          return number === null ? [] : [{ id: channel.id, name: channel.name, number }];
        })
        .sort((a, b) => a.number.localeCompare(b.number, undefined, { numeric: true })),
    [channels],
  );
}

export function GatewayDialog({
  open,
  gateway,
  onClose,
  onCreated,
}: {
  open: boolean;
  /** null: a new gateway. */
  gateway: Gateway | null;
  onClose: () => void;
  onCreated: (gateway: Gateway, secret: string) => void;
}) {
  const { t } = useTranslation(['settings', 'common']);
  const notify = useNotify();
  const channels = useDialableChannels();
  const create = useCreateGateway();
  const update = useUpdateGateway();
  const busy = create.isPending || update.isPending;
  const [problem, setProblem] = useState<Notice | null>(null);
  const form = useForm<GatewayForm>({
    defaultValues: NEW_GATEWAY,
    resolver: zodResolver(GatewayFormSchema, undefined, { raw: true }),
  });
  const { reset, control } = form;
  const floorMode = useWatch({ control, name: 'floorMode' });
  const addresses = useWatch({ control, name: 'addresses' });

  // Each opening starts from the gateway as it is (or a new one's defaults).
  useEffect(() => {
    if (!open) return;
    reset(gateway ? formOfGateway(gateway) : NEW_GATEWAY);
    setProblem(null);
  }, [open, gateway, reset]);

  const failed = gateway ? t('settings:gateways.updateFailed') : t('settings:gateways.createFailed');
  const submit = form.handleSubmit(
    async (values) => {
      setProblem(null);
      try {
        if (gateway) {
          const changes = changedFields(gateway, values);
          if (Object.keys(changes).length > 0) await update.mutateAsync({ id: gateway.id, ...changes });
          notify({ severity: 'success', message: t('common:server.gateway_updated') });
          onClose();
        } else {
          const answer = await create.mutateAsync(gatewayOfForm(values));
          onCreated(answer.res, answer.secret);
        }
      } catch (error) {
        setProblem({
          severity: 'error',
          title: failed,
          message: errorMessage(error, t('common:errors.somethingWrong')),
        });
      }
    },
    () => setProblem({ severity: 'error', title: failed, message: t('settings:gateways.checkFields') }),
  );

  const wrongLine = wrongAddressLine(addresses);
  const fieldError = (message: string | undefined) =>
    message === undefined
      ? undefined
      : message === 'address' && wrongLine
        ? t('settings:gateways.errors.address', wrongLine)
        : t(`settings:gateways.errors.${message}` as 'settings:gateways.errors.login');

  return (
    <FormDialog
      open={open}
      title={gateway ? t('settings:gateways.editTitle', { name: gateway.name }) : t('settings:gateways.add')}
      onClose={onClose}
      busy={busy}
      onSubmit={submit}
      notice={problem}
      maxWidth="sm"
      actions={
        <>
          <CancelButton onClick={onClose} disabled={busy} />
          <SubmitButton busy={busy}>
            {gateway ? t('settings:gateways.save') : t('settings:gateways.create')}
          </SubmitButton>
        </>
      }
    >
      <Stack spacing={2.5}>
        <Controller
          name="name"
          control={control}
          render={({ field, fieldState }) => (
            <TextField
              {...field}
              label={t('settings:gateways.fields.name')}
              required
              autoFocus
              autoComplete="off"
              error={fieldState.error !== undefined}
              helperText={fieldError(fieldState.error?.message) ?? t('settings:gateways.fields.nameHelp')}
            />
          )}
        />
        <Controller
          name="login"
          control={control}
          render={({ field, fieldState }) => (
            <TextField
              {...field}
              label={t('settings:gateways.fields.login')}
              required
              autoComplete="off"
              slotProps={{ htmlInput: { spellCheck: false, autoCapitalize: 'none' } }}
              error={fieldState.error !== undefined}
              helperText={fieldError(fieldState.error?.message) ?? t('settings:gateways.fields.loginHelp')}
            />
          )}
        />
        <Controller
          name="channelIds"
          control={control}
          render={({ field }) => (
            <Autocomplete
              multiple
              options={channels}
              value={channels.filter((channel) => field.value.includes(channel.id))}
              onChange={(_event, chosen) => field.onChange(chosen.map((channel) => channel.id))}
              getOptionLabel={(channel) =>
                t('settings:gateways.channelOption', { number: channel.number, name: channel.name })
              }
              isOptionEqualToValue={(option, value) => option.id === value.id}
              disableCloseOnSelect
              noOptionsText={t('settings:gateways.fields.noChannels')}
              renderInput={(params) => (
                <TextField
                  {...params}
                  inputRef={field.ref}
                  label={t('settings:gateways.fields.channels')}
                  helperText={t('settings:gateways.fields.channelsHelp')}
                />
              )}
            />
          )}
        />
        <Controller
          name="addresses"
          control={control}
          render={({ field, fieldState }) => (
            <TextField
              {...field}
              label={t('settings:gateways.fields.addresses')}
              multiline
              minRows={2}
              maxRows={8}
              slotProps={{ htmlInput: { spellCheck: false, autoCapitalize: 'none' } }}
              placeholder={'192.0.2.10\n198.51.100.0/24'}
              error={fieldState.error !== undefined}
              helperText={fieldError(fieldState.error?.message) ?? t('settings:gateways.fields.addressesHelp')}
            />
          )}
        />
        <Controller
          name="floorMode"
          control={control}
          render={({ field }) => (
            <FormControl>
              <FormLabel id="gateway-floor-mode">{t('settings:gateways.fields.floorMode')}</FormLabel>
              <RadioGroup
                aria-labelledby="gateway-floor-mode"
                name={field.name}
                value={field.value}
                onChange={(event) => field.onChange(event.target.value)}
              >
                <FormControlLabel value="voice" control={<Radio />} label={t('settings:gateways.floorModes.voice')} />
                <FormControlLabel value="dtmf" control={<Radio />} label={t('settings:gateways.floorModes.dtmf')} />
              </RadioGroup>
              <FormHelperText sx={{ mx: 0 }}>
                {floorMode === 'dtmf'
                  ? t('settings:gateways.fields.dtmfHelp')
                  : t('settings:gateways.fields.voiceHelp')}
              </FormHelperText>
            </FormControl>
          )}
        />
        {floorMode === 'voice' ? (
          <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap' }}>
            {(['attackMs', 'hangMs'] as const).map((name) => (
              <Controller
                key={name}
                name={name}
                control={control}
                render={({ field, fieldState }) => (
                  <TextField
                    {...field}
                    label={t(`settings:gateways.fields.${name}`)}
                    inputMode="numeric"
                    slotProps={{ htmlInput: { inputMode: 'numeric' } }}
                    error={fieldState.error !== undefined}
                    helperText={fieldError(fieldState.error?.message) ?? t(`settings:gateways.fields.${name}Help`)}
                    sx={{ flex: '1 1 180px' }}
                  />
                )}
              />
            ))}
          </Box>
        ) : null}
        <Controller
          name="priority"
          control={control}
          render={({ field }) => (
            <TextField
              select
              label={t('settings:gateways.fields.priority')}
              name={field.name}
              value={field.value}
              onChange={(event) => field.onChange(event.target.value)}
              inputRef={field.ref}
              helperText={t('settings:gateways.fields.priorityHelp')}
            >
              {GATEWAY_PRIORITIES.map((priority) => (
                <MenuItem key={priority} value={priority}>
                  {t(`settings:gateways.priorities.${priority}`)}
                </MenuItem>
              ))}
            </TextField>
          )}
        />
        <Controller
          name="simultaneousCalls"
          control={control}
          render={({ field, fieldState }) => (
            <TextField
              {...field}
              label={t('settings:gateways.fields.simultaneousCalls')}
              inputMode="numeric"
              autoComplete="off"
              slotProps={{ htmlInput: { inputMode: 'numeric' } }}
              error={fieldState.error !== undefined}
              helperText={fieldError(fieldState.error?.message) ?? t('settings:gateways.fields.simultaneousCallsHelp')}
            />
          )}
        />
        <Controller
          name="quietBetween"
          control={control}
          render={({ field }) => (
            <FormControl>
              <FormControlLabel
                control={
                  <Switch
                    name={field.name}
                    checked={field.value}
                    onChange={(event) => field.onChange(event.target.checked)}
                    slotProps={{ input: { 'aria-describedby': 'gateway-quiet-help' } }}
                  />
                }
                label={t('settings:gateways.fields.quietBetween')}
              />
              <FormHelperText id="gateway-quiet-help" sx={{ mx: 0 }}>
                {t('settings:gateways.fields.quietBetweenHelp')}
              </FormHelperText>
            </FormControl>
          )}
        />
      </Stack>
    </FormDialog>
  );
}
