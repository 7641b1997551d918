/** Rows as CSV text (RFC 4180 quoting), with a byte order mark so that spreadsheets read it as UTF-8. */
import type { SheetColumn, SheetRow } from './workbook.ts';

function field(value: unknown, separator: string): string {
  const text = value === null || value === undefined ? '' : String(value);
  return text.includes(separator) || /["\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvOf(columns: SheetColumn[], rows: SheetRow[], separator = ','): string {
  const lines = [
    columns.map((column) => field(column.header, separator)).join(separator),
    ...rows.map((row) => columns.map((column) => field(row[column.key], separator)).join(separator)),
  ];
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}
