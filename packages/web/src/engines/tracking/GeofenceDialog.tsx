/**
 * A zone's settings: its name, what it alerts on, how long it watches, and (on a map about several channels,
 * or for an administrator) whose members it watches. Opens after a zone is drawn (create) or when one is
 * clicked (update).
 */
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import {
  GEOFENCE_ALERT_ON,
  GEOFENCE_NAME_MAX,
  type Geofence,
  type GeofenceAlertOn,
  type GeofenceShape,
} from '@talkgroup/protocol';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../api/client.ts';
import { CancelButton, FormDialog, SubmitButton } from '../../components/FormDialog.tsx';
import type { Notice } from '../../components/Notifier.tsx';
import { formatDate } from '../../i18n/dates.ts';
import { useCreateGeofence, useUpdateGeofence } from './api/geofences.ts';
import { FENCE_DURATIONS, type FenceDuration, fenceEnd } from './trailMath.ts';

type Duration = FenceDuration | 'keep';
/** The "everyone" choice of the channel select (a fence without channel). */
const EVERYONE = 'everyone';

export interface GeofenceDialogProps {
  /** A zone just drawn (create), or an existing one (update); neither: closed. */
  shape: GeofenceShape | null;
  fence: Geofence | null;
  channelId?: number;
  channels?: Array<{ id: number; name: string }>;
  drawsForEveryone: boolean;
  onClose: () => void;
}

export function GeofenceDialog({ shape, fence, channelId, channels, drawsForEveryone, onClose }: GeofenceDialogProps) {
  const { t, i18n } = useTranslation('tracking');
  const create = useCreateGeofence();
  const update = useUpdateGeofence();
  const open = shape !== null || fence !== null;
  const [name, setName] = useState('');
  const [alertOn, setAlertOn] = useState<GeofenceAlertOn>('both');
  const [duration, setDuration] = useState<Duration>('none');
  const [owner, setOwner] = useState<string>('');
  const [notice, setNotice] = useState<Notice | null>(null);
  const busy = create.isPending || update.isPending;

  useEffect(() => {
    if (!open) return;
    setName(fence?.name ?? '');
    setAlertOn(fence?.alertOn ?? 'both');
    setDuration(fence?.activeUntil && fence.active ? 'keep' : 'none');
    const current = fence ? fence.channelId : (channelId ?? channels?.[0]?.id ?? null);
    setOwner(current === null ? EVERYONE : String(current));
    setNotice(null);
  }, [open, fence, channelId, channels]);

  const ownerChoices = channels ?? [];
  const showOwner = (channels?.length ?? 0) > 1 || drawsForEveryone;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (name.trim() === '') {
      setNotice({ severity: 'error', message: t('dialog.nameRequired') });
      return;
    }
    const channel = owner === EVERYONE || owner === '' ? null : Number(owner);
    const until = duration === 'keep' ? undefined : fenceEnd(duration);
    try {
      if (fence) {
        await update.mutateAsync({
          id: fence.id,
          name,
          alertOn,
          ...(channel !== fence.channelId ? { channelId: channel } : {}),
          ...(until !== undefined ? { activeUntil: until } : {}),
        });
      } else if (shape) {
        await create.mutateAsync({ name, alertOn, channelId: channel, shape, activeUntil: until ?? null });
      }
      onClose();
    } catch (error) {
      setNotice({ severity: 'error', title: t('zones.failed'), message: errorMessage(error, t('zones.failed')) });
    }
  };

  return (
    <FormDialog
      open={open}
      onClose={onClose}
      busy={busy}
      onSubmit={submit}
      notice={notice}
      maxWidth="xs"
      title={fence ? t('dialog.editTitle', { name: fence.name }) : t('dialog.createTitle')}
      actions={
        <>
          <CancelButton onClick={onClose} disabled={busy} />
          <SubmitButton busy={busy}>{t('dialog.save')}</SubmitButton>
        </>
      }
    >
      <TextField
        label={t('dialog.name')}
        value={name}
        onChange={(event) => setName(event.target.value)}
        slotProps={{ htmlInput: { maxLength: GEOFENCE_NAME_MAX } }}
        required
        autoFocus
        fullWidth
        margin="normal"
      />
      <TextField
        select
        label={t('dialog.alertOn')}
        value={alertOn}
        onChange={(event) => setAlertOn(event.target.value as GeofenceAlertOn)}
        fullWidth
        margin="normal"
      >
        {GEOFENCE_ALERT_ON.map((kind) => (
          <MenuItem key={kind} value={kind}>
            {t(`zones.alertOn.${kind}`)}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        select
        label={t('dialog.duration')}
        value={duration}
        onChange={(event) => setDuration(event.target.value as Duration)}
        fullWidth
        margin="normal"
      >
        {fence?.activeUntil && fence.active ? (
          <MenuItem value="keep">
            {t('dialog.durations.keep', { time: formatDate(fence.activeUntil, undefined, i18n.resolvedLanguage) })}
          </MenuItem>
        ) : null}
        {(Object.keys(FENCE_DURATIONS) as FenceDuration[]).map((key) => (
          <MenuItem key={key} value={key}>
            {t(`dialog.durations.${key}`)}
          </MenuItem>
        ))}
      </TextField>
      {showOwner ? (
        <TextField
          select
          label={t('dialog.watches')}
          value={owner}
          onChange={(event) => setOwner(event.target.value)}
          fullWidth
          margin="normal"
        >
          {ownerChoices.map((channel) => (
            <MenuItem key={channel.id} value={String(channel.id)}>
              {channel.name}
            </MenuItem>
          ))}
          {drawsForEveryone ? <MenuItem value={EVERYONE}>{t('dialog.everyone')}</MenuItem> : null}
        </TextField>
      ) : null}
    </FormDialog>
  );
}
