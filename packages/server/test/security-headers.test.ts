/** Security headers on pages, API answers and files; framing only for the call view; HSTS only over TLS. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config/config.ts';
import { tileSource } from '../src/http/security-headers.ts';
import { getFile, pngImage, upload } from './chat-fixtures.ts';
import { type Account, createMember, databases, signUpAdmin, startApp, type TestApp } from './harness.ts';

function directives(csp: string | undefined): Map<string, string[]> {
  return new Map(
    (csp ?? '')
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name, ...values]) => [name, values]),
  );
}

function expectCommonHeaders(headers: Record<string, unknown>) {
  expectBaseHeaders(headers);
  const csp = directives(headers['content-security-policy'] as string);
  expect(csp.get('default-src')).toEqual(["'self'"]);
  expect(csp.get('script-src')).toEqual(["'self'"]);
  expect(csp.get('object-src')).toEqual(["'none'"]);
}

function expectBaseHeaders(headers: Record<string, unknown>) {
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['referrer-policy']).toBe('no-referrer');
  expect(headers['permissions-policy']).toBe('microphone=(self), camera=(self), geolocation=(self)');
  expect(headers['strict-transport-security']).toBeUndefined();
}

describe.each(databases)('security headers on %s', (dialect) => {
  let app: TestApp;
  let webDir: string;
  let admin: Account;

  beforeAll(async () => {
    webDir = mkdtempSync(path.join(tmpdir(), 'talkgroup-web-'));
    writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><title>Talkgroup</title><div id="root"></div>');
    app = await startApp(dialect, {
      webDir,
      mapTileUrl: 'https://{s}.tiles.example.org/{z}/{x}/{y}.png',
      mapLabelsUrl: 'https://labels.example.net:8443/{z}/{x}/{y}.png',
      frameAncestors: ['https://intranet.example.org'],
      trustProxy: true,
    });
    admin = await signUpAdmin(app);
  });
  afterAll(async () => {
    await app.close();
    rmSync(webDir, { recursive: true, force: true });
  });

  it('sends the page with a CSP that allows its own scripts, the tile hosts and its own socket, and no framing', async () => {
    const page = await app.fastify.inject({ method: 'GET', url: '/dashboard', headers: { host: 'ptt.example.org' } });
    expect(page.statusCode).toBe(200);
    expectCommonHeaders(page.headers);
    const csp = directives(page.headers['content-security-policy'] as string);
    expect(csp.get('img-src')).toEqual([
      "'self'",
      'data:',
      'blob:',
      'https://*.tiles.example.org',
      'https://labels.example.net:8443',
    ]);
    expect(csp.get('media-src')).toEqual(["'self'", 'data:', 'blob:']);
    expect(csp.get('connect-src')).toEqual(["'self'", 'ws://ptt.example.org', 'wss://ptt.example.org']);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    expect(page.headers['x-frame-options']).toBe('DENY');
  });

  it('lets the origins of FRAME_ANCESTORS frame the user call view, and only it', async () => {
    const view = await app.fastify.inject({ method: 'GET', url: '/userCallView/%7B%22token%22%3A%22x%22%7D' });
    expect(view.statusCode).toBe(200);
    expectCommonHeaders(view.headers);
    expect(directives(view.headers['content-security-policy'] as string).get('frame-ancestors')).toEqual([
      "'self'",
      'https://intranet.example.org',
    ]);
    expect(view.headers['x-frame-options']).toBeUndefined();
  });

  it('sends the headers on API answers, errors included', async () => {
    const answer = await app.fastify.inject({
      method: 'POST',
      url: '/user/api/getAllUsers',
      headers: { 'x-access-token': admin.token },
      payload: {},
    });
    expect(answer.statusCode).toBe(200);
    expectCommonHeaders(answer.headers);
    const refused = await app.call('/user/api/getAllUsers', {});
    expect(refused.status).toBe(401);
    const raw = await app.fastify.inject({ method: 'POST', url: '/user/api/getAllUsers', payload: {} });
    expectCommonHeaders(raw.headers);
  });

  it('sends the headers on uploaded files, with a CSP that lets a file run nothing', async () => {
    const mia = await createMember(app, admin);
    const channel = (await app.call('/user/api/createChannel', { channelName: 'Headers' }, admin.token)).body.res;
    await app.call('/user/api/addUserToChannel', { userId: mia.id, channelId: channel.id }, admin.token);
    const sent = await upload(
      app,
      mia.token,
      { userId: mia.id, channelId: channel.id },
      { fileName: 'p.png', contentType: 'image/png', bytes: pngImage(2, 2) },
    );
    expect(sent.status).toBe(200);
    const list = await app.call('/user/api/getchannelmessagelistForAdmin', { channelId: channel.id }, admin.token);
    const served = await getFile(app, list.body.discussion[0].file.path);
    expect(served.statusCode).toBe(200);
    expectBaseHeaders(served.headers);
    expect(served.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    expect(served.headers['x-frame-options']).toBe('DENY');
  });

  it('sends HSTS only for a request that came over TLS (here through a trusted reverse proxy)', async () => {
    const overTls = await app.fastify.inject({
      method: 'GET',
      url: '/healthz',
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(overTls.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    const plain = await app.fastify.inject({ method: 'GET', url: '/healthz' });
    expect(plain.headers['strict-transport-security']).toBeUndefined();
  });
});

describe('security settings', () => {
  it('turns tile URL templates into CSP sources', () => {
    expect(tileSource('https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png')).toBe('https://*.tile.openstreetmap.org');
    expect(tileSource('https://server.arcgisonline.com/ArcGIS/rest/{z}/{y}/{x}')).toBe(
      'https://server.arcgisonline.com',
    );
    expect(tileSource('javascript:alert(1)')).toBeUndefined();
  });

  it('reads FRAME_ANCESTORS and TRUST_PROXY, and refuses what they cannot be', () => {
    const config = loadConfig({
      FRAME_ANCESTORS: 'https://a.example.org, https://b.example.org:8443',
      TRUST_PROXY: '1',
    });
    expect(config.frameAncestors).toEqual(['https://a.example.org', 'https://b.example.org:8443']);
    const trustsHop = config.trustProxy as (address: string, hop: number) => boolean;
    expect([trustsHop('10.0.0.1', 0), trustsHop('10.0.0.2', 1)]).toEqual([true, false]);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8,127.0.0.1' }).trustProxy).toEqual(['10.0.0.0/8', '127.0.0.1']);
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(() => loadConfig({ FRAME_ANCESTORS: "'unsafe-inline'" })).toThrow(ConfigError);
    expect(() => loadConfig({ TRUST_PROXY: 'everyone' })).toThrow(/TRUST_PROXY/);
  });
});
