/**
 * The import flow (spec sections 2, 5 and 8) for users or channels, once a file is chosen:
 * read it (.xlsx or .csv) -> show its rows with missing or invalid cells in red -> 'Are you sure?' -> send the rows
 * in chunks of IMPORT_CHUNK with a progress bar (each chunk is one request, so the page stays responsive) ->
 * the result in three groups: not added, already existing, added successfully (and updated, for a user import
 * that updates existing users: issue 17), each row with its reason, downloadable as a spreadsheet.
 * A big user file is a job on the server (issue 29): its progress bar follows getImportJob about once a second,
 * the dialog may be closed meanwhile (the import goes on), and the result shows when the job ends.
 * Props: `kind` ('users' | 'channels'), `file` (null = closed), `onClose()`, optional `onImported(report)`.
 */
import ErrorIcon from '@mui/icons-material/ErrorOutlineOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { GetImportJob } from '@talkgroup/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { MaterialReactTable, type MRT_Column, type MRT_ColumnDef, type MRT_Row } from 'material-react-table';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { refreshDirectory } from '../../api/directory.ts';
import { useApiQuery } from '../../api/queries.ts';
import { useConfirm } from '../../components/ConfirmProvider.tsx';
import { DialogAlert } from '../../components/DialogAlert.tsx';
import { FormDialog } from '../../components/FormDialog.tsx';
import { failureNotice } from '../../components/failureNotice.ts';
import { type Notice, useNotify } from '../../components/Notifier.tsx';
import { useConsoleTable } from '../../components/table/useConsoleTable.ts';
import { type StartedJob, useImportRows } from './api/importRows.ts';
import { ImportResult } from './ImportResult.tsx';
import {
  canonicalRow,
  IMPORT_COLUMNS,
  type ImportKind,
  type ImportOptions,
  invalidCells,
  type Report,
  withoutDuplicates,
} from './import-rows.ts';
import { readSpreadsheetOffThread } from './readOffThread.ts';
import type { SheetRow } from './workbook.ts';

export interface ImportDialogProps {
  kind: ImportKind;
  file: File | null;
  onClose: () => void;
  onImported?: (report: Report) => void;
}

type Phase =
  | { name: 'reading' }
  | { name: 'unreadable' }
  | { name: 'preview'; rows: PreviewRow[]; unique: SheetRow[] }
  | { name: 'sending'; done: number; total: number }
  | { name: 'job'; job: StartedJob }
  | { name: 'result'; report: Report; error?: string | null }
  | { name: 'failed'; notice: Notice };

interface PreviewRow {
  index: number;
  cells: SheetRow;
  invalid: Set<string>;
}

/** Only the import columns travel: a stray column of the file is not the server's business. */
function pick(kind: ImportKind, row: SheetRow): SheetRow {
  return Object.fromEntries(IMPORT_COLUMNS[kind].map((key) => [key, row[key] ?? null]));
}

export function ImportDialog({ kind, file, onClose, onImported }: ImportDialogProps) {
  const { t } = useTranslation(['users', 'common']);
  const notify = useNotify();
  const confirm = useConfirm();
  const titleId = useId();
  const importRows = useImportRows();
  const [phase, setPhase] = useState<Phase>({ name: 'reading' });
  const [options, setOptions] = useState<ImportOptions>({});

  useEffect(() => {
    if (!file) return;
    let cancelled = false;
    setPhase({ name: 'reading' });
    readSpreadsheetOffThread(file).then(
      (sheet) => {
        if (cancelled) return;
        const cells = sheet.rows.map((row) => pick(kind, canonicalRow(kind, row)));
        setPhase({
          name: 'preview',
          rows: cells.map((row, index) => ({ index: index + 2, cells: row, invalid: invalidCells(kind, row) })),
          unique: withoutDuplicates(kind, cells),
        });
      },
      () => !cancelled && setPhase({ name: 'unreadable' }),
    );
    return () => {
      cancelled = true;
    };
  }, [file, kind]);

  const start = async (rows: SheetRow[]) => {
    if (
      !(await confirm({
        title: t('common:confirm.title'),
        message: t('users:spreadsheet.confirm', { count: rows.length }),
      }))
    )
      return;
    setPhase({ name: 'sending', done: 0, total: rows.length });
    try {
      const { report, failure, job } = await importRows.mutateAsync({
        kind,
        rows,
        options: kind === 'users' ? options : {},
        onProgress: (done) => setPhase({ name: 'sending', done, total: rows.length }),
      });
      if (job) {
        setPhase({ name: 'job', job });
        return;
      }
      // Part of the file went in: show what did, and say the rest failed.
      if (failure) notify(failureNotice(t, failure));
      setPhase({ name: 'result', report });
      onImported?.(report);
    } catch (error) {
      setPhase({ name: 'failed', notice: failureNotice(t, error) });
    }
  };

  const jobEnded = (report: Report, error: string | null) => {
    setPhase({ name: 'result', report, error });
    onImported?.(report);
  };

  const busy = phase.name === 'sending';
  const title = kind === 'users' ? t('users:spreadsheet.importUsersTitle') : t('users:spreadsheet.importChannelsTitle');

  return (
    <FormDialog
      open={file !== null}
      title={phase.name === 'result' ? t('users:spreadsheet.resultTitle') : title}
      onClose={onClose}
      busy={busy}
      maxWidth="lg"
      actions={
        phase.name === 'preview' ? (
          <>
            <Button onClick={onClose} color="inherit" variant="outlined">
              {t('common:actions.cancel')}
            </Button>
            <Button variant="contained" disabled={phase.unique.length === 0} onClick={() => start(phase.unique)}>
              {t('users:spreadsheet.submit')}
            </Button>
          </>
        ) : (
          <Button onClick={onClose} disabled={busy} variant={phase.name === 'result' ? 'contained' : 'outlined'}>
            {t('common:actions.close')}
          </Button>
        )
      }
    >
      {phase.name === 'reading' ? (
        <Stack spacing={2} sx={{ py: 3 }}>
          <Typography>{t('users:spreadsheet.reading')}</Typography>
          <LinearProgress aria-label={t('users:spreadsheet.reading')} />
        </Stack>
      ) : null}
      {phase.name === 'unreadable' ? <Alert severity="error">{t('users:spreadsheet.unreadable')}</Alert> : null}
      {phase.name === 'preview' && kind === 'users' && phase.rows.length > 0 ? (
        <FormGroup sx={{ mb: 1 }}>
          <FormControlLabel
            control={
              <Checkbox
                checked={options.update === true}
                onChange={(event) => setOptions((current) => ({ ...current, update: event.target.checked }))}
              />
            }
            label={t('users:spreadsheet.updateOption')}
          />
          <FormControlLabel
            control={
              <Checkbox
                checked={options.createChannels === true}
                onChange={(event) => setOptions((current) => ({ ...current, createChannels: event.target.checked }))}
              />
            }
            label={t('users:spreadsheet.createChannelsOption')}
          />
        </FormGroup>
      ) : null}
      {phase.name === 'preview' ? (
        <Preview kind={kind} fileName={file?.name ?? ''} rows={phase.rows} uniqueCount={phase.unique.length} />
      ) : null}
      {phase.name === 'sending' ? (
        <Stack spacing={2} sx={{ py: 3 }}>
          <Typography id={`${titleId}-progress`}>
            {t('users:spreadsheet.sending', { done: phase.done, total: phase.total })}
          </Typography>
          <LinearProgress
            variant="determinate"
            value={phase.total === 0 ? 100 : (100 * phase.done) / phase.total}
            aria-labelledby={`${titleId}-progress`}
            sx={{ height: 10, borderRadius: 5 }}
          />
        </Stack>
      ) : null}
      {phase.name === 'job' && file !== null ? <JobProgress job={phase.job} onEnded={jobEnded} /> : null}
      {phase.name === 'result' && phase.error ? (
        <Alert severity="error" sx={{ mb: 2 }}>
          {t('users:spreadsheet.jobFailed', { error: phase.error })}
        </Alert>
      ) : null}
      {phase.name === 'result' ? (
        <ImportResult kind={kind} report={phase.report} updating={kind === 'users' && options.update === true} />
      ) : null}
      {phase.name === 'failed' ? <DialogAlert notice={phase.notice} /> : null}
    </FormDialog>
  );
}

/** How a job on the server goes, asked about once a second until it ends (the dialog closed, no more asking). */
function JobProgress({ job, onEnded }: { job: StartedJob; onEnded: (report: Report, error: string | null) => void }) {
  const { t } = useTranslation('users');
  const queryClient = useQueryClient();
  const progress = useApiQuery(
    GetImportJob,
    { jobId: job.jobId },
    {
      refetchInterval: (query) =>
        query.state.data?.state === 'done' || query.state.data?.state === 'failed' ? false : 1000,
      refetchIntervalInBackground: true,
      gcTime: 0,
    },
  );
  const now = progress.data;
  const ended = now?.state === 'done' || now?.state === 'failed';
  const told = useRef(false);
  useEffect(() => {
    if (!now || !ended || !now.result || told.current) return;
    told.current = true;
    void refreshDirectory(queryClient);
    onEnded(now.result, now.state === 'failed' ? (now.error ?? '') : null);
  }, [now, ended, onEnded, queryClient]);
  const done = now?.done ?? job.done;
  const total = now?.total ?? job.total;
  return (
    <Stack spacing={2} sx={{ py: 3 }}>
      <Typography>{t('spreadsheet.jobDone', { done, total })}</Typography>
      <LinearProgress
        variant="determinate"
        value={total === 0 ? 100 : (100 * done) / total}
        aria-label={t('spreadsheet.jobProgress')}
        aria-valuetext={t('spreadsheet.jobDone', { done, total })}
        sx={{ height: 10, borderRadius: 5 }}
      />
      <Alert severity="info">{t('spreadsheet.jobBackground')}</Alert>
      {progress.error ? <Alert severity="warning">{progress.error.message}</Alert> : null}
    </Stack>
  );
}

function Preview({
  kind,
  fileName,
  rows,
  uniqueCount,
}: {
  kind: ImportKind;
  fileName: string;
  rows: PreviewRow[];
  uniqueCount: number;
}) {
  const { t } = useTranslation('users');
  const invalidRows = rows.filter((row) => row.invalid.size > 0).length;
  const duplicates = rows.length - uniqueCount;
  const columns = useMemo<MRT_ColumnDef<PreviewRow>[]>(
    () => [
      { accessorKey: 'index', header: '#', size: 50, enableSorting: false },
      ...IMPORT_COLUMNS[kind].map(
        (key): MRT_ColumnDef<PreviewRow> => ({
          id: key,
          header: key,
          size: key === 'identifier' ? 200 : key === 'canal' ? 170 : 130,
          accessorFn: (row) => String(row.cells[key] ?? ''),
          Cell: previewCell,
          muiTableBodyCellProps: ({ row }) =>
            row.original.invalid.has(key)
              ? {
                  title: t('spreadsheet.missingCell'),
                  'aria-invalid': true,
                  'data-missing': 'true',
                  sx: { bgcolor: 'rgba(179, 38, 30, 0.14)', boxShadow: 'inset 0 0 0 1px rgba(179, 38, 30, 0.6)' },
                }
              : {},
        }),
      ),
    ],
    [kind, t],
  );
  const table = useConsoleTable<PreviewRow>({
    columns,
    data: rows,
    getRowId: (row) => String(row.index),
    enableSorting: false,
    enableTopToolbar: false,
    pageSizes: [10, 25, 50],
    initialState: { pagination: { pageIndex: 0, pageSize: 10 }, density: 'compact' },
  });
  if (rows.length === 0) return <Alert severity="warning">{t('spreadsheet.noRows')}</Alert>;
  return (
    <Stack spacing={2}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center' }}>
        <Typography sx={{ mr: 1 }}>{t('spreadsheet.preview', { count: rows.length, file: fileName })}</Typography>
        {duplicates > 0 ? <Chip size="small" label={t('spreadsheet.duplicates', { count: duplicates })} /> : null}
      </Box>
      {invalidRows > 0 ? (
        <Alert severity="warning" icon={<ErrorIcon />}>
          {t('spreadsheet.missingHint')}
        </Alert>
      ) : null}
      <Typography variant="caption" sx={{ color: 'text.secondary' }}>
        {t('spreadsheet.columns', { columns: IMPORT_COLUMNS[kind].join(', ') })}
      </Typography>
      <MaterialReactTable table={table} />
    </Stack>
  );
}

/** A preview cell; a password shows that it is there, never what it is. MRT calls it as a function. */
function previewCell({ row, column }: { row: MRT_Row<PreviewRow>; column: MRT_Column<PreviewRow> }) {
  const value = row.original.cells[column.id];
  const text = value === null || value === undefined ? '' : String(value);
  return column.id === 'password' && text.trim() !== '' ? '••••••' : text;
}
