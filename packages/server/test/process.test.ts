import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { exited, outputOf, startServer } from './process-harness.ts';

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
    const token = (await login.json()).user.authToken;
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
