/**
 * An administrator downloads a channel's transmissions for a time range (exportVoiceMessages): the server
 * streams a zip of the audio files and index.csv; the browser saves it. Default range: the last hour.
 */
import TextField from '@mui/material/TextField';
import { VOICE_EXPORT_PATH } from '@talkgroup/protocol';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getToken } from '../../../api/session.ts';
import { CancelButton, FormDialog, SubmitButton } from '../../../components/FormDialog.tsx';
import type { Notice } from '../../../components/Notifier.tsx';

/** A Date as the value of an <input type="datetime-local"> (local time, minutes). */
function localInput(date: Date): string {
  const shifted = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return shifted.toISOString().slice(0, 16);
}

async function downloadExport(body: { channelId: number; from: string; to: string }, fileName: string) {
  const token = getToken();
  const response = await fetch(VOICE_EXPORT_PATH, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { 'x-access-token': token } : {}) },
    body: JSON.stringify(body),
  });
  if (!response.ok) {
    const payload = (await response.json().catch(() => undefined)) as { result?: string } | undefined;
    throw new Error(payload?.result ?? `HTTP ${response.status}`);
  }
  const named = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? fileName;
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = named;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

export interface VoiceExportDialogProps {
  open: boolean;
  onClose: () => void;
  channel: { id: number; name: string; rtcSession: string };
}

export function VoiceExportDialog({ open, onClose, channel }: VoiceExportDialogProps) {
  const { t } = useTranslation('room');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<Notice | null>(null);

  useEffect(() => {
    if (!open) return;
    const now = new Date();
    setFrom(localInput(new Date(now.getTime() - 3600_000)));
    setTo(localInput(new Date(now.getTime() + 60_000)));
    setNotice(null);
  }, [open]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const start = new Date(from);
    const end = new Date(to);
    if (Number.isNaN(start.getTime()) || Number.isNaN(end.getTime()) || end <= start) {
      setNotice({ severity: 'error', message: t('history.exportRange') });
      return;
    }
    setBusy(true);
    try {
      await downloadExport(
        { channelId: channel.id, from: start.toISOString(), to: end.toISOString() },
        `voice-${channel.rtcSession}.zip`,
      );
      onClose();
    } catch (error) {
      setNotice({ severity: 'error', title: t('history.exportFailed'), message: (error as Error).message });
    } finally {
      setBusy(false);
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
      title={t('history.exportTitle', { channel: channel.name })}
      actions={
        <>
          <CancelButton onClick={onClose} disabled={busy} />
          <SubmitButton busy={busy}>{t('history.exportSubmit')}</SubmitButton>
        </>
      }
    >
      <TextField
        label={t('history.exportFrom')}
        type="datetime-local"
        value={from}
        onChange={(event) => setFrom(event.target.value)}
        fullWidth
        margin="normal"
        slotProps={{ inputLabel: { shrink: true } }}
      />
      <TextField
        label={t('history.exportTo')}
        type="datetime-local"
        value={to}
        onChange={(event) => setTo(event.target.value)}
        fullWidth
        margin="normal"
        slotProps={{ inputLabel: { shrink: true } }}
      />
    </FormDialog>
  );
}
