/**
 * CSV cells, one rule for every CSV the product writes (the web app's exports, the server's voice export):
 * - a text that a spreadsheet would read as a formula (OWASP, "CSV Injection"; ASVS 1.2.10) starts with an
 *   apostrophe, which spreadsheets take as "this is text" and do not show: a first character `=`, `+`, `-`,
 *   `@` (or their full-width forms, which some spreadsheets read alike), a tab, a carriage return, a line feed
 *   or a NUL, also after leading spaces (some spreadsheets trim them before they look);
 * - quoted as RFC 4180 says (sections 2.6 and 2.7: a doubled `"` inside) when it holds a quote, a line break,
 *   the separator, or any other common separator (`,`, `;`, a tab): a file read with another separator than
 *   the one it was written with (a French spreadsheet expects `;`) still cannot split a cell in two and start
 *   the second half with a formula.
 * Numbers and booleans are the product's own values: written as they are (a negative number stays a number).
 */

export type CsvValue = string | number | boolean | null | undefined;

const FORMULA_START = /^[ \u00a0]*[=+\-@\uff1d\uff0b\uff0d\uff20]|^[\t\r\n\0]/;
const NEEDS_QUOTES = /[",;\t\r\n]/;

/** Whether a spreadsheet could read this text as a formula (it then gets a leading apostrophe). */
export function looksLikeFormula(text: string): boolean {
  return FORMULA_START.test(text);
}

/** One cell, neutralised and quoted for a file whose cells are separated by `separator`. */
export function csvCell(value: CsvValue, separator = ','): string {
  if (value === null || value === undefined) return '';
  if (typeof value !== 'string') return String(value);
  const text = looksLikeFormula(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) || text.includes(separator) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One line of cells (without its line break). */
export function csvLine(values: readonly CsvValue[], separator = ','): string {
  return values.map((value) => csvCell(value, separator)).join(separator);
}

/** Whole lines, each ended by CRLF (RFC 4180 section 2.1). */
export function csvLines(rows: ReadonlyArray<readonly CsvValue[]>, separator = ','): string {
  return rows.map((row) => `${csvLine(row, separator)}\r\n`).join('');
}
