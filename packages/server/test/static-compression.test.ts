/**
 * Compression: built assets are sent precompressed (.br/.gz written by the web build) with their caching
 * (hashed names for good, the page and the service worker revalidated), and JSON answers are compressed when
 * the client asks.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from './harness.ts';

describe('compressed answers', () => {
  let app: TestApp;
  let webDir: string;
  const script = `console.log(${JSON.stringify('x'.repeat(4000))});`;
  const page = `<!doctype html><title>Talkgroup</title><div id="root"></div>${'<!-- -->'.repeat(300)}`;

  beforeEach(async () => {
    webDir = mkdtempSync(path.join(tmpdir(), 'talkgroup-web-'));
    mkdirSync(path.join(webDir, 'assets'));
    const write = (name: string, text: string) => {
      writeFileSync(path.join(webDir, name), text);
      writeFileSync(path.join(webDir, `${name}.br`), brotliCompressSync(text));
      writeFileSync(path.join(webDir, `${name}.gz`), gzipSync(text));
    };
    write('index.html', page);
    write('assets/index-abc123.js', script);
    write('sw.js', script);
    app = await startApp('sqlite', { webDir });
  });
  afterEach(async () => {
    await app.close();
    rmSync(webDir, { recursive: true, force: true });
  });

  const get = (url: string, encoding?: string) =>
    app.fastify.inject({ method: 'GET', url, headers: encoding ? { 'accept-encoding': encoding } : {} });

  it('sends a hashed asset precompressed, cached for good', async () => {
    const br = await get('/assets/index-abc123.js', 'gzip, deflate, br');
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.rawPayload.length).toBeLessThan(script.length / 4);
    const gz = await get('/assets/index-abc123.js', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(script);
    const plain = await get('/assets/index-abc123.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
  });

  it('revalidates the page and the service worker on every visit, compressed too', async () => {
    for (const url of ['/', '/dashboard', '/sw.js']) {
      const response = await get(url, 'br');
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.headers['content-encoding']).toBe('br');
    }
  });

  it('compresses a JSON answer when asked', async () => {
    const gz = await get('/api/openapi.json', 'gzip');
    expect(gz.statusCode).toBe(200);
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString())).toHaveProperty('paths');
    const plain = await get('/api/openapi.json');
    expect(plain.headers['content-encoding']).toBeUndefined();
  });
});
