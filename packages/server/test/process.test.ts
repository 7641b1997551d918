import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { JANUS_REALTIME_PRIORITY, type MediaProcess, startJanus } from '../src/ops/dev-media.ts';
import { SERVER_NODE_FLAGS } from '../src/ops/node-flags.ts';
import { portBlock, TEST_JANUS_SECRET } from './janus-harness.ts';
import { exited, freePort, outputOf, startServer } from './process-harness.ts';
import { connect, eventually } from './realtime-harness.ts';

const start = startServer;

const post = (base: string, url: string, body: object) =>
  fetch(`${base}${url}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('the server process on SQLite', () => {
  const dirs: string[] = [];
  const children: ChildProcess[] = [];
  afterEach(() => {
    for (const child of children.splice(0)) child.kill('SIGKILL');
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('creates the first administrator from ADMIN_LOGIN, keeps acknowledged writes after kill -9, closes on SIGTERM', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'talkgroup-proc-'));
    dirs.push(dataDir);
    const env = { DATA_DIR: dataDir, ADMIN_LOGIN: 'boss@example.org', ADMIN_PASSWORD: 'boss-password-1' };

    const first = await start(env);
    children.push(first.child);
    const login = await post(first.base, '/user/api/login', {
      user_email: 'boss@example.org',
      user_password: 'boss-password-1',
    });
    expect(login.status).toBe(200);
    // An administrator (the sign-in form then opens its console: e2e/auth.spec.ts signs an administrator in).
    const { user } = await login.json();
    expect(user).toMatchObject({ role: 'admin', email: 'boss@example.org' });
    const token = user.authToken;
    const created = await fetch(`${first.base}/user/api/signUpUser`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-access-token': token },
      body: JSON.stringify({
        firstName: 'Kim',
        lastName: 'Durable',
        email: 'kim@example.org',
        password: 'kim-password-1',
      }),
    });
    expect(created.status).toBe(200);
    const killed = exited(first.child);
    first.child.kill('SIGKILL');
    await killed;

    const second = await start(env);
    children.push(second.child);
    expect(
      (await post(second.base, '/user/api/login', { user_email: 'kim@example.org', user_password: 'kim-password-1' }))
        .status,
    ).toBe(200);
    const closed = exited(second.child);
    second.child.kill('SIGTERM');
    expect(await closed).toEqual({ code: 0, signal: null });
  });
});

describe('the server as npm start runs it', () => {
  it("loads the stripped JavaScript of its sources and never Node's TypeScript stripper (issue 18: memory)", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'talkgroup-proc-'));
    // At exit, the process says whether it ever loaded the stripper.
    const report =
      'data:text/javascript,process.on("exit",()=>console.log("stripper loaded:",process.moduleLoadList.some((m)=>m.includes("amaro"))))';
    try {
      const server = await start({ DATA_DIR: dataDir }, undefined, ['--import', report]);
      const state = await post(server.base, '/user/api/getSignUpState', {});
      expect(state.status).toBe(200);
      expect(await state.json()).toEqual({ success: true, open: true });
      const closed = exited(server.child);
      server.child.kill('SIGTERM');
      expect(await closed).toEqual({ code: 0, signal: null });
      expect(outputOf(server.child)).toContain('stripper loaded: false');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('a start that fails or waits (issue 47)', () => {
  const dirs: string[] = [];
  const stops: Array<() => unknown> = [];
  afterEach(async () => {
    for (const stop of stops.splice(0).reverse()) await stop();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  const dataDir = () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'talkgroup-proc-'));
    dirs.push(dir);
    return dir;
  };

  it('serves with a media server that does not answer yet, says so in the log and on /readyz, and uses it once it answers', async () => {
    const janusPort = await freePort();
    const janusUrl = `ws://127.0.0.1:${janusPort}`;
    const server = await startServer({
      DATA_DIR: dataDir(),
      JANUS_URL: janusUrl,
      JANUS_API_SECRET: TEST_JANUS_SECRET,
      ADMIN_LOGIN: 'boss@example.org',
      ADMIN_PASSWORD: 'boss-password-1',
    });
    stops.push(() => server.child.kill('SIGKILL'));
    await eventually(async () => outputOf(server.child).includes(`JANUS_URL ${janusUrl} does not answer`), 'the log');
    expect(outputOf(server.child)).toMatch(/does not answer \(connection refused[^)]*\)[^"]*\/readyz answers 503/);

    const readyz = async (headers: Record<string, string> = {}) => {
      const answer = await fetch(`${server.base}/readyz`, { headers });
      return { status: answer.status, body: await answer.json() };
    };
    const waiting = await readyz();
    expect(waiting.status).toBe(503);
    expect(waiting.body.media).toMatchObject({ used: true, ok: false, state: 'unreachable' });
    expect(waiting.body.media.servers[0]).toMatchObject({ url: janusUrl, reachable: false });
    expect(waiting.body.media.servers[0].lastError.message).toMatch(/connection refused/);
    // Through a proxy (a forwarded request): ready or not, nothing named.
    expect(await readyz({ 'x-forwarded-for': '203.0.113.5' })).toEqual({
      status: 503,
      body: { success: false, ready: false },
    });

    // It serves: a sign-in, a channel, a page in it (peer to peer while no media server answers).
    const login = await post(server.base, '/user/api/login', {
      user_email: 'boss@example.org',
      user_password: 'boss-password-1',
    });
    const token = (await login.json()).user.authToken;
    const created = await fetch(`${server.base}/user/api/createChannel`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-access-token': token },
      body: JSON.stringify({ channelName: 'Red' }),
    });
    const channel = (await created.json()).res;
    const page = await connect(server.base, token);
    stops.push(() => page.close());
    page.socket.emit('join_room', { room: channel.rtcSession, mode: 'talk' });
    expect(await page.next('media_plane')).toEqual({ room: channel.rtcSession, kind: 'mesh', fallback: true });

    const janus: MediaProcess = await startJanus({
      wsPort: janusPort,
      rtpPorts: portBlock(),
      apiSecret: TEST_JANUS_SECRET,
      realtime: JANUS_REALTIME_PRIORITY,
    });
    stops.push(() => janus.stop());
    await eventually(async () => (await readyz()).status === 200, '/readyz ready once Janus answers');
    expect((await readyz()).body.media.servers[0]).toMatchObject({ url: janusUrl, reachable: true });
    expect(await page.next('media_plane', (plane) => plane.kind === 'server')).toEqual({
      room: channel.rtcSession,
      kind: 'server',
    });
  }, 60_000);

  /** Runs `npm start`'s server until it exits (it must: each of these starts fails). */
  async function failedStart(env: Record<string, string>) {
    const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, path.resolve(import.meta.dirname, '../start.js')], {
      env: { ...process.env, WEB_DIR: '', LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    stops.push(() => child.kill('SIGKILL'));
    const { code } = await exited(child);
    return { code, output };
  }

  it('exits with a status and a sentence naming the setting when it cannot start', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    stops.push(() => taken.close());
    const port = (taken.address() as { port: number }).port;
    const busy = await failedStart({ DATA_DIR: dataDir(), PORT: String(port) });
    expect(busy.code).toBe(1);
    expect(busy.output).toContain(
      `Talkgroup could not start: PORT ${port} on HOST 127.0.0.1 is already in use by another process`,
    );

    const file = path.join(dataDir(), 'a-file');
    writeFileSync(file, '');
    const notAFolder = await failedStart({ DATA_DIR: path.join(file, 'data'), PORT: String(await freePort()) });
    expect(notAFolder.code).toBe(1);
    expect(notAFolder.output).toContain(
      `Talkgroup could not start: DATA_DIR ${path.join(file, 'data')} cannot be used`,
    );

    // Issue 70: an administrator named "admin" could never sign in (the form asks for an e-mail).
    const notAnEmail = await failedStart({ DATA_DIR: dataDir(), PORT: String(await freePort()), ADMIN_LOGIN: 'admin' });
    expect(notAnEmail.code).toBe(1);
    expect(notAnEmail.output).toContain('ADMIN_LOGIN must be an e-mail address');
  }, 60_000);
});
