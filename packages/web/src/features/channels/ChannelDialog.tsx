/**
 * Add Channel / Update Channel dialog (spec sections 2, 5 and 8): the name and a user selection table.
 * Props: `open`, `channel` (null or absent = create; a Channel = update it), `onClose()`, optional `onSaved(channel)`.
 * Create: createChannel then updateUserChannels with the chosen users. Update: updateChannel then
 * updateUserChannels. A blank name is refused with the check-fields text. An existing channel through the media
 * server shows its number, the one a SIP gateway dials (issue 51). "Area channel" picks the zone the channel follows, or
 * none (issue 59).
 */
import { zodResolver } from '@hookform/resolvers/zod';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import {
  type Channel,
  type ChannelOverview,
  CreateChannel,
  channelNumber,
  GetClientConfig,
  GetUserIds,
  leftTrim,
  PREEMPTION_MODES,
  type User,
  type UserSortField,
  VIDEO_AUDIENCES,
} from '@talkgroup/protocol';
import type { MRT_ColumnDef } from 'material-react-table';
import { type FormEvent, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useController, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { ApiError, errorMessage } from '../../api/client.ts';
import { useApiQuery } from '../../api/queries.ts';
import { CancelButton, FormDialog, SubmitButton } from '../../components/FormDialog.tsx';
import { type Notice, useNotify } from '../../components/Notifier.tsx';
import { SelectionTable } from '../../components/table/SelectionTable.tsx';
import { SELECTION_PAGE_SIZES } from '../../components/table/useConsoleTable.ts';
import { useUserTable } from '../../components/table/useUserTable.ts';
import { AreaChannelSelect } from './AreaChannelSelect.tsx';
import { useSaveChannel } from './api/saveChannel.ts';
import { FloorQueueSettings } from './FloorQueueSettings.tsx';
import { VideoAudienceField } from './VideoAudienceField.tsx';

export interface ChannelDialogProps {
  open: boolean;
  channel?: ChannelOverview | null;
  onClose: () => void;
  onSaved?: (channel: Channel) => void;
}

type UserRow = Pick<User, 'id' | 'firstName' | 'lastName' | 'identifier' | 'pseudo'>;

/** The server's sort field of each column, when the users are paged on the server (issue 18). */
const SORT_FIELDS: Partial<Record<string, UserSortField>> = {
  firstName: 'firstName',
  lastName: 'lastName',
  identifier: 'identifier',
};

/** The protocol's createChannel name (updateChannel's is the same rule) and the chosen users' ids. */
const ChannelFormSchema = z.object({
  channelName: CreateChannel.body.shape.channelName,
  userIds: z.array(z.number().int().positive()),
  /** Voice history: every transmission of the channel is recorded (issue 15). */
  recording: z.boolean(),
  /** One talker at a time (issue 14); off: an open conference. */
  floorControl: z.boolean(),
  /** Issue 59: a press on a busy floor waits its turn; what a higher talk priority does (FloorQueueSettings). */
  floorQueue: z.boolean(),
  preemption: z.enum(PREEMPTION_MODES),
  /** Issue 61: who watches its live video. */
  videoAudience: z.enum(VIDEO_AUDIENCES),
  /** Through the media server (issue 26); off: always peer to peer. */
  throughServer: z.boolean(),
  /** The zone an area channel follows (issue 59): who enters it with map access joins; null: none. */
  areaGeofenceId: z.number().int().positive().nullable(),
});
type ChannelForm = z.input<typeof ChannelFormSchema>;

export function ChannelDialog({ open, channel, onClose, onSaved }: ChannelDialogProps) {
  // 'video': the audience field's texts load with the dialog's.
  const { t } = useTranslation(['channels', 'users', 'common', 'video']);
  const notify = useNotify();
  const users = useUserTable('selection', SELECTION_PAGE_SIZES, SORT_FIELDS, { enabled: open });
  // The members it has (their ids only: a channel of a large organisation has thousands).
  const members = useApiQuery(GetUserIds, { channelId: channel?.id ?? 0 }, { enabled: open && Boolean(channel) });
  const memberIds = channel ? members.data?.res : [];
  const save = useSaveChannel();
  const editing = Boolean(channel);
  const form = useForm<ChannelForm>({
    defaultValues: {
      channelName: '',
      userIds: [],
      recording: true,
      floorControl: true,
      floorQueue: true,
      preemption: 'interrupt',
      videoAudience: 'dispatch',
      throughServer: true,
      areaGeofenceId: null,
    },
    // raw: the name as typed (left-trimmed on submit), not the schema's fully trimmed output.
    resolver: zodResolver(ChannelFormSchema, undefined, { raw: true }),
  });
  const { field: name, fieldState: nameState } = useController({ name: 'channelName', control: form.control });
  const userIds = useWatch({ control: form.control, name: 'userIds' });
  const { field: recording } = useController({ name: 'recording', control: form.control });
  const { field: floorControl } = useController({ name: 'floorControl', control: form.control });
  const { field: throughServer } = useController({ name: 'throughServer', control: form.control });
  const { field: area } = useController({ name: 'areaGeofenceId', control: form.control });
  // The choice matters only where a media server carries voice (JANUS_URL).
  const mediaServer = useApiQuery(GetClientConfig, {}, { enabled: open }).data?.res.mediaServer === true;
  const [problem, setProblem] = useState<Notice | null>(null);

  const { reset } = form;
  const resetSave = save.reset;
  // Once per opening, when the members are known: the form starts from the channel as it is (a later refetch
  // of the members does not undo what the administrator changed meanwhile).
  const started = useRef(false);
  useEffect(() => {
    if (!open) {
      started.current = false;
      return;
    }
    if (started.current || memberIds === undefined) return;
    started.current = true;
    reset({
      channelName: channel?.name ?? '',
      userIds: memberIds,
      recording: channel?.recording ?? true,
      floorControl: channel?.floorControl ?? true,
      floorQueue: channel?.floorQueue ?? true,
      preemption: channel?.preemption ?? 'interrupt',
      videoAudience: channel?.videoAudience ?? 'dispatch',
      throughServer: (channel?.voiceMode ?? 'server') === 'server',
      areaGeofenceId: channel?.areaGeofenceId ?? null,
    });
    resetSave();
    setProblem(null);
  }, [open, channel, memberIds, reset, resetSave]);

  const rows = useMemo<UserRow[]>(
    () =>
      users.users.map(({ id, firstName, lastName, identifier, pseudo }) => ({
        id,
        firstName,
        lastName,
        identifier,
        pseudo,
      })),
    [users.users],
  );
  const columns = useMemo<MRT_ColumnDef<UserRow>[]>(
    () => [
      { accessorKey: 'firstName', header: t('users:columns.firstName') },
      { accessorKey: 'lastName', header: t('users:columns.lastName') },
      { accessorKey: 'identifier', header: t('users:columns.login') },
    ],
    [t],
  );
  const searchText = useCallback(
    (row: UserRow) => `${row.firstName}\n${row.lastName}\n${row.identifier}\n${row.pseudo}`,
    [],
  );

  const failed = editing ? t('channels:update.notUpdated') : t('channels:create.notCreated');

  const validateAndSave = form.handleSubmit(
    async ({ throughServer, ...values }) => {
      if (save.isPending) return;
      try {
        const saved = await save.mutateAsync({
          channel,
          memberIds,
          ...values,
          voiceMode: throughServer ? 'server' : 'mesh',
        });
        notify({
          severity: 'success',
          message: editing ? t('channels:update.updated') : t('channels:create.created'),
        });
        onSaved?.(saved);
        onClose();
      } catch (error) {
        // Spec section 8: a name conflict says so; any other refusal says 'Error!'.
        const message =
          error instanceof ApiError && error.status === 409
            ? t('channels:update.nameTaken')
            : errorMessage(error, t('channels:update.error'));
        setProblem({ severity: 'error', title: failed, message });
      }
    },
    () => setProblem({ severity: 'error', title: failed, message: t('channels:form.checkFields') }),
  );
  const submit = (event: FormEvent<HTMLFormElement>) => {
    // Spec section 5: the name is left-trimmed before it is checked and sent.
    form.setValue('channelName', leftTrim(form.getValues('channelName')));
    return validateAndSave(event);
  };

  return (
    <FormDialog
      open={open}
      title={editing ? t('channels:update.title') : t('channels:create.title')}
      onClose={onClose}
      busy={save.isPending}
      onSubmit={submit}
      notice={problem}
      actions={
        <>
          <CancelButton onClick={onClose} disabled={save.isPending} />
          <SubmitButton busy={save.isPending}>
            {editing ? t('channels:update.submit') : t('channels:create.submit')}
          </SubmitButton>
        </>
      }
    >
      <Stack spacing={2.5}>
        <TextField
          label={t('channels:form.name')}
          required
          autoFocus
          autoComplete="off"
          name={name.name}
          value={name.value}
          onChange={name.onChange}
          onBlur={name.onBlur}
          inputRef={name.ref}
          error={nameState.error !== undefined}
        />
        <FormControlLabel
          control={
            <Switch
              name={recording.name}
              checked={recording.value}
              onChange={(event) => recording.onChange(event.target.checked)}
            />
          }
          label={t('channels:form.recording')}
        />
        <FormControlLabel
          control={
            <Switch
              name={floorControl.name}
              checked={floorControl.value}
              onChange={(event) => floorControl.onChange(event.target.checked)}
            />
          }
          label={t('channels:form.floorControl')}
        />
        <FloorQueueSettings control={form.control} />
        <VideoAudienceField control={form.control} />
        {mediaServer ? (
          <FormControlLabel
            control={
              <Switch
                name={throughServer.name}
                checked={throughServer.value}
                onChange={(event) => throughServer.onChange(event.target.checked)}
              />
            }
            label={t('channels:form.throughServer')}
          />
        ) : null}
        <AreaChannelSelect open={open} name={area.name} value={area.value} onChange={area.onChange} />
        {channel && throughServer.value ? (
          <TextField
            label={t('channels:form.number')}
            value={channelNumber({ id: channel.id, voiceMode: 'server' }) ?? ''}
            helperText={t('channels:form.numberHelp')}
            slotProps={{ htmlInput: { readOnly: true } }}
          />
        ) : null}
        <SelectionTable<UserRow>
          rows={rows}
          columns={columns}
          selected={userIds}
          onChange={(ids) => form.setValue('userIds', ids)}
          searchText={searchText}
          title={t('channels:form.users')}
          summary={t('channels:form.usersHint', { count: userIds.length })}
          emptyText={t('channels:form.noUsers')}
          pageSizes={SELECTION_PAGE_SIZES}
          loading={users.query.isPending || memberIds === undefined}
          server={users.server}
          search={{
            label: t('channels:toolbar.search'),
            placeholder: t('channels:toolbar.search'),
            clearLabel: t('channels:toolbar.clearSearch'),
          }}
        />
      </Stack>
    </FormDialog>
  );
}
