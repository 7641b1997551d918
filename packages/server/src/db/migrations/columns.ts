/** What the migrations write differently on SQLite and PostgreSQL: time and real column types, the id column. */
import type { ColumnDataType, CreateTableBuilder, Kysely } from 'kysely';
import type { Dialect } from '../dialect.ts';

/** The database as a migration sees it: untyped, since each migration runs against the schema of its day. */
export type AnyDb = Kysely<unknown>;

export function columnsFor(dialect: Dialect) {
  const time: ColumnDataType = dialect === 'postgres' ? 'timestamptz' : 'text';
  const real: ColumnDataType = dialect === 'postgres' ? 'double precision' : 'real';
  const withId = <T extends string>(table: CreateTableBuilder<T, never>) =>
    dialect === 'postgres'
      ? table.addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity())
      : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
  return { time, real, withId };
}
