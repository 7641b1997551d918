/** The channel room's address is the channel's rtcSession, which may look like a file name. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, startApp, type TestApp } from './harness.ts';

describe.each(databases)('room pages on %s', (dialect) => {
  let app: TestApp;
  let webDir: string;

  beforeAll(async () => {
    webDir = mkdtempSync(path.join(tmpdir(), 'talkgroup-web-'));
    mkdirSync(path.join(webDir, 'assets'));
    writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><div id="root"></div>');
    app = await startApp(dialect, { webDir });
  });
  afterAll(async () => {
    await app.close();
    rmSync(webDir, { recursive: true, force: true });
  });

  it.each(['/groupCallView/Team1.5', '/mobileCallView/v2.0', '/join/Squad.B'])(
    'opens the room %s of a channel whose name has a dot (a reload must not 404)',
    async (url) => {
      const response = await app.fastify.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(200);
      expect(response.body).toContain('<div id="root">');
    },
  );

  it('still answers a missing top-level file with 404', async () => {
    const response = await app.fastify.inject({ method: 'GET', url: '/robots.txt' });
    expect(response.statusCode).toBe(404);
  });
});
