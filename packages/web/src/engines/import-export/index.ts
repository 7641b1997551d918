/**
 * Spreadsheets in and out of the users and channels lists (the toolbar buttons, each with its flow), and rows of
 * other lists out (the activity log's menu; the reports' files, written with writeXlsxSheets, csvOf and saveFile).
 */

export { csvOf } from './csvWrite.ts';
export type { ImportKind, Report } from './import-rows.ts';
export { type ExportRows, RowsExportMenu, type RowsExportMenuProps } from './RowsExportMenu.tsx';
export { DownloadModelButton, ExportButton, ImportButton } from './SpreadsheetButtons.tsx';
export { type SheetColumn, type SheetOut, type SheetRow, saveFile, writeXlsxSheets } from './workbook.ts';
