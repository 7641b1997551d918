/** The server serves the built web app: pages fall back to index.html, API paths and missing files do not. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, startApp, type TestApp } from './harness.ts';

describe.each(databases)('web app on %s', (dialect) => {
  let app: TestApp;
  let webDir: string;

  beforeAll(async () => {
    webDir = mkdtempSync(path.join(tmpdir(), 'talkgroup-web-'));
    mkdirSync(path.join(webDir, 'assets'));
    writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><title>Talkgroup</title><div id="root"></div>');
    writeFileSync(path.join(webDir, 'assets', 'index-abc123.js'), 'console.log(1)');
    app = await startApp(dialect, { webDir });
  });
  afterAll(async () => {
    await app.close();
    rmSync(webDir, { recursive: true, force: true });
  });

  const get = (url: string) => app.fastify.inject({ method: 'GET', url });

  it.each(['/', '/signin', '/Signin', '/dashboard', '/groupCallView/Room1', '/no/such/page?x=1'])(
    'answers the page %s with index.html, revalidated on every visit',
    async (url) => {
      const response = await get(url);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/text\/html/);
      expect(response.body).toContain('<div id="root">');
      expect(response.headers['cache-control']).toBe('no-cache');
    },
  );

  it('serves a built asset with a long immutable cache', async () => {
    const response = await get('/assets/index-abc123.js');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/javascript/);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('answers a missing asset with 404, never with the page', async () => {
    const response = await get('/assets/index-old999.js');
    expect(response.statusCode).toBe(404);
    expect(response.body).not.toContain('<div id="root">');
  });

  it.each(['/user/api/noSuchCall', '/files/a/b', '/health/x', '/device/x'])(
    'answers GET %s with a JSON 404, not the page',
    async (url) => {
      const response = await get(url);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ success: false });
    },
  );

  it('answers an unknown POST with a JSON 404', async () => {
    const response = await app.fastify.inject({ method: 'POST', url: '/signin', payload: {} });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ success: false, result: expect.stringContaining('No such call') });
  });
});
