/**
 * Bounded `IN` lists. A store that reads rows for a set of ids asks for them in slices, so that its cost follows
 * the rows asked at any size (one query per 500 ids) instead of dropping the filter and reading every table.
 * 500 stays well under both dialects' bound-parameter limits (SQLite 32,766, PostgreSQL 65,535).
 */
export const IN_LIST_MAX = 500;

export function slices<T>(items: readonly T[], size = IN_LIST_MAX): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Runs `read` on each slice of `ids` (one after the other: one connection) and concatenates the rows. */
export async function inSlices<Id, Row>(
  ids: readonly Id[],
  read: (slice: Id[]) => Promise<Row[]>,
  size = IN_LIST_MAX,
): Promise<Row[]> {
  const rows: Row[] = [];
  for (const slice of slices(ids, size)) for (const row of await read(slice)) rows.push(row);
  return rows;
}
