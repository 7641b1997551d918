/**
 * What an operator relies on (issue 16, first part): health and readiness, logs without secrets, and a
 * configuration checked once at start with clear errors.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { ConfigError, loadConfig } from '../src/config/config.ts';
import { redactUrl } from '../src/http/redact.ts';
import { runAdminCommand } from '../src/ops/admin.ts';
import { SERVER_NODE_FLAGS } from '../src/ops/node-flags.ts';
import { databases, signUpAdmin, startApp, type TestApp, testStorage } from './harness.ts';

describe.each(databases)('health and readiness on %s', (dialect) => {
  let app: TestApp;
  afterEach(async () => {
    await app.close();
  });

  it('answers /healthz always and /readyz when the database (and Redis, when configured) answer', async () => {
    const redisUrl = process.env.TEST_REDIS_URL;
    app = await startApp(dialect, redisUrl ? { redisUrl } : {});
    const healthz = await app.fastify.inject({ method: 'GET', url: '/healthz' });
    expect(healthz.statusCode).toBe(200);
    expect(healthz.json()).toEqual({ success: true });
    const readyz = await app.fastify.inject({ method: 'GET', url: '/readyz' });
    expect(readyz.statusCode).toBe(200);
    expect(readyz.json()).toMatchObject({
      success: true,
      database: { dialect, ok: true, state: 'ready' },
      redis: redisUrl ? { used: true, ok: true, state: 'ready' } : { used: false, ok: true, state: 'not used' },
    });
  });

  it('says Redis is not used when REDIS_URL is unset', async () => {
    app = await startApp(dialect);
    const readyz = await app.fastify.inject({ method: 'GET', url: '/readyz' });
    expect(readyz.statusCode).toBe(200);
    expect(readyz.json().redis).toEqual({ used: false, ok: true, state: 'not used' });
  });
});

describe('/readyz names nothing internal to a remote client (issue 47)', () => {
  let app: TestApp;
  afterEach(async () => {
    await app.close();
  });
  const token = 'r'.repeat(32);
  const readyz = async (remoteAddress: string, headers: Record<string, string> = {}) => {
    const answer = await app.fastify.inject({ method: 'GET', url: '/readyz', remoteAddress, headers });
    return { status: answer.statusCode, body: answer.json() };
  };

  it('answers ready or not alone, and the details with the metrics token or from this machine', async () => {
    app = await startApp('sqlite', { metricsToken: token, turnUrls: ['turn:127.0.0.1:1?transport=tcp'] });
    const remote = await readyz('203.0.113.5');
    expect(remote).toEqual({ status: 200, body: { success: true, ready: true } });
    expect(await readyz('203.0.113.5', { authorization: `Bearer ${'x'.repeat(32)}` })).toEqual(remote);

    const withToken = await readyz('203.0.113.5', { authorization: `Bearer ${token}` });
    expect(withToken.body).toMatchObject({ success: true, ready: true, database: { ok: true } });
    expect(withToken.body.turn.servers[0].url).toBe('turn:127.0.0.1:1?transport=tcp');
    for (const local of ['127.0.0.1', '::1', '::ffff:127.0.0.1'])
      expect((await readyz(local)).body.database).toMatchObject({ ok: true, state: 'ready' });
    // A local reverse proxy that TRUST_PROXY does not name: whoever it forwards is not this machine.
    expect((await readyz('127.0.0.1', { 'x-forwarded-for': '127.0.0.1' })).body).toEqual({
      success: true,
      ready: true,
    });
  });

  it('reads the address as TRUST_PROXY says: a remote client through a local proxy gets no details', async () => {
    app = await startApp('sqlite', { trustProxy: ['loopback'] });
    expect((await readyz('127.0.0.1', { 'x-forwarded-for': '203.0.113.5' })).body).toEqual({
      success: true,
      ready: true,
    });
    expect((await readyz('127.0.0.1', { 'x-forwarded-for': '127.0.0.1' })).body.database.ok).toBe(true);
    // A client that claims to be local to a proxy that trusts every hop is still seen (each hop is read).
    await app.close();
    app = await startApp('sqlite', { trustProxy: true });
    expect((await readyz('127.0.0.1', { 'x-forwarded-for': '127.0.0.1, 203.0.113.5' })).body).toEqual({
      success: true,
      ready: true,
    });
  });
});

describe('logs without secrets', () => {
  it('replaces tokens, signatures and the call view data in logged request URLs', () => {
    expect(redactUrl('/socket.io/?EIO=4&transport=websocket&token=abc.def')).toBe(
      '/socket.io/?EIO=4&transport=websocket&token=[redacted]',
    );
    expect(redactUrl('/files/a1b2.png?uid=3&exp=1700000000&sig=f00d')).toBe(
      '/files/a1b2.png?uid=3&exp=1700000000&sig=[redacted]',
    );
    expect(redactUrl('/userCallView/%7B%22token%22%3A%22s3cret%22%7D')).toBe('/userCallView/[redacted]');
    expect(redactUrl('/usersList?add=1')).toBe('/usersList?add=1');
  });

  it('writes no session token, signature or call view data in any log line of real requests', async () => {
    const storage = testStorage('sqlite');
    let logged = '';
    const stream = new Writable({
      write(chunk, _encoding, done) {
        logged += chunk.toString();
        done();
      },
    });
    const config = { ...loadConfig({ DATA_DIR: storage.dataDir }), webDir: undefined };
    const app = await buildApp(config, { database: await storage.open(), logger: { level: 'info', stream } });
    try {
      const admin = await signUpAdmin({
        ...app,
        config,
        async call(url, body = {}, token) {
          const response = await app.fastify.inject({
            method: 'POST',
            url,
            headers: token ? { 'x-access-token': token } : {},
            payload: body as object,
          });
          return { status: response.statusCode, body: response.json() };
        },
      });
      await app.fastify.inject({
        method: 'POST',
        url: '/user/api/getAllUsers',
        headers: { 'x-access-token': admin.token },
      });
      await app.fastify.inject({ method: 'GET', url: `/files/x.png?uid=1&exp=1&sig=SIGNATURE-SECRET` });
      await app.fastify.inject({
        method: 'GET',
        url: `/userCallView/${encodeURIComponent(JSON.stringify({ token: 'CALL-VIEW-SECRET' }))}`,
      });
      expect(logged).toContain('[redacted]');
      for (const secret of [admin.token, 'SIGNATURE-SECRET', 'CALL-VIEW-SECRET']) expect(logged).not.toContain(secret);
    } finally {
      await app.close();
      await storage.remove();
    }
  });
});

describe('configuration checked at start', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('refuses an ADMIN_LOGIN that is not an e-mail: the sign-in form would refuse it (issue 70)', () => {
    expect(() => loadConfig({ ADMIN_LOGIN: 'admin' })).toThrow(ConfigError);
    expect(() => loadConfig({ ADMIN_LOGIN: 'admin' })).toThrow(/ADMIN_LOGIN must be an e-mail address/);
    expect(loadConfig({ ADMIN_LOGIN: ' boss@example.org ' }).adminLogin).toBe('boss@example.org');
    expect(loadConfig({ ADMIN_LOGIN: '' }).adminLogin).toBeUndefined();
  });

  it('npm run admin -- create refuses a login that is not an e-mail, and creates none (issue 70)', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'talkgroup-admin-'));
    dirs.push(dataDir);
    await expect(runAdminCommand(['create', 'admin'], { DATA_DIR: dataDir })).rejects.toThrow(
      /must be an e-mail address/,
    );
    expect(await runAdminCommand(['create', 'boss@example.org'], { DATA_DIR: dataDir })).toMatch(/boss@example.org/);
  });

  it('refuses a token lifetime that is not a number, with the variable named', () => {
    expect(() => loadConfig({ TOKEN_TTL_DAYS: 'thirty' })).toThrow(ConfigError);
    expect(() => loadConfig({ TOKEN_TTL_DAYS: 'thirty' })).toThrow(/TOKEN_TTL_DAYS/);
    expect(loadConfig({ TOKEN_TTL_DAYS: '2' }).tokenTtlMs).toBe(2 * 24 * 3600 * 1000);
  });

  it('reads the fault limits (database wait, slow clients, connection floods) with defaults, and refuses bad ones', () => {
    const defaults = loadConfig({});
    expect(defaults.databaseTimeoutMs).toBe(5000);
    expect(defaults.maxSocketBufferBytes).toBe(2 * 1024 * 1024);
    expect(defaults.connectionRatePerMinute).toBe(120);
    const set = loadConfig({
      DATABASE_TIMEOUT_SECONDS: '2.5',
      MAX_SOCKET_BUFFER_BYTES: '1048576',
      CONNECTION_RATE_PER_MINUTE: '600',
    });
    expect([set.databaseTimeoutMs, set.maxSocketBufferBytes, set.connectionRatePerMinute]).toEqual([
      2500, 1048576, 600,
    ]);
    expect(() => loadConfig({ DATABASE_TIMEOUT_SECONDS: '0' })).toThrow(/DATABASE_TIMEOUT_SECONDS/);
    expect(() => loadConfig({ MAX_SOCKET_BUFFER_BYTES: 'lots' })).toThrow(/MAX_SOCKET_BUFFER_BYTES/);
    expect(() => loadConfig({ CONNECTION_RATE_PER_MINUTE: '-1' })).toThrow(/CONNECTION_RATE_PER_MINUTE/);
  });

  it('reads TLS_CERT and TLS_KEY from PEM contents or from a file path', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'talkgroup-tls-'));
    dirs.push(dir);
    const pem = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
    writeFileSync(path.join(dir, 'cert.pem'), pem);
    expect(loadConfig({ TLS_CERT: pem }).tlsCert).toBe(pem);
    expect(loadConfig({ TLS_CERT: 'cert.pem', INIT_CWD: dir }).tlsCert).toBe(pem);
    expect(() => loadConfig({ TLS_KEY: path.join(dir, 'missing.pem') })).toThrow(/TLS_KEY/);
  });

  it('puts a relative DATA_DIR in the folder where npm start was typed (INIT_CWD)', () => {
    expect(loadConfig({ INIT_CWD: '/srv/talkgroup' }).dataDir).toBe(path.resolve('/srv/talkgroup/data'));
    expect(loadConfig({ INIT_CWD: '/srv/talkgroup', DATA_DIR: 'store' }).dataDir).toBe('/srv/talkgroup/store');
    expect(loadConfig({ DATA_DIR: '/abs/data' }).dataDir).toBe('/abs/data');
  });
});

describe('the node flags', () => {
  it('npm start and the server package start with the flags that benchmarks and tests use (ops/node-flags.ts)', () => {
    const root = path.resolve(import.meta.dirname, '../../..');
    const scriptsOf = (file: string) =>
      (JSON.parse(readFileSync(path.join(root, file), 'utf8')) as { scripts: Record<string, string> }).scripts;
    const flags = SERVER_NODE_FLAGS.join(' ');
    expect(scriptsOf('package.json').start).toBe(`node ${flags} packages/server/start.js`);
    expect(scriptsOf('packages/server/package.json').start).toBe(`node ${flags} start.js`);
  });
});
