/**
 * A bench's PostgreSQL schema (bench:reports, bench:isolation): dropped with its connections ended first (a
 * statement may still run on one), on a connection of its own.
 */
import { Kysely, PostgresDialect, sql } from 'kysely';

export const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export async function dropSchema(schema: string): Promise<void> {
  const { default: pg } = await import('pg');
  const db = new Kysely<unknown>({
    dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: PG_URL, max: 1 }) }),
  });
  try {
    await sql`select pg_terminate_backend(pid) from pg_stat_activity
      where application_name = ${schema} and pid <> pg_backend_pid()`.execute(db);
    await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(db);
  } finally {
    await db.destroy();
  }
}
