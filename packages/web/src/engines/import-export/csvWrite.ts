/**
 * Rows as CSV text, cells written by protocol's one rule (quoting, and no cell a spreadsheet would run as a
 * formula: csv.ts there), with a byte order mark so that spreadsheets read it as UTF-8.
 */
import { csvLines } from '@talkgroup/protocol';
import type { SheetColumn, SheetRow } from './workbook.ts';

export function csvOf(columns: SheetColumn[], rows: SheetRow[], separator = ','): string {
  const lines = [
    columns.map((column) => column.header),
    ...rows.map((row) => columns.map((column) => row[column.key])),
  ];
  return `\uFEFF${csvLines(lines, separator)}`;
}
