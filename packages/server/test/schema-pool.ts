/**
 * PostgreSQL schemas for the unit tests, made once per run and handed from test to test.
 *
 * Making a migrated schema from its script takes about 0.5 s of PostgreSQL's CPU (55 tables, 65 indexes, 80
 * foreign keys) and dropping it 0.15 s; migrating the template and dumping it, once per test file, 3 s. Over a
 * run of a thousand PostgreSQL tests in 110 files, that was a third of the unit suite. So, during one run of
 * Vitest (TALKGROUP_TEST_RUN, set by test/global-setup.ts):
 * - the template's script is made by the first file that needs it and kept in the database for the others;
 * - a test's schema, once every instance on it has closed, is emptied back to the template's rows (its tables'
 *   rows deleted, the template's rows put back, its sequences set back) and handed to the next test. A schema
 *   whose tables no longer match the template's (a test changed them) is dropped instead.
 * The run's end drops every schema it made (global-setup.ts). Without TALKGROUP_TEST_RUN, or without the rights
 * to empty a schema with its foreign keys off, each test makes and drops its own, as before.
 */
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';

const TEMPLATES = 'talkgroup_test_templates';
const SCHEMAS = 'talkgroup_test_schemas';

export interface SchemaTemplate {
  /** The template schema's name, replaced by each copy's in the script. */
  name: string;
  /** pg_dump's script of the migrated template (with its rows). */
  script: string;
  /** schemaShape of the template. */
  shape: string;
}

export function testRun(): string | undefined {
  return process.env.TALKGROUP_TEST_RUN || undefined;
}

/** Where a run's files share the migrated SQLite file (migrated-copies.ts; removed at the run's end). */
export function sharedSqliteTemplate(run: string): string {
  return path.join(tmpdir(), `talkgroup-template-${run}.sqlite`);
}

/** One connection of its own for `work`, closed after it. */
export async function withClient<T>(databaseUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function ensureTables(client: pg.Client): Promise<void> {
  // Two runs may start together: creating a table that another made meanwhile is harmless (42P07, 23505).
  for (const statement of [
    `create table if not exists public.${TEMPLATES} (run text primary key, name text not null, script text not null, shape text not null, at timestamptz not null default now())`,
    `create table if not exists public.${SCHEMAS} (name text primary key, run text not null, free boolean not null, at timestamptz not null default now())`,
  ])
    await client.query(statement).catch((error: { code?: string }) => {
      if (error.code !== '42P07' && error.code !== '23505') throw error;
    });
}

/** The run's template: the one kept in the database, or `make`'s, kept for the run's other files. */
export async function sharedTemplate(
  databaseUrl: string,
  run: string,
  make: () => Promise<SchemaTemplate | undefined>,
): Promise<SchemaTemplate | undefined> {
  return withClient(databaseUrl, async (client) => {
    await ensureTables(client);
    const read = async () =>
      (await client.query(`select name, script, shape from public.${TEMPLATES} where run = $1`, [run])).rows[0] as
        | SchemaTemplate
        | undefined;
    const kept = await read();
    if (kept) return kept;
    // One file of the run makes it; the others wait for it here.
    await client.query('select pg_advisory_lock(hashtext($1))', [`talkgroup-template:${run}`]);
    try {
      const meanwhile = await read();
      if (meanwhile) return meanwhile;
      const made = await make();
      if (made)
        await client.query(`insert into public.${TEMPLATES} (run, name, script, shape) values ($1, $2, $3, $4)`, [
          run,
          made.name,
          made.script,
          made.shape,
        ]);
      return made;
    } finally {
      await client.query('select pg_advisory_unlock(hashtext($1))', [`talkgroup-template:${run}`]);
    }
  });
}

/** A free schema of the run, taken for one test; undefined when none is free. */
export async function takeSchema(databaseUrl: string, run: string): Promise<string | undefined> {
  return withClient(databaseUrl, async (client) => {
    const taken = await client.query(
      `update public.${SCHEMAS} set free = false, at = now() where name = (
         select name from public.${SCHEMAS} where run = $1 and free limit 1 for update skip locked
       ) returning name`,
      [run],
    );
    return taken.rows[0]?.name as string | undefined;
  });
}

/** Records a schema the run made, so that the run's end drops it whatever becomes of its test. */
export async function recordSchema(databaseUrl: string, run: string, schema: string): Promise<void> {
  await withClient(databaseUrl, (client) =>
    client.query(`insert into public.${SCHEMAS} (name, run, free) values ($1, $2, false)`, [schema, run]),
  );
}

/**
 * Its tables, indexes, sequences, columns and constraints, to tell a schema a test changed from the template
 * (dropped columns left out: a copy made from the template's script has none).
 */
export async function schemaShape(client: pg.Client, schema: string): Promise<string | undefined> {
  const { rows } = await client.query(
    `select md5(
       coalesce((select string_agg(c.relname || ':' || c.relkind::text, ',' order by c.relname)
                 from pg_class c where c.relnamespace = n.oid), '')
       || coalesce((select string_agg(c.relname || '.' || a.attname || ':' || a.atttypid, ',' order by c.relname, a.attname)
                 from pg_class c join pg_attribute a on a.attrelid = c.oid
                 where c.relnamespace = n.oid and c.relkind = 'r' and a.attnum > 0 and not a.attisdropped), '')
       || ':' || (select count(*) from pg_constraint k where k.connamespace = n.oid)) as shape
     from pg_namespace n where n.nspname = $1`,
    [schema],
  );
  return rows[0]?.shape as string | undefined;
}

const emptyings = new Map<string, { tables: string[]; refill: string } | undefined>();

/**
 * What empties a copy back to the template: its tables, and its rows and sequences as a script; undefined when a
 * row of the script spans lines (a value with a line break), which this reading would cut.
 */
function emptying(template: SchemaTemplate) {
  if (emptyings.has(template.name)) return emptyings.get(template.name);
  {
    const lines = template.script.split('\n');
    const prefix = `CREATE TABLE ${template.name}.`;
    const tables = lines
      .filter((line) => line.startsWith(prefix))
      .map((line) => line.slice(prefix.length).split(' ')[0] as string)
      // The migrations' own tables keep their rows: they say every migration ran.
      .filter((table) => !table.startsWith('kysely_migration'));
    const rows = lines.filter((line) => line.startsWith('INSERT INTO ') && !line.includes('.kysely_migration'));
    const sequences = lines.filter((line) => line.startsWith('SELECT pg_catalog.setval('));
    const whole = [...rows, ...sequences].every((line) => line.endsWith(');'));
    const known = whole ? { tables, refill: [...rows, ...sequences].join('\n') } : undefined;
    emptyings.set(template.name, known);
    return known;
  }
}

/**
 * Hands `schema` to the next test of the run, emptied back to the template; drops it when its shape changed or it
 * cannot be emptied. Every connection to it must be closed.
 */
export async function giveBackSchema(
  databaseUrl: string,
  run: string,
  schema: string,
  template: SchemaTemplate,
): Promise<void> {
  await withClient(databaseUrl, async (client) => {
    const shape = await schemaShape(client, schema);
    const known = emptying(template);
    const emptied =
      known && shape !== undefined && shape === template.shape
        ? await client
            .query(
              [
                'begin',
                // Rows deleted in any order: the foreign keys' triggers are off for this transaction only.
                'set local session_replication_role = replica',
                ...known.tables.map((table) => `delete from ${schema}.${table}`),
                known.refill.replaceAll(`${template.name}.`, `${schema}.`),
                'commit',
              ].join(';\n'),
            )
            .then(
              () => true,
              async () => {
                await client.query('rollback').catch(() => {});
                return false;
              },
            )
        : false;
    if (emptied) {
      await client.query(`update public.${SCHEMAS} set free = true, at = now() where name = $1 and run = $2`, [
        schema,
        run,
      ]);
      return;
    }
    await client.query(`drop schema if exists ${schema} cascade`);
    await client.query(`delete from public.${SCHEMAS} where name = $1`, [schema]);
  });
}

/**
 * The end of a run: drops its schemas and its template, and those of runs that ended without doing so more than a
 * day ago.
 */
export async function dropRunSchemas(databaseUrl: string, run: string): Promise<void> {
  await withClient(databaseUrl, async (client) => {
    await ensureTables(client);
    const gone = await client.query(
      `delete from public.${SCHEMAS} where run = $1 or at < now() - interval '1 day' returning name`,
      [run],
    );
    for (const { name } of gone.rows) await client.query(`drop schema if exists ${name} cascade`);
    await client.query(`delete from public.${TEMPLATES} where run = $1 or at < now() - interval '1 day'`, [run]);
  });
}
