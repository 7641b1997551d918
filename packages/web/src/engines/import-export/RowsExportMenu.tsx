/**
 * Hands out rows that another feature gathers (the filtered activity log) as a spreadsheet: a button opening a
 * menu of .xlsx and .csv. The rows are asked for only when a format is chosen.
 */
import DownloadIcon from '@mui/icons-material/FileDownloadOutlined';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { failureNotice } from '../../components/failureNotice.ts';
import { useNotify } from '../../components/Notifier.tsx';
import { csvOf } from './csvWrite.ts';
import { type SheetColumn, type SheetRow, saveFile, writeXlsx } from './workbook.ts';

export interface ExportRows {
  columns: SheetColumn[];
  rows: SheetRow[];
}

export interface RowsExportMenuProps {
  /** The button's text. */
  label: string;
  /** The file's name without its extension. */
  fileName: string;
  sheetName: string;
  load: () => Promise<ExportRows>;
}

export function RowsExportMenu({ label, fileName, sheetName, load }: RowsExportMenuProps) {
  const { t, i18n } = useTranslation('users');
  const notify = useNotify();
  const menuId = useId();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [busy, setBusy] = useState(false);

  const save = async (format: 'xlsx' | 'csv') => {
    setAnchor(null);
    setBusy(true);
    try {
      const { columns, rows } = await load();
      // French and German spreadsheets read a comma as a decimal mark: they expect semicolons.
      const separator = i18n.resolvedLanguage === 'en' ? ',' : ';';
      const blob =
        format === 'xlsx'
          ? await writeXlsx({ sheetName, columns, rows })
          : new Blob([csvOf(columns, rows, separator)], { type: 'text/csv;charset=utf-8' });
      saveFile(blob, `${fileName}.${format}`);
    } catch (error) {
      notify(failureNotice(t, error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button
        variant="outlined"
        aria-haspopup="menu"
        aria-controls={anchor ? menuId : undefined}
        aria-expanded={anchor ? true : undefined}
        disabled={busy}
        onClick={(event) => setAnchor(event.currentTarget)}
        startIcon={busy ? <CircularProgress size={16} aria-hidden /> : <DownloadIcon />}
      >
        {label}
      </Button>
      <Menu id={menuId} anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        <MenuItem onClick={() => void save('xlsx')}>{t('spreadsheet.asXlsx')}</MenuItem>
        <MenuItem onClick={() => void save('csv')}>{t('spreadsheet.asCsv')}</MenuItem>
      </Menu>
    </>
  );
}
