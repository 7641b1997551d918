/** Unique violations of either dialect (SQLite: SQLITE_CONSTRAINT_UNIQUE; PostgreSQL: 23505). */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: unknown; errcode?: unknown; message?: unknown };
  return (
    e?.code === '23505' ||
    e?.errcode === 2067 ||
    // A primary key taken (SQLITE_CONSTRAINT_PRIMARYKEY).
    e?.errcode === 1555 ||
    (e?.code === 'ERR_SQLITE_ERROR' && String(e.message).includes('UNIQUE constraint failed'))
  );
}
