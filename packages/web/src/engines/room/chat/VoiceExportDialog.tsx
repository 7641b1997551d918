/**
 * An administrator downloads a channel's transmissions for a time range (exportVoiceMessages): the server
 * streams a zip of the audio files and index.csv; the browser saves it. Default range: the last hour.
 */
import { VOICE_EXPORT_PATH } from '@talkgroup/protocol';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { downloadFile } from '../../../api/download.ts';
import { CancelButton, FormDialog, SubmitButton } from '../../../components/FormDialog.tsx';
import type { Notice } from '../../../components/Notifier.tsx';
import { PeriodFields, usePeriod } from '../../../components/PeriodFields.tsx';

const HOUR_MS = 3600_000;

export interface VoiceExportDialogProps {
  open: boolean;
  onClose: () => void;
  channel: { id: number; name: string; rtcSession: string };
}

export function VoiceExportDialog({ open, onClose, channel }: VoiceExportDialogProps) {
  const { t } = useTranslation('room');
  const period = usePeriod(open, HOUR_MS);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<Notice | null>(null);

  useEffect(() => {
    if (open) setNotice(null);
  }, [open]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const range = period.range();
    if (!range) {
      setNotice({ severity: 'error', message: t('history.exportRange') });
      return;
    }
    setBusy(true);
    try {
      await downloadFile(
        VOICE_EXPORT_PATH,
        { channelId: channel.id, from: range.start.toISOString(), to: range.end.toISOString() },
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
      <PeriodFields period={period} fromLabel={t('history.exportFrom')} toLabel={t('history.exportTo')} />
    </FormDialog>
  );
}
