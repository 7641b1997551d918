/**
 * The import result in three groups (spec section 2): not added, already existing, added successfully; and
 * updated, when a user import updates existing users (issue 17). Each row says why it is where it is, the
 * channels of `canal` that do not exist (or were created) are named, and the whole result downloads as a
 * spreadsheet with a reason column.
 */
import CheckIcon from '@mui/icons-material/CheckCircleOutlineOutlined';
import ErrorIcon from '@mui/icons-material/ErrorOutlineOutlined';
import DownloadIcon from '@mui/icons-material/FileDownloadOutlined';
import InfoIcon from '@mui/icons-material/InfoOutlined';
import UpdateIcon from '@mui/icons-material/PublishedWithChangesOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import {
  CreateChannel,
  normalizeName,
  rtcSessionOf,
  splitChannelNames,
  UpdateUserChannelsByChannelName,
} from '@talkgroup/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, api } from '../../api/client.ts';
import { refreshDirectory } from '../../api/directory.ts';
import { failureNotice } from '../../components/failureNotice.ts';
import { useNotify } from '../../components/Notifier.tsx';
import { type ImportKind, type Report, resultRows } from './import-rows.ts';
import { saveFile, writeXlsx } from './workbook.ts';

/** Long lists are cut: the counts say everything, the names are for a glance (the download has every row). */
const SHOWN = 100;
type Row = Record<string, unknown>;
type Group = 'notAdded' | 'alreadyExisting' | 'added' | 'updated';

function describe(kind: ImportKind, row: Row): string {
  const text = (key: string) => (row[key] === null || row[key] === undefined ? '' : String(row[key]).trim());
  if (kind === 'channels') return text('name') || '—';
  const name = `${text('firstName')} ${text('lastName')}`.trim();
  return [text('identifier'), name].filter(Boolean).join(' · ') || '—';
}

function useReason() {
  const { t } = useTranslation('users');
  return (row: Row) =>
    typeof row.reason === 'string'
      ? t(`spreadsheet.reasons.${row.reason}` as never, { field: String(row.field ?? ''), defaultValue: row.reason })
      : '';
}

function GroupPanel({
  title,
  rows,
  kind,
  color,
  icon,
}: {
  title: string;
  rows: Row[];
  kind: ImportKind;
  color: 'error' | 'warning' | 'success' | 'info';
  icon: ReactNode;
}) {
  const { t } = useTranslation('users');
  const reason = useReason();
  const id = useId();
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby={id}
      sx={{ p: 2, borderLeft: 4, borderLeftColor: `${color}.main`, minWidth: 0 }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 1 }}>
        <Box sx={{ color: `${color}.main`, display: 'flex' }}>{icon}</Box>
        <Typography id={id} variant="subtitle1" component="h3" sx={{ fontWeight: 700, flex: 1 }}>
          {title}
        </Typography>
        <Chip size="small" color={color} label={rows.length} />
      </Box>
      {rows.length === 0 ? (
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('spreadsheet.none')}
        </Typography>
      ) : (
        <Box component="ul" sx={{ m: 0, pl: 2.5, maxHeight: 240, overflowY: 'auto' }}>
          {rows.slice(0, SHOWN).map((row, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: rows of a finished report never move
            <Typography component="li" variant="body2" key={index} sx={{ wordBreak: 'break-word' }}>
              {describe(kind, row)}
              {reason(row) ? (
                <Box component="span" sx={{ color: 'text.secondary' }}>
                  {' — '}
                  {reason(row)}
                </Box>
              ) : null}
            </Typography>
          ))}
          {rows.length > SHOWN ? (
            <Typography component="li" variant="body2" sx={{ color: 'text.secondary', listStyle: 'none' }}>
              {t('spreadsheet.more', { count: rows.length - SHOWN })}
            </Typography>
          ) : null}
        </Box>
      )}
    </Paper>
  );
}

export function ImportResult({
  kind,
  report,
  updating = false,
}: {
  kind: ImportKind;
  report: Report;
  updating?: boolean;
}) {
  const { t } = useTranslation('users');
  const reason = useReason();
  const groupTitle = (group: Group) => t(`spreadsheet.${group}` as never);
  const download = async () => {
    const { columns, rows } = resultRows(kind, report, groupTitle, reason);
    saveFile(
      await writeXlsx({ sheetName: t('spreadsheet.resultTitle'), columns, rows }),
      `${t('spreadsheet.resultFile')}.xlsx`,
    );
  };
  const notify = useNotify();
  const queryClient = useQueryClient();
  const [createdLater, setCreatedLater] = useState<string[]>([]);
  const [creating, setCreating] = useState(false);
  const unknown = (report.unknownChannels ?? []).filter((name) => !createdLater.includes(name));
  const created = [...(report.createdChannels ?? []), ...createdLater];

  /** The choice the result offers: create the unknown channels, then put the imported users in them. */
  const createUnknown = async () => {
    setCreating(true);
    const names = [...unknown];
    try {
      for (const name of names) {
        try {
          await api(CreateChannel, { channelName: name });
        } catch (error) {
          // Created meanwhile (by another administrator, or a twin spelled with other spaces): it exists now.
          if (!(error instanceof ApiError && error.status === 409)) throw error;
        }
      }
      const keys = new Set(names.map(rtcSessionOf));
      for (const row of [...report.added, ...(report.updated ?? [])]) {
        const wanted = splitChannelNames(row.canal).filter((name) => keys.has(rtcSessionOf(normalizeName(name))));
        if (wanted.length > 0)
          await api(UpdateUserChannelsByChannelName, { userIdentifier: String(row.identifier), channelNames: wanted });
      }
      setCreatedLater((current) => [...current, ...names]);
      void refreshDirectory(queryClient);
    } catch (error) {
      notify(failureNotice(t, error));
    } finally {
      setCreating(false);
    }
  };
  return (
    <Stack spacing={2}>
      {unknown.length > 0 ? (
        <Alert
          severity="warning"
          action={
            kind === 'users' ? (
              <Button color="inherit" size="small" disabled={creating} onClick={() => void createUnknown()}>
                {t('spreadsheet.createUnknown', { count: unknown.length })}
              </Button>
            ) : undefined
          }
        >
          {t('spreadsheet.unknownChannels', { count: unknown.length, names: unknown.join(', ') })}
        </Alert>
      ) : null}
      {created.length > 0 ? (
        <Alert severity="info">
          {t('spreadsheet.createdChannels', { count: created.length, names: created.join(', ') })}
        </Alert>
      ) : null}
      <Box
        sx={{
          display: 'grid',
          gap: 2,
          gridTemplateColumns: {
            xs: '1fr',
            md: updating ? 'repeat(2, 1fr)' : 'repeat(3, 1fr)',
            lg: `repeat(${updating ? 4 : 3}, 1fr)`,
          },
        }}
      >
        <GroupPanel
          title={groupTitle('notAdded')}
          rows={report.notAdded}
          kind={kind}
          color="error"
          icon={<ErrorIcon />}
        />
        <GroupPanel
          title={groupTitle('alreadyExisting')}
          rows={report.alreadyExisting}
          kind={kind}
          color="warning"
          icon={<InfoIcon />}
        />
        <GroupPanel title={groupTitle('added')} rows={report.added} kind={kind} color="success" icon={<CheckIcon />} />
        {updating ? (
          <GroupPanel
            title={groupTitle('updated')}
            rows={report.updated ?? []}
            kind={kind}
            color="info"
            icon={<UpdateIcon />}
          />
        ) : null}
      </Box>
      <Box>
        <Button variant="outlined" startIcon={<DownloadIcon />} onClick={() => void download()}>
          {t('spreadsheet.downloadResult')}
        </Button>
      </Box>
    </Stack>
  );
}
