/** Spreadsheets in and out of the users and channels lists (the toolbar buttons, each with its flow), and rows of other lists out. */

export type { ImportKind, Report } from './import-rows.ts';
export { type ExportRows, RowsExportMenu, type RowsExportMenuProps } from './RowsExportMenu.tsx';
export { DownloadModelButton, ExportButton, ImportButton } from './SpreadsheetButtons.tsx';
