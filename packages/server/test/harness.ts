/**
 * Test harness: a real app on a real database. Every store test runs on SQLite (temp dir) and, when
 * TEST_DATABASE_URL is set (CI), on PostgreSQL in a schema of its own that is dropped afterwards.
 */

import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { type App, buildApp } from '../src/app.ts';
import { type Config, loadConfig } from '../src/config/config.ts';
import { type Dialect, type OpenedDatabase, openDatabase } from '../src/db/open.ts';
import { copyMigratedSqlite, leaseMigratedSchema, type SchemaLease } from './migrated-copies.ts';

export const databases: Dialect[] = ['sqlite', ...(process.env.TEST_DATABASE_URL ? (['postgres'] as const) : [])];

export interface TestApp extends App {
  config: Config;
  call(path: string, body?: unknown, token?: string): Promise<{ status: number; body: any }>;
}

/**
 * Storage of one test deployment: a temp data folder and, on PostgreSQL, a schema of its own. Every instance
 * opened on it shares both (several instances of one deployment); `remove` drops them.
 */
export function testStorage(dialect: Dialect) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'talkgroup-test-'));
  const databaseUrl = dialect === 'postgres' ? (process.env.TEST_DATABASE_URL as string) : undefined;
  let pgSchema: string | undefined;
  let lease: SchemaLease | undefined;
  const opened: OpenedDatabase[] = [];
  let created = false;
  return {
    dataDir,
    /** Its keys in Redis (and the Socket.IO adapter's channels): apart from every other test's. */
    redisKeyPrefix: `test-${randomBytes(6).toString('hex')}:`,
    async open(): Promise<OpenedDatabase> {
      // The first instance starts from a migrated database (migrated-copies.ts); without pg_dump, a schema of
      // its own is migrated at open.
      if (!created) {
        created = true;
        if (databaseUrl) {
          lease = await leaseMigratedSchema(databaseUrl);
          pgSchema = lease?.schema ?? `t_${randomBytes(6).toString('hex')}`;
        } else await copyMigratedSqlite(dataDir);
      }
      const database = await openDatabase({ dataDir, databaseUrl, pgSchema });
      opened.push(database);
      return database;
    },
    /** Close the apps first: dropping the schema under their sockets' last writes deadlocks on PostgreSQL. */
    async remove(): Promise<void> {
      const [first] = opened;
      if (lease) {
        // Every connection closed first: the schema is emptied for the next test, or dropped, with none left.
        // Given back once: a second remove must not empty it under the test that has it next.
        const given = lease;
        lease = undefined;
        try {
          for (const database of opened.splice(0)) await database.close();
        } finally {
          await given.giveBack();
        }
      } else if (pgSchema && first) {
        // A deadlock here means an instance still wrote while it closed: the drop is tried once more, so that
        // the cleanup does not turn a passing test into a failure.
        const drop = () => sql`drop schema if exists ${sql.id(pgSchema as string)} cascade`.execute(first.db);
        await drop().catch((error: { code?: string }) => {
          if (error?.code !== '40P01') throw error;
          return drop();
        });
      }
      for (const database of opened.splice(0)) await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** An app on that storage, with `call`: a JSON POST the way a client makes it. */
export async function buildTestApp(
  storage: ReturnType<typeof testStorage>,
  overrides: Partial<Config> = {},
): Promise<TestApp> {
  const config = {
    ...loadConfig({ DATA_DIR: storage.dataDir }),
    webDir: undefined,
    redisKeyPrefix: storage.redisKeyPrefix,
    // A machine's disk, not the product's: the tests keep 16 MB free rather than the 1 GB a server keeps for its
    // database (DISK_RESERVE_MB), so that they pass on a CI disk with little room; uploads.test sets its own.
    diskReserveBytes: 16 * 1024 * 1024,
    ...overrides,
  };
  const app = await buildApp(config, {
    database: await storage.open(),
    ...(process.env.TEST_APP_LOG ? { logger: { level: process.env.TEST_APP_LOG } } : {}),
  });
  return {
    ...app,
    config,
    async call(url, body = {}, token) {
      const response = await app.fastify.inject({
        method: 'POST',
        url,
        headers: token ? { 'x-access-token': token } : {},
        payload: body as object,
      });
      let parsed: unknown = response.body;
      try {
        parsed = response.json();
      } catch {}
      return { status: response.statusCode, body: parsed };
    },
  };
}

/** An app on storage of its own (or on `storage`, to start it again after a restart), which `close` removes. */
export async function startApp(
  dialect: Dialect,
  overrides: Partial<Config> = {},
  storage = testStorage(dialect),
): Promise<TestApp> {
  // A short grace before connexion_lost: tests wait on it.
  const app = await buildTestApp(storage, { connectionLostGraceMs: 300, ...overrides });
  return {
    ...app,
    async close() {
      await app.fastify.close();
      await storage.remove();
    },
  };
}

export interface Account {
  id: number;
  token: string;
  identifier: string;
  password: string;
}

/** The first sign-up on an empty database creates the administrator. */
export async function signUpAdmin(
  app: TestApp,
  identifier = 'admin@example.org',
  password = 'admin-secret-1',
): Promise<Account> {
  const signUp = await app.call('/user/api/signUpUser', {
    firstName: 'Ada',
    lastName: 'Admin',
    email: identifier,
    password,
  });
  if (signUp.status !== 200) throw new Error(`sign-up failed: ${JSON.stringify(signUp.body)}`);
  return signIn(app, identifier, password);
}

export async function signIn(app: TestApp, identifier: string, password: string): Promise<Account> {
  const login = await app.call('/user/api/login', { user_email: identifier, user_password: password });
  if (login.status !== 200) throw new Error(`login failed: ${JSON.stringify(login.body)}`);
  return { id: login.body.user.id, token: login.body.user.authToken, identifier, password };
}

let memberCount = 0;
/** A member created by the administrator (the Add User dialog), then signed in. */
export async function createMember(
  app: TestApp,
  admin: Account,
  fields: Partial<{
    firstName: string;
    lastName: string;
    email: string;
    password: string;
    pseudo: string;
    mapRight: boolean;
  }> = {},
): Promise<Account> {
  memberCount += 1;
  const email = fields.email ?? `member${memberCount}-${randomBytes(3).toString('hex')}@example.org`;
  const password = fields.password ?? 'memberpw';
  const created = await app.call(
    '/user/api/signUpUser',
    { firstName: 'Mia', lastName: `Member${memberCount}`, pseudo: 'mimi', ...fields, email, password },
    admin.token,
  );
  if (created.status !== 200) throw new Error(`member creation failed: ${JSON.stringify(created.body)}`);
  return signIn(app, email, password);
}

/** Every secret a response must never carry. */
export function expectNoSecrets(body: unknown): void {
  const text = JSON.stringify(body);
  for (const word of ['password_hash', 'scrypt$', 'token_hash', '"password":', 'salt']) {
    if (text.includes(word)) throw new Error(`response leaks ${word}: ${text.slice(0, 300)}`);
  }
}

/**
 * The user's sessions proved their owner longer ago than "confirm it's you" allows (auth/confirmation.ts): the
 * sensitive calls answer 403 `confirm_identity` until confirmIdentity.
 */
export async function ageConfirmation(app: TestApp, userId: number): Promise<void> {
  await app.services.db
    .updateTable('sessions')
    .set({ confirmed_at: new Date(Date.now() - 10 * 60_000).toISOString() })
    .where('user_id', '=', userId)
    .execute();
}
