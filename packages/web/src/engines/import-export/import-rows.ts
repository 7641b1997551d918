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
  parseRoleCell,
  parseTalkPriorityCell,
  USER_IMPORT_COLUMNS,
  USER_IMPORT_FIELDS,
  USER_IMPORT_OPTIONAL_COLUMNS,
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
  const names = kind === 'users' ? [...IMPORT_COLUMNS.users, ...USER_IMPORT_OPTIONAL_COLUMNS] : IMPORT_COLUMNS[kind];
  const known = new Map(names.map((name) => [name.toLowerCase(), name]));
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
  if (kind === 'users' && parseRoleCell(row.role) === null) invalid.add('role');
  if (kind === 'users' && parseTalkPriorityCell(row.talkPriority) === null) invalid.add('talkPriority');
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

/**
 * The spec's three groups, and for users (issue 17) the fourth, `updated`, with the channels the file named that
 * do not exist (`unknownChannels`) or that the import created (`createdChannels`).
 */
export type Report = ImportReport<Record<string, unknown>> & {
  updated?: Array<Record<string, unknown>>;
  unknownChannels?: string[];
  createdChannels?: string[];
};

/** What a user import may also do (issue 17). */
export interface ImportOptions {
  /** Update the users whose login exists (a blank password keeps theirs). */
  update?: boolean;
  /** Create the channels of `canal` that do not exist. */
  createChannels?: boolean;
}

export function emptyReport(): Report {
  return { added: [], alreadyExisting: [], notAdded: [], updated: [], unknownChannels: [], createdChannels: [] };
}

const union = (a: string[] = [], b: string[] = []) => [...new Set([...a, ...b])];

export function addToReport(total: Report, part: Report): Report {
  const createdChannels = union(total.createdChannels, part.createdChannels);
  return {
    added: total.added.concat(part.added),
    alreadyExisting: total.alreadyExisting.concat(part.alreadyExisting),
    notAdded: total.notAdded.concat(part.notAdded),
    updated: (total.updated ?? []).concat(part.updated ?? []),
    // A channel created by an earlier chunk is no longer unknown.
    unknownChannels: union(total.unknownChannels, part.unknownChannels).filter(
      (name) => !createdChannels.includes(name),
    ),
    createdChannels,
  };
}

/** The result as rows of a spreadsheet: the import columns (never the password), the group and the reason. */
export function resultRows(
  kind: ImportKind,
  report: Report,
  groupName: (group: 'notAdded' | 'alreadyExisting' | 'added' | 'updated') => string,
  reasonText: (row: Record<string, unknown>) => string,
) {
  const keys = IMPORT_COLUMNS[kind].filter((key) => key !== 'password');
  const columns = [...keys, 'result', 'reason'].map((key) => ({ header: key, key, width: key === 'reason' ? 40 : 20 }));
  const groups = ['notAdded', 'alreadyExisting', 'updated', 'added'] as const;
  const rows = groups.flatMap((group) =>
    (report[group] ?? []).map((row) => ({
      ...Object.fromEntries(keys.map((key) => [key, row[key] === undefined ? null : (row[key] as SheetRow[string])])),
      result: groupName(group),
      reason: reasonText(row),
    })),
  );
  return { columns, rows };
}
