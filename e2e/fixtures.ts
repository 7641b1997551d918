/**
 * Fixtures of the browser tests, for every spec to reuse:
 * - `server` (one per worker): a real Talkgroup server process (`node packages/server/src/main.ts`) on a free
 *   port, with a fresh temporary DATA_DIR (SQLite) and WEB_DIR = packages/web/dist. `baseURL` points at it,
 *   so `page.goto('/signin')` works. Tests of one worker share its database: use unique names (`unique()`).
 * - `admin`: the administrator of that server, created by the first sign-up; each test gets a token of its own,
 *   so that a test that revokes tokens or signs out cannot sign out the tests after it.
 * - `freshServer`: a server of its own with an empty database and no PUBLIC_URL, for first-run tests (started on
 *   demand).
 * - `seed`: create members and channels through the HTTP API.
 * - `language` (option, default 'en'): the language a new browser context starts in; `null` keeps the
 *   product's default (French). Texts in the specs are English unless a spec sets another language.
 * - `signIn(page, account)`: through the sign-in form; `useSession(page, account)`: straight into storage
 *   (fast, for specs that test something else).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type BrowserContext, test as base, expect, type Page } from '@playwright/test';
import { SERVER_NODE_FLAGS } from '../packages/server/src/ops/node-flags.ts';
import { type StartedServer, serverLogs, startedServers } from './server-logs.ts';

export { expect };

const ROOT = path.resolve(import.meta.dirname, '..');
/** The built app to serve; E2E_WEB_DIR points elsewhere (a build of another checkout). */
const WEB_DIR = process.env.E2E_WEB_DIR ?? path.join(ROOT, 'packages/web/dist');

export type Language = 'fr' | 'en' | 'de';

export interface CallResult<T = any> {
  status: number;
  body: T;
}

export interface TalkgroupServer {
  baseURL: string;
  port: number;
  dataDir: string;
  /** POST a call of the contract: `server.call('/user/api/getAllUsers', {}, admin.token)`. */
  call<T = any>(callPath: string, body?: unknown, token?: string): Promise<CallResult<T>>;
  /** What the server printed (for failure messages). */
  output(): string;
  /** Stops the process with this signal (a deploy: SIGTERM; a crash: SIGKILL) and starts it again, same port and data. */
  restart(signal: 'SIGTERM' | 'SIGKILL'): Promise<void>;
  stop(): Promise<void>;
}

export interface Account {
  id: number;
  token: string;
  login: string;
  password: string;
  firstName: string;
  lastName: string;
  role: 'admin' | 'dispatcher' | 'member';
}

/** A name no other test of the run uses: `unique('Channel')` -> 'Channel 3f9a1c'. */
export function unique(prefix: string): string {
  return `${prefix} ${randomBytes(3).toString('hex')}`;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** Up to 90 s: beside a machine at load 40, a server once took more than 30 s to start answering. */
async function waitForHealth(baseURL: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}):\n${output()}`);
    try {
      const response = await fetch(`${baseURL}/health`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the server did not answer /health within 90 s:\n${output()}`);
}

/** Starts a server process on a free port with an empty SQLite database. */
/** POSTs calls of the contract to the server at `baseURL` (TalkgroupServer.call; the benches' servers too). */
export function callsTo(baseURL: string): TalkgroupServer['call'] {
  return async (callPath, body = {}, token) => {
    const response = await fetch(`${baseURL}${callPath}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { 'x-access-token': token } : {}) },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {}
    return { status: response.status, body: parsed as any };
  };
}

export async function startServer(env: Record<string, string> = {}): Promise<TalkgroupServer> {
  if (!existsSync(path.join(WEB_DIR, 'index.html'))) {
    throw new Error('packages/web/dist is missing: run `npm run build` first (npm run test:e2e does).');
  }
  // PORT given: a test that must know the address before the server starts (single sign-on's PUBLIC_URL).
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'talkgroup-e2e-'));
  const baseURL = `http://127.0.0.1:${port}`;
  let log = '';
  /** Everything printed so far, counted from the start: the kept log is its last 200,000 characters. */
  let printed = 0;
  const collect = (chunk: Buffer) => {
    const text = chunk.toString();
    printed += text.length;
    log = (log + text).slice(-200_000);
  };
  const output = () => log;
  const launch = () => {
    const process_ = spawn(process.execPath, [...SERVER_NODE_FLAGS, 'packages/server/start.js'], {
      cwd: ROOT,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        WEB_DIR,
        LOG_LEVEL: 'warn',
        DATABASE_URL: '',
        REDIS_URL: '',
        ADMIN_LOGIN: '',
        ADMIN_PASSWORD: '',
        // Tests seed long chat histories through the API; the per-user chat limit is tested by the server's tests.
        CHAT_MESSAGES_PER_MINUTE: '1000',
        // The disk of the machine the tests run on, not a server's: 16 MB kept free instead of the 1 GB default.
        DISK_RESERVE_MB: '16',
        // Every browser of every test connects from 127.0.0.1: the per-address flood limit is the server tests'.
        CONNECTION_RATE_PER_MINUTE: '100000',
        // A press waits in the floor queue 30 s by default, and a talker holds the floor 60 s at most; beside a
        // loaded CI the queue test's steps between a press and its turn took longer, and the press left the
        // queue. Both limits are the server tests'.
        FLOOR_QUEUE_SECONDS: '600',
        FLOOR_MAX_SECONDS: '600',
        // Passkeys need PUBLIC_URL (issue 47), and a relying party must be a name, never an IP address: the
        // passkey tests open this same server as `localhost`.
        PUBLIC_URL: `http://localhost:${port}`,
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    process_.stdout?.on('data', collect);
    process_.stderr?.on('data', collect);
    return process_;
  };
  let child = launch();
  const started: StartedServer = {
    baseURL,
    mark: () => printed,
    since: (mark) => log.slice(Math.max(0, log.length - (printed - mark))),
    stopped: false,
  };
  startedServers.push(started);

  try {
    await waitForHealth(baseURL, child, output);
  } catch (error) {
    child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }

  return {
    baseURL,
    port,
    dataDir,
    output,
    call: callsTo(baseURL),
    async restart(signal) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill(signal);
      await exited;
      child = launch();
      await waitForHealth(baseURL, child, output);
    },
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
        await exited;
        clearTimeout(timer);
      }
      rmSync(dataDir, { recursive: true, force: true });
      started.stopped = true;
    },
  };
}

export async function login(server: TalkgroupServer, loginName: string, password: string): Promise<Account> {
  const answer = await server.call('/user/api/login', { user_email: loginName, user_password: password });
  if (answer.status !== 200) throw new Error(`login of ${loginName} failed: ${JSON.stringify(answer.body)}`);
  const user = answer.body.user;
  return {
    id: user.id,
    token: user.authToken,
    login: loginName,
    password,
    firstName: user.firstName,
    lastName: user.lastName,
    role: user.role,
  };
}

/** On an empty database the first sign-up is the administrator (spec section 4). */
export async function createAdmin(
  server: TalkgroupServer,
  fields: Partial<{ login: string; password: string; firstName: string; lastName: string }> = {},
): Promise<Account> {
  const account = {
    login: fields.login ?? 'ada.admin@example.org',
    password: fields.password ?? 'adminpw1',
    firstName: fields.firstName ?? 'Ada',
    lastName: fields.lastName ?? 'Lovelace',
  };
  const answer = await server.call('/user/api/signUpUser', {
    firstName: account.firstName,
    lastName: account.lastName,
    email: account.login,
    password: account.password,
    phone_number: '',
  });
  if (answer.status !== 200) throw new Error(`admin sign-up failed: ${JSON.stringify(answer.body)}`);
  return login(server, account.login, account.password);
}

export interface Seed {
  /** A member created by the administrator (as the Add User dialog does), signed in. */
  member(
    fields?: Partial<{
      login: string;
      password: string;
      firstName: string;
      lastName: string;
      pseudo: string;
      mapRight: boolean;
      role: 'admin' | 'dispatcher' | 'member';
    }>,
  ): Promise<Account>;
  /** A channel created by the administrator; returns the server's channel (id, name, rtcSession, ...). */
  channel(name?: string): Promise<{ id: number; name: string; rtcSession: string }>;
  /** Puts members in a channel. */
  addToChannel(channelId: number, userIds: number[]): Promise<void>;
}

export function seedFor(server: TalkgroupServer, admin: Account): Seed {
  return {
    async member(fields = {}) {
      const tag = randomBytes(3).toString('hex');
      const loginName = fields.login ?? `member-${tag}@example.org`;
      const password = fields.password ?? 'memberpw';
      const answer = await server.call(
        '/user/api/signUpUser',
        {
          firstName: fields.firstName ?? 'Mia',
          lastName: fields.lastName ?? `Member ${tag}`,
          email: loginName,
          password,
          pseudo: fields.pseudo ?? `mia${tag}`,
          mapRight: fields.mapRight ?? false,
          ...(fields.role ? { role: fields.role } : {}),
        },
        admin.token,
      );
      if (answer.status !== 200) throw new Error(`member creation failed: ${JSON.stringify(answer.body)}`);
      return login(server, loginName, password);
    },
    async channel(name = unique('Channel')) {
      const answer = await server.call('/user/api/createChannel', { channelName: name, userId: admin.id }, admin.token);
      if (answer.status !== 200) throw new Error(`channel creation failed: ${JSON.stringify(answer.body)}`);
      return answer.body.res;
    },
    async addToChannel(channelId, userIds) {
      const answer = await server.call('/user/api/updateUserChannels', { userList: userIds, channelId }, admin.token);
      if (answer.status !== 200) throw new Error(`adding to channel failed: ${JSON.stringify(answer.body)}`);
    },
  };
}

export interface SignInOptions {
  remember?: boolean;
}

/**
 * Signs in through the form (English labels) and waits for /channelsList (a member: its app, /talk; a dispatcher:
 * its dispatch console, issue 70).
 */
export async function signIn(page: Page, account: Account, { remember = false }: SignInOptions = {}): Promise<void> {
  await page.goto('/signin');
  await page.getByRole('textbox', { name: 'Login', exact: true }).fill(account.login);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(account.password);
  if (remember) await page.getByLabel('Remember me').check();
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  const landing = { member: /\/talk$/, dispatcher: /\/dispatch$/, admin: /\/channelsList$/ }[account.role];
  await expect(page).toHaveURL(landing);
}

/**
 * Puts a signed-in session in the page's storage before any script runs (as a sign-in would), without
 * going through the form. Call before page.goto.
 */
export async function useSession(page: Page, account: Account, { remember = false }: SignInOptions = {}) {
  await page.context().addInitScript(
    ({ account, remember }) => {
      // Once per tab (window.name survives navigations and storage clearing): a later sign-out stays signed out.
      if (window.name === 'e2e-session-set') return;
      window.name = 'e2e-session-set';
      localStorage.setItem('id', String(account.id));
      localStorage.setItem('email', account.login);
      localStorage.setItem('firstName', account.firstName);
      localStorage.setItem('lastName', account.lastName);
      localStorage.setItem('display_name', `${account.firstName} ${account.lastName}`);
      localStorage.setItem('role', account.role);
      sessionStorage.setItem('TOKEN_KEY', account.token);
      if (remember) localStorage.setItem('TOKEN_KEY', account.token);
    },
    { account, remember },
  );
}

/** A new browser context starts in this language (unless the page already chose one); null: the default. */
export async function startIn(context: BrowserContext, language: Language | null): Promise<void> {
  if (!language) return;
  await context.addInitScript((lng) => {
    if (!localStorage.getItem('i18nextLng')) localStorage.setItem('i18nextLng', lng);
  }, language);
}

interface TestFixtures {
  serverLogs: undefined;
  admin: Account;
  language: Language | null;
  freshServer: TalkgroupServer;
  seed: Seed;
}

interface WorkerFixtures {
  server: TalkgroupServer;
  workerAdmin: Account;
}

export const test = base.extend<TestFixtures, WorkerFixtures>({
  server: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads the fixtures a fixture needs from this pattern
    async ({}, use) => {
      const server = await startServer();
      await use(server);
      await server.stop();
    },
    { scope: 'worker', timeout: 60_000 },
  ],
  workerAdmin: [async ({ server }, use) => use(await createAdmin(server)), { scope: 'worker' }],
  admin: async ({ server, workerAdmin }, use) => use(await login(server, workerAdmin.login, workerAdmin.password)),
  baseURL: async ({ server }, use) => use(server.baseURL),
  language: ['en', { option: true }],
  context: async ({ context, language }, use) => {
    await startIn(context, language);
    await use(context);
  },
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads the fixtures a fixture needs from this pattern
  freshServer: async ({}, use) => {
    // A first run as installed: no PUBLIC_URL, so passkeys are off (auth.spec.ts checks the pages say so).
    const server = await startServer({ PUBLIC_URL: '' });
    await use(server);
    await server.stop();
  },
  seed: async ({ server, admin }, use) => use(seedFor(server, admin)),
  serverLogs: [serverLogs, { auto: true }],
});
