import { createHmac } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config/config.ts';
import { databases, signUpAdmin, startApp, type TestApp } from './harness.ts';

describe.each(databases)('client configuration (%s)', (dialect) => {
  let app: TestApp;
  afterEach(async () => {
    await app?.close();
  });

  it('hands a signed-in browser the ICE servers and the map tile sources of the configuration', async () => {
    app = await startApp(dialect, {
      iceServers: [{ urls: ['turn:turn.example.org:3478'], username: 'ptt', credential: 'pw' }],
      mapTileUrl: 'https://tiles.example.org/{z}/{x}/{y}.png',
      mapLabelsUrl: undefined,
      mapAttribution: '© Ville de Lyon',
      positionStaleMs: 120_000,
      positionRetentionMs: 7 * 24 * 3600_000,
    });
    const admin = await signUpAdmin(app);
    const response = await app.call('/user/api/getClientConfig', {}, admin.token);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      success: true,
      res: {
        iceServers: [{ urls: ['turn:turn.example.org:3478'], username: 'ptt', credential: 'pw' }],
        mapTileUrl: 'https://tiles.example.org/{z}/{x}/{y}.png',
        mapLabelsUrl: null,
        mapAttribution: '© Ville de Lyon',
        mapMaxZoom: 19,
        positionStaleMs: 120_000,
        positionRetentionDays: 7,
        mediaServer: false,
        pushPublicKey: expect.stringMatching(/^[A-Za-z0-9_-]{87}$/),
        // No PUBLIC_URL: passkeys are off (issue 47).
        passkeys: false,
        privateCallsAuditable: false,
        // No SIP_PORT: no gateway dials in (issue 51).
        sip: null,
      },
    });
  });

  it('mints time-limited TURN credentials per user that coturn checks with its shared secret', async () => {
    app = await startApp(dialect, {
      turnUrls: ['turn:turn.example.org:3478', 'turns:turn.example.org:5349'],
      turnSecret: 'shared-with-coturn',
      turnTtlMs: 3600_000,
      janusUrls: [],
    });
    const admin = await signUpAdmin(app);
    const before = Math.floor(Date.now() / 1000);
    const { body } = await app.call('/user/api/getClientConfig', {}, admin.token);
    const [turn] = body.res.iceServers;
    expect(turn.urls).toEqual(['turn:turn.example.org:3478', 'turns:turn.example.org:5349']);
    // username: <expiry unix seconds>:<userId>; credential: base64(HMAC-SHA1(secret, username)), as coturn's
    // use-auth-secret recomputes it.
    const [expiry, userId] = turn.username.split(':').map(Number);
    expect(userId).toBe(admin.id);
    expect(expiry).toBeGreaterThanOrEqual(before + 3600);
    expect(expiry).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 3600);
    expect(turn.credential).toBe(createHmac('sha1', 'shared-with-coturn').update(turn.username).digest('base64'));
    expect(Date.parse(body.res.iceServersExpireAt)).toBe(expiry * 1000);
  });

  it('says when a media server carries the voice (JANUS_URL)', async () => {
    app = await startApp(dialect, { janusUrls: ['ws://127.0.0.1:1'] });
    const admin = await signUpAdmin(app);
    const { body } = await app.call('/user/api/getClientConfig', {}, admin.token);
    expect(body.res.mediaServer).toBe(true);
    expect(body.res.iceServersExpireAt).toBeUndefined();
  });

  it('gives the hybrid map (imagery plus labels) by default', async () => {
    app = await startApp(dialect);
    const admin = await signUpAdmin(app);
    const { body } = await app.call('/user/api/getClientConfig', {}, admin.token);
    expect(body.res.iceServers).toEqual([]);
    expect(body.res.mapTileUrl).toMatch(/World_Imagery/);
    expect(body.res.mapLabelsUrl).toMatch(/Boundaries_and_Places/);
    expect(body.res.mapAttribution).toBe('Esri, Maxar, Earthstar Geographics');
    // Positions older than 5 minutes are shown as stale (POSITION_STALE_SECONDS).
    expect(body.res.positionStaleMs).toBe(300_000);
  });

  it('tells browsers to use relayed paths only when ICE_TRANSPORT_POLICY is relay, and refuses another value', async () => {
    app = await startApp(dialect, {
      iceTransportPolicy: loadConfig({ ICE_TRANSPORT_POLICY: 'relay' }).iceTransportPolicy,
    });
    const admin = await signUpAdmin(app);
    const { body } = await app.call('/user/api/getClientConfig', {}, admin.token);
    expect(body.res.iceTransportPolicy).toBe('relay');
    expect(loadConfig({}).iceTransportPolicy).toBe('all');
    expect(() => loadConfig({ ICE_TRANSPORT_POLICY: 'turn-only' })).toThrow(ConfigError);
  });

  it('refuses a caller without a token, since TURN credentials may be in it', async () => {
    app = await startApp(dialect, { iceServers: [{ urls: 'turn:t.example.org', username: 'u', credential: 'c' }] });
    const response = await app.call('/user/api/getClientConfig', {});
    expect(response.status).toBe(401);
    expect(response.body.success).toBe(false);
    expect(JSON.stringify(response.body)).not.toContain('turn:');
  });
});

describe('the map’s sources (issue 58)', () => {
  it('credits Esri for its imagery, nobody for one’s own tiles unless MAP_ATTRIBUTION says so', () => {
    const own = { MAP_TILE_URL: 'https://tiles.intranet/{z}/{x}/{y}.png' };
    expect(loadConfig({})).toMatchObject({ mapAttribution: 'Esri, Maxar, Earthstar Geographics' });
    expect(loadConfig(own)).toMatchObject({ mapTileUrl: own.MAP_TILE_URL, mapLabelsUrl: undefined });
    expect(loadConfig(own).mapAttribution).toBeUndefined();
    expect(loadConfig({ ...own, MAP_ATTRIBUTION: ' © OpenStreetMap contributors ' }).mapAttribution).toBe(
      '© OpenStreetMap contributors',
    );
  });
});
