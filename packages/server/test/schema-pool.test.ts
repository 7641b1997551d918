/**
 * The unit tests' PostgreSQL schemas, handed from test to test (schema-pool.ts): a schema given back is the
 * template again, rows and sequences, and one whose tables a test changed is dropped, not handed on. Each case
 * uses a pool of its own (a run name of its own), apart from the other files' tests.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/open.ts';
import { buildTestApp, signUpAdmin, type testStorage } from './harness.ts';
import { leaseMigratedSchema } from './migrated-copies.ts';
import { dropRunSchemas, withClient } from './schema-pool.ts';

const databaseUrl = process.env.TEST_DATABASE_URL;

async function query<T>(sqlText: string, values: unknown[] = []): Promise<T[]> {
  return withClient(databaseUrl as string, async (client) => (await client.query(sqlText, values)).rows as T[]);
}

/** Every table's row count and every sequence's state: what a test could find left by the one before. */
async function contents(schema: string): Promise<Record<string, string>> {
  return withClient(databaseUrl as string, async (client) => {
    const tables = await client.query('select tablename as name from pg_tables where schemaname = $1', [schema]);
    const sequences = await client.query(
      `select sequencename as name, coalesce(last_value, 0)::text as value from pg_sequences where schemaname = $1`,
      [schema],
    );
    const found: Record<string, string> = {};
    for (const { name } of tables.rows)
      found[name] = (await client.query(`select count(*)::text as n from ${schema}."${name}"`)).rows[0]?.n;
    for (const { name, value } of sequences.rows) found[`sequence ${name}`] = value;
    return found;
  });
}

/** An app on `schema`, closed (every connection) by `close`. */
async function appOn(schema: string) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'talkgroup-pool-'));
  const database = await openDatabase({ dataDir, databaseUrl, pgSchema: schema });
  const storage = {
    dataDir,
    redisKeyPrefix: `test-${randomBytes(6).toString('hex')}:`,
    open: async () => database,
    remove: async () => {},
  } as ReturnType<typeof testStorage>;
  const app = await buildTestApp(storage);
  return {
    app,
    async close() {
      await app.fastify.close();
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function exists(schema: string): Promise<boolean> {
  return (await query('select 1 from pg_namespace where nspname = $1', [schema])).length === 1;
}

describe.skipIf(!databaseUrl)('PostgreSQL schemas handed from test to test', () => {
  const url = databaseUrl as string;

  it('gives the next test the template again: no row left, ids from 1 again', async () => {
    const run = `pool-test-${randomBytes(6).toString('hex')}`;
    try {
      const first = await leaseMigratedSchema(url, run);
      if (!first) throw new Error('no template: pg_dump is missing');
      const template = await contents(first.schema);
      const used = await appOn(first.schema);
      const admin = await signUpAdmin(used.app);
      expect(admin.id).toBe(1);
      const channel = await used.app.call('/user/api/createChannel', { channelName: 'North' }, admin.token);
      expect(channel.status).toBe(200);
      await used.close();
      expect(await contents(first.schema)).not.toEqual(template);
      await first.giveBack();

      // The run's only free schema: the same one, as it was.
      const second = await leaseMigratedSchema(url, run);
      expect(second?.schema).toBe(first.schema);
      expect(await contents(first.schema)).toEqual(template);
      const again = await appOn(first.schema);
      // The first sign-up of an empty database makes its administrator, with the first id.
      expect((await signUpAdmin(again.app)).id).toBe(1);
      await again.close();
      await second?.giveBack();
    } finally {
      await dropRunSchemas(url, run);
    }
  });

  it('drops a schema whose tables a test changed instead of handing it on, and drops the run’s at its end', async () => {
    const run = `pool-test-${randomBytes(6).toString('hex')}`;
    try {
      const changed = await leaseMigratedSchema(url, run);
      const kept = await leaseMigratedSchema(url, run);
      if (!changed || !kept) throw new Error('no template: pg_dump is missing');
      await query(`alter table ${changed.schema}.users add column left_by_a_test integer`);
      await changed.giveBack();
      expect(await exists(changed.schema)).toBe(false);
      await kept.giveBack();
      expect(await exists(kept.schema)).toBe(true);

      const next = await leaseMigratedSchema(url, run);
      expect(next?.schema).toBe(kept.schema);
      await dropRunSchemas(url, run);
      expect(await exists(kept.schema)).toBe(false);
    } finally {
      await dropRunSchemas(url, run);
    }
  });
});
