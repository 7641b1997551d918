/** Spreadsheets in and out of the users and channels lists: the toolbar buttons, each with its flow. */

export type { ImportKind, Report } from './import-rows.ts';
export { DownloadModelButton, ExportButton, ImportButton } from './SpreadsheetButtons.tsx';
