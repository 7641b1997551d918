/**
 * The report's files: a measure's table as CSV or as xlsx, and the whole report as one xlsx with a sheet per
 * measure, named like `rapport-2026-11-01-2026-11-08.xlsx` (the period's first and last days, both included).
 * Durations are minutes as numbers (the header says "(min)"), counts numbers. No text runs as a formula: CSV cells
 * go through protocol's csv.ts (csvOf: a leading apostrophe), and xlsx cells are typed text cells, never formulas,
 * as in the users' and activities' exports (writeXlsx; csvWrite.test.ts checks it), so a name stays as it was.
 */
import type { TFunction } from 'i18next';
import { csvOf, type SheetOut, saveFile, writeXlsxSheets } from '../../engines/import-export/index.ts';
import { fileCell } from './format.ts';
import type { Measure } from './measures.ts';

type T = TFunction<'reports'>;

export interface ExportContext {
  t: T;
  language: string;
  timeZone: string;
  fromDay: string;
  toDay: string;
}

/** Excel refuses a sheet name over 31 characters or with any of : \ / ? * [ ]. */
function sheetName(title: string, taken: Set<string>): string {
  const base = title
    .replace(/[:\\/?*[\]]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 31)
    .trim();
  let name = base;
  for (let index = 2; taken.has(name.toLowerCase()); index += 1) name = `${base.slice(0, 28)} ${index}`;
  taken.add(name.toLowerCase());
  return name;
}

/** A measure as a sheet: its columns (durations in minutes) and its rows as file cells. */
export function measureSheet(measure: Measure, { t, timeZone }: ExportContext, taken = new Set<string>()): SheetOut {
  const columns = measure.columns.map((column) => ({
    key: column.key,
    header: column.kind === 'duration' ? t('export.minutes', { name: column.header }) : column.header,
    width: column.kind === 'text' ? 28 : Math.max(12, Math.min(30, column.header.length + 4)),
  }));
  const rows = measure.rows.map((row) =>
    Object.fromEntries(
      measure.columns.map((column) => [column.key, fileCell(row[column.key] ?? null, column.kind, timeZone)]),
    ),
  );
  return { sheetName: sheetName(measure.title, taken), columns, rows };
}

/** 'Temps de parole par canal' -> 'temps-de-parole-par-canal'. */
function slug(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

export function reportFileName(context: ExportContext, extension: 'csv' | 'xlsx', measure?: Measure): string {
  const parts = [context.t('export.file'), ...(measure ? [slug(measure.title)] : []), context.fromDay, context.toDay];
  return `${parts.join('-')}.${extension}`;
}

export async function exportMeasure(measure: Measure, format: 'csv' | 'xlsx', context: ExportContext): Promise<void> {
  const sheet = measureSheet(measure, context);
  // French and German spreadsheets read a comma as a decimal mark: they expect semicolons (as the other exports).
  const separator = context.language === 'en' ? ',' : ';';
  const blob =
    format === 'xlsx'
      ? await writeXlsxSheets([sheet])
      : new Blob([csvOf(sheet.columns, sheet.rows, separator)], { type: 'text/csv;charset=utf-8' });
  saveFile(blob, reportFileName(context, format, measure));
}

/** The whole report: one workbook, a sheet per measure in the page's order. */
export async function exportWholeReport(measures: Measure[], context: ExportContext): Promise<void> {
  const taken = new Set<string>();
  const sheets = measures.map((measure) => measureSheet(measure, context, taken));
  saveFile(await writeXlsxSheets(sheets), reportFileName(context, 'xlsx'));
}
