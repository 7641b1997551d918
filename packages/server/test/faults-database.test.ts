/**
 * Faults (issue 29): PostgreSQL away under load. A TCP proxy stands between the app and the shared PostgreSQL
 * (which is never stopped): it cuts every connection and refuses new ones, then swallows them without an
 * answer (a database that hangs), then lets them through again. Meanwhile calls answer a clear 503 within
 * 5 s, socket acknowledgements say the same instead of hanging, /readyz says the database is away within
 * 2 s, and the server serves again by itself, with every acknowledged write kept.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { type App, buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config/config.ts';
import { type OpenedDatabase, openDatabase } from '../src/db/open.ts';
import { createMember, signUpAdmin, type TestApp } from './harness.ts';
import { connect, eventually, listen, refusal, refusalData, type TestClient } from './realtime-harness.ts';

const databaseUrl = process.env.TEST_DATABASE_URL;

type ProxyMode = 'through' | 'refuse' | 'hang';

/** A TCP proxy to PostgreSQL whose mode the test sets: pass bytes, refuse (reset) connections, or hang them. */
async function databaseProxy(target: URL) {
  let mode: ProxyMode = 'through';
  const open = new Set<net.Socket>();
  const server = net.createServer((client) => {
    open.add(client);
    client.on('close', () => open.delete(client));
    client.on('error', () => {});
    if (mode === 'refuse') return client.destroy();
    if (mode === 'hang') return;
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    open.add(upstream);
    upstream.on('close', () => {
      open.delete(upstream);
      client.destroy();
    });
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = new URL(target);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return {
    url: url.toString(),
    /** Every open connection is cut; new ones get `next`. */
    set(next: ProxyMode) {
      mode = next;
      if (next !== 'through') for (const socket of open) socket.destroy();
    },
    async close() {
      for (const socket of open) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work();
  return { value, ms: performance.now() - started };
}

describe.runIf(databaseUrl)('PostgreSQL away and back', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  /** The app over a database opened by the test (through a proxy, or a database of its own), closed after. */
  async function appOver(config: ReturnType<typeof loadConfig>, database: OpenedDatabase): Promise<TestApp> {
    const built: App = await buildApp(config, { database });
    cleanups.push(() => built.close());
    return {
      ...built,
      config,
      async call(url: string, body: unknown = {}, token?: string) {
        const response = await built.fastify.inject({
          method: 'POST',
          url,
          headers: token ? { 'x-access-token': token } : {},
          payload: body as object,
        });
        return { status: response.statusCode, body: response.json() };
      },
    } as TestApp;
  }

  it('answers 503 within 5 s while it is away, says so on /readyz, and serves again with no acknowledged write lost', async () => {
    const proxy = await databaseProxy(new URL(databaseUrl as string));
    cleanups.push(() => proxy.close());
    const pgSchema = `t_${randomBytes(6).toString('hex')}`;
    const dataDir = mkdtempSync(path.join(tmpdir(), 'talkgroup-faults-'));
    // The schema is dropped over a direct connection, whatever state the proxy is left in.
    const direct: OpenedDatabase = await openDatabase({ dataDir, databaseUrl, pgSchema });
    cleanups.push(async () => {
      await sql`drop schema if exists ${sql.id(pgSchema)} cascade`.execute(direct.db);
      await direct.close();
      rmSync(dataDir, { recursive: true, force: true });
    });
    const database = await openDatabase({ dataDir, databaseUrl: proxy.url, pgSchema, timeoutMs: 2000 });
    const config = { ...loadConfig({ DATA_DIR: dataDir }), webDir: undefined, chatMessagesPerMinute: 100_000 };
    const app = await appOver(config, database);
    const url = await listen(app);
    const admin = await signUpAdmin(app);
    const alice = await createMember(app, admin, { firstName: 'Alice' });
    const channel = await app.services.channels.create('Dispatch');
    await app.services.memberships.add(channel.id, [alice.id]);
    const socket: TestClient = await connect(url, alice.token);
    cleanups.push(async () => socket.close());

    // Load: chat messages sent one after the other over HTTP and over the socket, all through the outage.
    const acknowledged: string[] = [];
    const slowest = { http: 0, socket: 0 };
    const refusals = { http: 0, socket: 0 };
    let sending = true;
    let sent = 0;
    /** What broke the loops' expectations (checked at the end; a loop must not throw outside the test). */
    const wrong: unknown[] = [];
    const keepSending = (load: () => Promise<void>) =>
      load().catch((error: unknown) => {
        wrong.push(error);
      });
    cleanups.push(async () => {
      sending = false;
      await Promise.all([httpLoad, socketLoad]);
    });
    const httpLoad = keepSending(async () => {
      while (sending) {
        const text = `http ${sent++}`;
        const { value, ms } = await timed(() =>
          app.call('/user/api/sendMessageToChannel', { channelId: channel.id, message: text }, alice.token),
        );
        slowest.http = Math.max(slowest.http, ms);
        if (value.status === 200) acknowledged.push(text);
        else {
          refusals.http += 1;
          expect(value.status).toBe(503);
          expect(value.body).toMatchObject({ success: false, code: 'database_unavailable' });
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }
    });
    const socketLoad = keepSending(async () => {
      while (sending) {
        const text = `socket ${sent++}`;
        const { value, ms } = await timed(() => socket.emitAck('message', { channelId: channel.id, message: text }));
        slowest.socket = Math.max(slowest.socket, ms);
        if (value.success) acknowledged.push(text);
        else {
          refusals.socket += 1;
          expect(value.result).toBe('message: The database is not reachable now; try again in a moment.');
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }
    });
    await eventually(async () => acknowledged.length >= 10, 'writes acknowledged before the outage');

    // Away: every connection cut and new ones refused.
    proxy.set('refuse');
    const refused = await timed(() =>
      app.call('/user/api/getchannelmessagelistForAdmin', { channelId: channel.id }, alice.token),
    );
    expect(refused.value.status).toBe(503);
    expect(refused.value.body.result).toBe('The database is not reachable now; try again in a moment.');
    expect(refused.ms).toBeLessThan(5000);
    const notReady = await timed(() => app.fastify.inject({ method: 'GET', url: '/readyz' }));
    expect(notReady.value.statusCode).toBe(503);
    expect(notReady.value.json()).toMatchObject({ success: false, database: { ok: false, state: 'unreachable' } });
    expect(notReady.ms).toBeLessThan(2500);
    // A new connection is refused with the same sentence (its client retries by itself).
    expect(await refusal(url, alice.token)).toBe('The database is not reachable now; try again in a moment.');

    // Away and silent: connections are accepted and never answered. The waits are bounded all the same.
    proxy.set('hang');
    const hung = await timed(() =>
      app.call('/user/api/getchannelmessagelistForAdmin', { channelId: channel.id }, alice.token),
    );
    expect(hung.value.status).toBe(503);
    expect(hung.value.body.code).toBe('database_unavailable');
    expect(hung.ms).toBeLessThan(5000);
    const silent = await timed(() => app.fastify.inject({ method: 'GET', url: '/readyz' }));
    expect(silent.value.statusCode).toBe(503);
    expect(silent.ms).toBeLessThan(2500);
    const acknowledgedWhileAway = acknowledged.length;

    // Back: the same process serves again, without a restart.
    proxy.set('through');
    await eventually(
      async () => (await app.fastify.inject({ method: 'GET', url: '/readyz' })).statusCode === 200,
      'ready again',
    );
    await eventually(async () => acknowledged.length >= acknowledgedWhileAway + 10, 'writes acknowledged after');
    sending = false;
    await Promise.all([httpLoad, socketLoad]);
    expect(wrong).toEqual([]);
    // Both ways of writing met the outage, and were told so in time.
    expect(refusals.http).toBeGreaterThan(0);
    expect(refusals.socket).toBeGreaterThan(0);
    expect(slowest.http).toBeLessThan(5000);
    expect(slowest.socket).toBeLessThan(5000);
    // Every write that was acknowledged is in the database (read directly, not through the proxy).
    const kept = new Set(
      (await direct.db.selectFrom('messages').select('text_msg').where('channel_id', '=', channel.id).execute()).map(
        (row) => row.text_msg,
      ),
    );
    expect(acknowledged.filter((text) => !kept.has(text))).toEqual([]);
    const list = await app.call(
      '/user/api/getchannelmessagelistForAdmin',
      { channelId: channel.id, limit: 1 },
      alice.token,
    );
    expect(list.status).toBe(200);
  });

  it("answers 503 with Retry-After and a sentence in the reader's language while the database refuses new connections", async () => {
    // A database of its own: the shared one must keep accepting the other tests' connections. It is made once per
    // PostgreSQL and kept, each run in a schema of its own: DROP DATABASE waits for an immediate checkpoint, which
    // fsyncs every file the other tests' schemas touched since the last one (a loaded CI waited past 90 s).
    const name = 'tg_refuse_connections';
    const pgSchema = `t_${randomBytes(6).toString('hex')}`;
    const dataDir = mkdtempSync(path.join(tmpdir(), 'talkgroup-refuse-'));
    const admin: OpenedDatabase = await openDatabase({ dataDir, databaseUrl, pgSchema: 'public' });
    const exists = await sql<{ n: number }>`select count(*)::int as n from pg_database where datname = ${name}`.execute(
      admin.db,
    );
    if (exists.rows[0]?.n === 0)
      await sql`create database ${sql.id(name)}`.execute(admin.db).catch((error: { code?: string }) => {
        if (error.code !== '42P04') throw error; // made meanwhile by another run
      });
    // Whatever an interrupted run left it as, it accepts connections again before and after.
    await sql`alter database ${sql.id(name)} allow_connections true`.execute(admin.db);
    const target = new URL(databaseUrl as string);
    target.pathname = `/${name}`;
    cleanups.push(async () => {
      await sql`alter database ${sql.id(name)} allow_connections true`.execute(admin.db);
      // The run's schema, over a connection of its own (the app's is closed by then); dropping it is cheap.
      const inside = await openDatabase({ dataDir, databaseUrl: target.toString(), pgSchema });
      await sql`drop schema if exists ${sql.id(pgSchema)} cascade`.execute(inside.db);
      await inside.close();
      await admin.close();
      rmSync(dataDir, { recursive: true, force: true });
    });
    const database = await openDatabase({
      dataDir,
      databaseUrl: target.toString(),
      pgSchema,
      timeoutMs: 2000,
    });
    const config = { ...loadConfig({ DATA_DIR: dataDir }), webDir: undefined };
    const app = await appOver(config, database);
    const call = async (url: string, token: string, language = 'en') => {
      const response = await app.fastify.inject({
        method: 'POST',
        url,
        headers: { 'x-access-token': token, 'accept-language': language },
        payload: {},
      });
      return { status: response.statusCode, retryAfter: response.headers['retry-after'], body: response.json() };
    };
    const url = await listen(app);
    const account = await signUpAdmin(app);
    expect((await call('/user/api/getAllChannels', account.token)).status).toBe(200);

    // ALTER DATABASE ... ALLOW_CONNECTIONS false, its open connections ended: new ones fail with 55000.
    await sql`alter database ${sql.id(name)} allow_connections false`.execute(admin.db);
    await sql`select pg_terminate_backend(pid) from pg_stat_activity where datname = ${name}`.execute(admin.db);
    const refused = await eventually(async () => {
      const answer = await call('/user/api/getAllChannels', account.token, 'fr');
      return answer.status === 200 ? undefined : answer;
    }, 'a refusal');
    expect(refused.status).toBe(503);
    expect(refused.retryAfter).toBeDefined();
    expect(refused.body).toMatchObject({
      success: false,
      code: 'database_unavailable',
      result: 'La base de données est injoignable pour le moment ; réessayez dans un instant.',
    });
    const german = await call('/user/api/getAllChannels', account.token, 'de');
    expect([german.status, german.body.result]).toEqual([
      503,
      'Die Datenbank ist gerade nicht erreichbar; versuchen Sie es gleich noch einmal.',
    ]);
    // A socket is refused with the code and the sentence.
    expect(await refusalData(url, account.token, { 'accept-language': 'fr' })).toEqual({
      code: 'database_unavailable',
      message: 'La base de données est injoignable pour le moment ; réessayez dans un instant.',
    });

    // Accepting again: served again by the same process.
    await sql`alter database ${sql.id(name)} allow_connections true`.execute(admin.db);
    await eventually(
      async () => (await call('/user/api/getAllChannels', account.token)).status === 200,
      'served again',
    );
  });
});
