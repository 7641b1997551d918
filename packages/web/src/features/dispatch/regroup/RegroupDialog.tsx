/**
 * "Regrouper" (issue 59): the dispatcher names the group, ticks members of its monitored channels (or whole
 * channels) and how long it lasts; createRegroup makes the temporary channel and switches their /talk to it.
 */
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { CreateRegroup, GetUsersInChannel, REGROUP_MINUTES_DEFAULT } from '@talkgroup/protocol';
import { useQueries } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, errorMessage } from '../../../api/client.ts';
import { callKey, useApiMutation } from '../../../api/queries.ts';
import { CancelButton, FormDialog, SubmitButton } from '../../../components/FormDialog.tsx';

export interface RegroupDialogProps {
  open: boolean;
  /** The monitored channels: their members are those one may pick. */
  channels: Array<{ id: number; name: string }>;
  selfId: number;
  /** Members picked beforehand (on the map): ticked when the dialog opens. */
  initialUserIds: number[];
  onClose: () => void;
  /** The regroup's channel, once made. */
  onCreated: (channelId: number) => void;
}

function toggle(list: number[], id: number, on: boolean): number[] {
  return on ? [...new Set([...list, id])] : list.filter((item) => item !== id);
}

export function RegroupDialog({ open, channels, selfId, initialUserIds, onClose, onCreated }: RegroupDialogProps) {
  const { t } = useTranslation('dispatch');
  const [name, setName] = useState('');
  const [minutes, setMinutes] = useState(String(REGROUP_MINUTES_DEFAULT));
  const [userIds, setUserIds] = useState<number[]>([]);
  const [channelIds, setChannelIds] = useState<number[]>([]);
  const picked = initialUserIds.join(',');
  // biome-ignore lint/correctness/useExhaustiveDependencies: picked stands for initialUserIds
  useEffect(() => {
    if (open) setUserIds(initialUserIds);
  }, [open, picked]);
  const members = useQueries({
    queries: channels.map((channel) => ({
      queryKey: callKey(GetUsersInChannel, { channelId: channel.id }),
      queryFn: () => api(GetUsersInChannel, { channelId: channel.id }),
      enabled: open,
    })),
  });
  const people = new Map<number, string>();
  for (const query of members)
    for (const user of query.data?.res ?? [])
      if (user.id !== selfId) people.set(user.id, user.display_name || `${user.firstName} ${user.lastName}`);
  const create = useApiMutation(CreateRegroup, {
    onSuccess: (answer) => {
      setName('');
      setUserIds([]);
      setChannelIds([]);
      onCreated(answer.channelId);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate({ name, userIds, channelIds, minutes: Number(minutes) });
  };
  const close = () => {
    create.reset();
    onClose();
  };

  return (
    <FormDialog
      open={open}
      title={t('regroup.title')}
      onClose={close}
      busy={create.isPending}
      onSubmit={submit}
      maxWidth="sm"
      notice={create.error ? { severity: 'error', message: errorMessage(create.error, t('regroup.failed')) } : null}
      actions={
        <>
          <CancelButton onClick={close} disabled={create.isPending} />
          <SubmitButton busy={create.isPending} disabled={userIds.length === 0 && channelIds.length === 0}>
            {t('regroup.create')}
          </SubmitButton>
        </>
      }
    >
      <TextField
        label={t('regroup.name')}
        value={name}
        onChange={(event) => setName(event.target.value)}
        required
        fullWidth
        margin="dense"
        slotProps={{ htmlInput: { maxLength: 200 } }}
      />
      <TextField
        label={t('regroup.minutes')}
        type="number"
        value={minutes}
        onChange={(event) => setMinutes(event.target.value)}
        margin="dense"
        slotProps={{ htmlInput: { min: 1, max: 10080 } }}
      />
      <Typography component="h3" variant="subtitle2" sx={{ mt: 2 }}>
        {t('regroup.channels')}
      </Typography>
      {channels.map((channel) => (
        <FormControlLabel
          key={channel.id}
          label={t('regroup.wholeChannel', { channel: channel.name })}
          control={
            <Checkbox
              checked={channelIds.includes(channel.id)}
              onChange={(event) => setChannelIds((current) => toggle(current, channel.id, event.target.checked))}
            />
          }
          sx={{ display: 'flex' }}
        />
      ))}
      <Typography component="h3" variant="subtitle2" sx={{ mt: 2 }}>
        {t('regroup.members')}
      </Typography>
      {people.size === 0 ? <Typography sx={{ color: 'text.secondary' }}>{t('regroup.noMembers')}</Typography> : null}
      {[...people].map(([id, label]) => (
        <FormControlLabel
          key={id}
          label={label}
          control={
            <Checkbox
              checked={userIds.includes(id)}
              onChange={(event) => setUserIds((current) => toggle(current, id, event.target.checked))}
            />
          }
          sx={{ display: 'flex' }}
        />
      ))}
    </FormDialog>
  );
}
