/**
 * Reading and writing spreadsheets. ExcelJS (about 1 MB) is loaded with a dynamic import the first time a file is
 * read or written, so it never weighs on the first page load.
 *
 *   readSpreadsheet(file)            .xlsx or .csv -> { columns, rows } (first row = header)
 *   writeXlsx({ sheetName, columns, rows }) -> Blob of a real .xlsx (writeXlsxSheets: several sheets)
 *   saveFile(blob, fileName)         makes the browser download it
 */
import type { CellValue, Workbook } from 'exceljs';
import { parseCsv } from './csv.ts';

export type Cell = string | number | boolean | null;
export type SheetRow = Record<string, Cell>;

export interface SheetData {
  columns: string[];
  rows: SheetRow[];
}

export interface SheetColumn {
  header: string;
  key: string;
  width?: number;
}

export const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

let excel: Promise<typeof import('exceljs')> | undefined;
function loadExcelJS(): Promise<typeof import('exceljs')> {
  // The browser build is a UMD bundle: its namespace sits on `default` after bundling.
  excel ??= import('exceljs').then((mod) => (mod as { default?: typeof import('exceljs') }).default ?? mod);
  return excel;
}

async function newWorkbook(): Promise<Workbook> {
  const ExcelJS = await loadExcelJS();
  return new ExcelJS.Workbook();
}

/** ExcelJS cell values (rich text, hyperlinks, formulas, dates) as plain values. */
export function plainCell(value: CellValue | undefined): Cell {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') {
    if ('richText' in value) return value.richText.map((part) => part.text).join('');
    if ('hyperlink' in value) return plainCell(value.text as CellValue);
    if ('result' in value) return plainCell(value.result as CellValue);
    if ('error' in value) return null;
  }
  return String(value);
}

/** A header row and records as rows keyed by the (trimmed) header names; blank columns are dropped. */
export function recordsToSheet(records: Cell[][]): SheetData {
  const [header = [], ...body] = records;
  const columns = header.map((name) => String(name ?? '').trim());
  const kept = columns.map((name, index) => ({ name, index })).filter((c) => c.name !== '');
  const rows = body
    .filter((record) => record.some((cell) => cell !== null && String(cell).trim() !== ''))
    .map((record) => Object.fromEntries(kept.map((c) => [c.name, record[c.index] ?? null])) as SheetRow);
  return { columns: kept.map((c) => c.name), rows };
}

export function isCsv(file: File): boolean {
  return /\.csv$/i.test(file.name) || file.type === 'text/csv';
}

export async function readSpreadsheet(file: File): Promise<SheetData> {
  if (isCsv(file)) return recordsToSheet(parseCsv(await file.text()));
  const workbook = await newWorkbook();
  await workbook.xlsx.load(await file.arrayBuffer());
  const sheet = workbook.worksheets[0];
  if (!sheet) return { columns: [], rows: [] };
  const records: Cell[][] = [];
  sheet.eachRow({ includeEmpty: false }, (row) => {
    const record: Cell[] = [];
    row.eachCell({ includeEmpty: true }, (cell, column) => {
      record[column - 1] = plainCell(cell.value);
    });
    records.push(Array.from(record, (cell) => cell ?? null));
  });
  return recordsToSheet(records);
}

export interface SheetOut {
  sheetName: string;
  columns: SheetColumn[];
  rows: SheetRow[];
}

export async function writeXlsx(sheet: SheetOut): Promise<Blob> {
  return writeXlsxSheets([sheet]);
}

/** One workbook of several sheets, in this order (a report: a sheet per measure). */
export async function writeXlsxSheets(sheets: SheetOut[]): Promise<Blob> {
  const workbook = await newWorkbook();
  for (const sheet of sheets) {
    const worksheet = workbook.addWorksheet(sheet.sheetName);
    worksheet.columns = sheet.columns.map((c) => ({ header: c.header, key: c.key, width: c.width ?? 20 }));
    worksheet.getRow(1).font = { bold: true };
    for (const row of sheet.rows) worksheet.addRow(row);
  }
  const buffer = await workbook.xlsx.writeBuffer();
  return new Blob([buffer as ArrayBuffer], { type: XLSX_MIME });
}

export function saveFile(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // Give the browser time to start the download before the URL goes.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
