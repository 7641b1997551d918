/**
 * Export positions as a file (exportPositions): a period (the last 24 hours by default) and a format, GPX for
 * GPS devices and mapping apps, GeoJSON for GIS software. For one user (its row, the followed trail) or a
 * channel's members (the map). `PositionExportButton` is the icon button that opens it.
 */
import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import IconButton from '@mui/material/IconButton';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Tooltip from '@mui/material/Tooltip';
import { POSITION_EXPORT_FORMATS, type PositionExportFormat } from '@talkgroup/protocol';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CancelButton, FormDialog, SubmitButton } from '../../components/FormDialog.tsx';
import type { Notice } from '../../components/Notifier.tsx';
import { PeriodFields, usePeriod } from '../../components/PeriodFields.tsx';
import { downloadPositions } from './api/positions.ts';

const DAY_MS = 24 * 3600_000;

export interface PositionExportTarget {
  /** Whose positions: a user (or a few), or a channel's members. */
  userIds?: number[];
  channelId?: number;
  /** What the dialog's title names: the user's or the channel's name. */
  name: string;
}

export function PositionExportDialog({
  target,
  onClose,
}: {
  target: PositionExportTarget | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('tracking');
  const formatLabel = useId();
  const isOpen = target !== null;
  // Each opening starts from the last 24 hours (not each render: the target may be a new object every time).
  const period = usePeriod(isOpen, DAY_MS);
  const [format, setFormat] = useState<PositionExportFormat>('gpx');
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<Notice | null>(null);

  useEffect(() => {
    if (isOpen) setNotice(null);
  }, [isOpen]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!target) return;
    const range = period.range();
    if (!range) {
      setNotice({ severity: 'error', message: t('export.range') });
      return;
    }
    setBusy(true);
    try {
      await downloadPositions({
        ...(target.userIds ? { userIds: target.userIds } : {}),
        ...(target.channelId !== undefined ? { channelId: target.channelId } : {}),
        from: range.start.toISOString(),
        to: range.end.toISOString(),
        format,
      });
      onClose();
    } catch (error) {
      setNotice({ severity: 'error', title: t('export.failed'), message: (error as Error).message });
    } finally {
      setBusy(false);
    }
  };

  return (
    <FormDialog
      open={target !== null}
      onClose={onClose}
      busy={busy}
      onSubmit={submit}
      notice={notice}
      maxWidth="xs"
      title={t('export.title', { name: target?.name ?? '' })}
      actions={
        <>
          <CancelButton onClick={onClose} disabled={busy} />
          <SubmitButton busy={busy}>{t('export.submit')}</SubmitButton>
        </>
      }
    >
      <PeriodFields period={period} fromLabel={t('export.from')} toLabel={t('export.to')} />
      <FormLabel id={formatLabel} sx={{ mt: 2, display: 'block' }}>
        {t('export.format')}
      </FormLabel>
      <RadioGroup
        aria-labelledby={formatLabel}
        value={format}
        onChange={(event) => setFormat(event.target.value as PositionExportFormat)}
      >
        {POSITION_EXPORT_FORMATS.map((value) => (
          <FormControlLabel key={value} value={value} control={<Radio />} label={t(`export.${value}`)} />
        ))}
      </RadioGroup>
    </FormDialog>
  );
}

/** An icon button that exports a user's positions (a user's row, a member's trail). */
export function PositionExportButton({ target }: { target: PositionExportTarget }) {
  const { t } = useTranslation('tracking');
  const [open, setOpen] = useState(false);
  const label = t('export.userButton', { name: target.name });
  return (
    <>
      <Tooltip title={label}>
        <IconButton size="small" aria-label={label} onClick={() => setOpen(true)}>
          <FileDownloadOutlined fontSize="small" />
        </IconButton>
      </Tooltip>
      <PositionExportDialog target={open ? target : null} onClose={() => setOpen(false)} />
    </>
  );
}
