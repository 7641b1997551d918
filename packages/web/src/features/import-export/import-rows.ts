/**
 * What the import preview shows and what it sends (spec section 5). The server applies the same rules again
 * (packages/protocol/src/rules.ts); here they only decide which cells are red and drop exact duplicates before the
 * rows are split into chunks, so that a duplicate in another chunk is not reported as already existing.
 */
import {
  dedupeUserRows,
  type ImportReport,
  isBlank,
  normaliseImportRow,
  parseMapRight,
  USER_IMPORT_COLUMNS,
  USER_IMPORT_FIELDS,
} from '@talkgroup/protocol';
import type { SheetRow } from './workbook.ts';

export type ImportKind = 'users' | 'channels';

export const IMPORT_COLUMNS: Record<ImportKind, readonly string[]> = {
  users: USER_IMPORT_COLUMNS,
  channels: ['name'],
};
const REQUIRED: Record<ImportKind, readonly string[]> = { users: USER_IMPORT_FIELDS, channels: ['name'] };

/** Rows per createMultipleUsers / createMultipleChannels call: small enough to show progress, big enough to be quick. */
export const IMPORT_CHUNK = 200;

/**
 * Header names matched without regard to case ('FirstName' -> 'firstName'); for users, any column whose name
 * contains 'canal' becomes 'canal' (spec section 5).
 */
export function canonicalRow(kind: ImportKind, row: SheetRow): SheetRow {
  const known = new Map(IMPORT_COLUMNS[kind].map((name) => [name.toLowerCase(), name]));
  const out: SheetRow = {};
  for (const [key, value] of Object.entries(row)) out[known.get(key.trim().toLowerCase()) ?? key] = value;
  return kind === 'users' ? (normaliseImportRow(out) as SheetRow) : out;
}

/** The columns of a row that would make the server refuse it: blank required cells, an unknown mapRight spelling. */
export function invalidCells(kind: ImportKind, row: SheetRow): Set<string> {
  const invalid = new Set<string>();
  for (const field of REQUIRED[kind]) if (isBlank(row[field])) invalid.add(field);
  if (kind === 'users' && !invalid.has('mapRight') && parseMapRight(row.mapRight) === undefined)
    invalid.add('mapRight');
  return invalid;
}

/** Exact duplicates removed, first occurrence kept (users: on the six fields; channels: on the name). */
export function withoutDuplicates(kind: ImportKind, rows: SheetRow[]): SheetRow[] {
  if (kind === 'users') return dedupeUserRows(rows);
  const seen = new Set<string>();
  return rows.filter((row) => {
    const name = String(row.name ?? '').trim();
    if (name !== '' && seen.has(name)) return false;
    seen.add(name);
    return true;
  });
}

export function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

export type Report = ImportReport<Record<string, unknown>>;

export function emptyReport(): Report {
  return { added: [], alreadyExisting: [], notAdded: [] };
}

export function addToReport(total: Report, part: Report): Report {
  return {
    added: total.added.concat(part.added),
    alreadyExisting: total.alreadyExisting.concat(part.alreadyExisting),
    notAdded: total.notAdded.concat(part.notAdded),
  };
}
