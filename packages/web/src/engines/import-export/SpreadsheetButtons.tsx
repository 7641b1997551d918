/**
 * Toolbar buttons of the users and channels lists:
 *   <ImportButton kind="users" | "channels" onImported?={(report) => ...} />  file picker (.xlsx, .csv) + ImportDialog
 *   <ExportButton kind="users" | "channels" />   Liste_coéquipiers.xlsx / Liste_canaux.xlsx
 *   <DownloadModelButton />                      model.xlsx, the user import template
 */
import DownloadIcon from '@mui/icons-material/FileDownloadOutlined';
import UploadIcon from '@mui/icons-material/FileUploadOutlined';
import TableIcon from '@mui/icons-material/TableChartOutlined';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNotify } from '../../components/Notifier.tsx';
import { downloadUserModel, exportChannels, exportUsers } from './exports.ts';
import { ImportDialog } from './ImportDialog.tsx';
import type { ImportKind, Report } from './import-rows.ts';
import { XLSX_MIME } from './workbook.ts';

const ACCEPT = `.xlsx,.csv,${XLSX_MIME},text/csv`;

export function ImportButton({ kind, onImported }: { kind: ImportKind; onImported?: (report: Report) => void }) {
  const { t } = useTranslation('users');
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  return (
    <>
      <Button variant="outlined" startIcon={<UploadIcon />} onClick={() => input.current?.click()}>
        {t('toolbar.import')}
      </Button>
      <input
        ref={input}
        type="file"
        accept={ACCEPT}
        hidden
        aria-label={t('spreadsheet.chooseFile')}
        data-import-kind={kind}
        onChange={(event) => {
          setFile(event.target.files?.[0] ?? null);
          event.target.value = '';
        }}
      />
      <ImportDialog kind={kind} file={file} onClose={() => setFile(null)} onImported={onImported} />
    </>
  );
}

function useFileAction(action: () => Promise<unknown>) {
  const { t } = useTranslation('users');
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    try {
      await action();
    } catch {
      notify({ severity: 'error', message: t('spreadsheet.exportFailed') });
    } finally {
      setBusy(false);
    }
  };
  return { busy, run };
}

export function ExportButton({ kind }: { kind: ImportKind }) {
  const { t } = useTranslation('users');
  const { busy, run } = useFileAction(() =>
    kind === 'users' ? exportUsers(t('spreadsheet.sheetUsers')) : exportChannels(t('spreadsheet.sheetChannels')),
  );
  return (
    <Button
      variant="outlined"
      onClick={run}
      disabled={busy}
      startIcon={busy ? <CircularProgress size={16} aria-hidden /> : <DownloadIcon />}
    >
      {t('toolbar.export')}
    </Button>
  );
}

export function DownloadModelButton() {
  const { t } = useTranslation('users');
  const { busy, run } = useFileAction(() => downloadUserModel(t('spreadsheet.sheetUsers')));
  return (
    <Button
      variant="text"
      onClick={run}
      disabled={busy}
      startIcon={busy ? <CircularProgress size={16} aria-hidden /> : <TableIcon />}
    >
      {t('toolbar.downloadModel')}
    </Button>
  );
}
