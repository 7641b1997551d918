/**
 * Once per run of the unit tests: names the run (TALKGROUP_TEST_RUN), so that its files share PostgreSQL's
 * migrated template and hand their schemas from test to test (schema-pool.ts), and one migrated SQLite file
 * (migrated-copies.ts); drops them all at its end.
 */
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { dropRunSchemas, sharedSqliteTemplate } from './schema-pool.ts';

export default function setup(): () => Promise<void> {
  const run = `${process.pid}-${randomBytes(6).toString('hex')}`;
  process.env.TALKGROUP_TEST_RUN = run;
  return async () => {
    rmSync(sharedSqliteTemplate(run), { force: true });
    const databaseUrl = process.env.TEST_DATABASE_URL;
    if (databaseUrl) await dropRunSchemas(databaseUrl, run);
  };
}
