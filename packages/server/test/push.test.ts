/**
 * Web Push (issue 34): a local HTTPS push service (a certificate made here with openssl, trusted by the app
 * through config.pushExtraCa) receives what the server sends; the test decrypts each payload with the
 * subscription's keys as RFC 8291 says (aes128gcm), checks it, and verifies the VAPID JWT (RFC 8292) with the
 * public key getClientConfig gives. Then the refusals (endpoint, keys), the 404/410 clean-up, the retries,
 * and the subscriptions that go with a logout, a revocation and a deleted user.
 */
import { execFileSync } from 'node:child_process';
import { createDecipheriv, createECDH, createPublicKey, type ECDH, hkdfSync, randomBytes, verify } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ChannelSummary } from '../src/channels/store.ts';
import type { Dialect } from '../src/db/open.ts';
import {
  type Account,
  buildTestApp,
  createMember,
  databases,
  signUpAdmin,
  type TestApp,
  testStorage,
} from './harness.ts';
import { connect, eventually, listen, type TestClient } from './realtime-harness.ts';
import { createWithRole } from './role-fixtures.ts';

interface Delivery {
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A push service on 127.0.0.1 with its own self-signed certificate; answers 201 unless told otherwise. */
class PushService {
  readonly deliveries: Delivery[] = [];
  /** Status codes to answer on a path, in order, before 201. */
  readonly answers = new Map<string, number[]>();
  private readonly waiters: Array<() => void> = [];
  private readonly taken = new Set<Delivery>();
  private server: Server | undefined;
  private dir = '';
  cert = '';
  origin = '';

  async start(): Promise<void> {
    this.dir = mkdtempSync(path.join(tmpdir(), 'talkgroup-push-'));
    const key = path.join(this.dir, 'key.pem');
    const cert = path.join(this.dir, 'cert.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        key,
        '-out',
        cert,
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
      ],
      { stdio: 'ignore' },
    );
    this.cert = readFileSync(cert, 'utf8');
    this.server = createServer({ key: readFileSync(key), cert: this.cert }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const url = req.url ?? '';
        const status = this.answers.get(url)?.shift() ?? 201;
        res.writeHead(status, status === 503 ? { 'retry-after': '0' } : {}).end();
        this.deliveries.push({ path: url, headers: req.headers, body: Buffer.concat(chunks) });
        for (const wake of this.waiters.splice(0)) wake();
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.origin = `https://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** The next delivery to this path not taken yet; waits for it. */
  async next(pathname: string): Promise<Delivery> {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const found = this.deliveries.find((d) => d.path === pathname && !this.taken.has(d));
      if (found) {
        this.taken.add(found);
        return found;
      }
      if (Date.now() > deadline) throw new Error(`no push reached ${pathname}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
  }

  /** Deliveries to this path so far. */
  to(pathname: string): Delivery[] {
    return this.deliveries.filter((d) => d.path === pathname);
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** A browser's side of a subscription: its ECDH key pair and auth secret. */
interface Subscriber {
  path: string;
  endpoint: string;
  ecdh: ECDH;
  auth: Buffer;
  json: { endpoint: string; expirationTime: null; keys: { p256dh: string; auth: string } };
}

let subscriberCount = 0;
function subscriber(origin: string): Subscriber {
  subscriberCount += 1;
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16);
  const pathname = `/push/${subscriberCount}-${randomBytes(4).toString('hex')}`;
  const endpoint = `${origin}${pathname}`;
  return {
    path: pathname,
    endpoint,
    ecdh,
    auth,
    json: {
      endpoint,
      expirationTime: null,
      keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') },
    },
  };
}

/** RFC 8291 / RFC 8188: one aes128gcm record, decrypted with the subscription's private key and secret. */
function decrypt(sub: Subscriber, delivery: Delivery): any {
  expect(delivery.headers['content-encoding']).toBe('aes128gcm');
  const body = delivery.body;
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const idLength = body[20] as number;
  expect(idLength).toBe(65);
  const serverKey = body.subarray(21, 21 + idLength);
  const record = body.subarray(21 + idLength);
  expect(record.length).toBeLessThanOrEqual(recordSize);
  const shared = sub.ecdh.computeSecret(serverKey);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), sub.ecdh.getPublicKey(), serverKey]);
  const ikm = Buffer.from(hkdfSync('sha256', shared, sub.auth, keyInfo, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  const plain = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
  let end = plain.length - 1;
  while (end >= 0 && plain[end] === 0) end--;
  // The last (only) record ends with the delimiter 2, then its padding.
  expect(plain[end]).toBe(2);
  return JSON.parse(plain.subarray(0, end).toString('utf8'));
}

/** RFC 8292: `vapid t=<JWT>, k=<public key>`, an ES256 JWT for the push service's origin, under a day. */
function verifyVapid(delivery: Delivery, origin: string, publicKey: string): { sub: string } {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(String(delivery.headers.authorization));
  expect(match).not.toBeNull();
  const [, jwt = '', k] = match as RegExpExecArray;
  expect(k).toBe(publicKey);
  const [header = '', payload = '', signature = ''] = jwt.split('.');
  expect(JSON.parse(Buffer.from(header, 'base64url').toString())).toMatchObject({ alg: 'ES256', typ: 'JWT' });
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
  const now = Date.now() / 1000;
  expect(claims.aud).toBe(origin);
  expect(claims.exp).toBeGreaterThan(now);
  expect(claims.exp).toBeLessThanOrEqual(now + 24 * 3600 + 5);
  expect(claims.sub).toMatch(/^(mailto:|https:)/);
  const point = Buffer.from(publicKey, 'base64url');
  expect(point.length).toBe(65);
  const key = createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33).toString('base64url'),
    },
    format: 'jwk',
  });
  const good = verify(
    'sha256',
    Buffer.from(`${header}.${payload}`),
    { key, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  );
  expect(good).toBe(true);
  // The same check must fail on another text: the verification is not vacuous.
  expect(
    verify(
      'sha256',
      Buffer.from(`${header}.x`),
      { key, dsaEncoding: 'ieee-p1363' },
      Buffer.from(signature, 'base64url'),
    ),
  ).toBe(false);
  return claims;
}

describe.each(databases)('Web Push on %s', (dialect: Dialect) => {
  const service = new PushService();
  let storage: ReturnType<typeof testStorage>;
  let app: TestApp;
  let url: string;
  let admin: Account;
  let alice: Account;
  let bob: Account;
  let channel: ChannelSummary;
  let publicKey: string;
  const clients: TestClient[] = [];

  beforeAll(() => service.start());
  afterAll(() => service.stop());

  /** A JSON POST with Accept-Language. */
  const callIn = async (language: string, route: string, body: object, token: string) => {
    const response = await app.fastify.inject({
      method: 'POST',
      url: route,
      headers: { 'x-access-token': token, 'accept-language': language },
      payload: body,
    });
    return { status: response.statusCode, body: response.json() };
  };
  const subscribe = async (account: Account, language = 'en') => {
    const sub = subscriber(service.origin);
    const saved = await callIn(language, '/user/api/savePushSubscription', { subscription: sub.json }, account.token);
    expect(saved).toMatchObject({ status: 200, body: { success: true, code: 'push_saved' } });
    return sub;
  };
  const rows = (userId: number) =>
    app.services.db.selectFrom('push_subscriptions').selectAll().where('user_id', '=', userId).execute();
  const pushed = (outcome: string) => async () => {
    const metric = await app.metrics.registry?.getSingleMetric('talkgroup_push_total')?.get();
    return metric?.values.find((v) => v.labels.outcome === outcome)?.value ?? 0;
  };

  beforeEach(async () => {
    storage = testStorage(dialect);
    // The sends are counted in /metrics, which is there with METRICS_TOKEN.
    app = await buildTestApp(storage, {
      pushEndpointAllow: [service.origin],
      pushExtraCa: service.cert,
      metricsToken: 'push-metrics-token',
    });
    url = await listen(app);
    admin = await signUpAdmin(app);
    alice = await createMember(app, admin, { firstName: 'Alice', lastName: 'Field' });
    bob = await createMember(app, admin, { firstName: 'Bob', lastName: 'Field' });
    channel = await app.services.channels.create('Atelier');
    await app.services.memberships.add(channel.id, [alice.id, bob.id]);
    const config = await app.call('/user/api/getClientConfig', {}, alice.token);
    publicKey = config.body.res.pushPublicKey;
  });
  afterEach(async () => {
    for (const client of clients.splice(0)) client.close();
    await app.fastify.close();
    await storage.remove();
  });

  it('gives a VAPID key made once and kept in the database', async () => {
    expect(Buffer.from(publicKey, 'base64url')).toHaveLength(65);
    expect(Buffer.from(publicKey, 'base64url')[0]).toBe(4);
    await app.fastify.close();
    app = await buildTestApp(storage, { pushEndpointAllow: [service.origin] });
    const again = await app.call('/user/api/getClientConfig', {}, alice.token);
    expect(again.body.res.pushPublicKey).toBe(publicKey);
  });

  it('pushes an SOS to those who see it, sender excluded, urgent, in each device’s language', async () => {
    const aliceDevice = await subscribe(alice, 'fr-FR,fr;q=0.9');
    const adminDevice = await subscribe(admin, 'de');
    const bobDevice = await subscribe(bob);
    const sent = await app.call('/user/api/sendEmergencyAlert', { channelId: channel.id }, bob.token);
    expect(sent.status).toBe(200);
    const alertId = sent.body.res.id;

    const toAlice = await service.next(aliceDevice.path);
    expect(decrypt(aliceDevice, toAlice)).toEqual({
      kind: 'sos',
      title: 'SOS : Bob Field',
      body: 'Bob Field a envoyé une alerte d’urgence dans Atelier.',
      url: `/talk/${channel.id}`,
      tag: `sos-${alertId}`,
    });
    expect(toAlice.headers.urgency).toBe('high');
    const claims = verifyVapid(toAlice, service.origin, publicKey);
    expect(claims.sub).toBe('mailto:admin@example.org');

    const toAdmin = await service.next(adminDevice.path);
    expect(decrypt(adminDevice, toAdmin)).toMatchObject({
      kind: 'sos',
      title: 'SOS: Bob Field',
      body: 'Bob Field hat in Atelier einen Notruf gesendet.',
    });
    await app.push.sender?.idle();
    expect(service.to(bobDevice.path)).toEqual([]);
  });

  it('pushes a ringing private call to the callee, urgent, kept no longer than it rings', async () => {
    const aliceDevice = await subscribe(alice);
    const started = await app.call('/user/api/startPrivateCall', { userId: alice.id }, admin.token);
    expect(started.status).toBe(200);
    const delivery = await service.next(aliceDevice.path);
    expect(decrypt(aliceDevice, delivery)).toEqual({
      kind: 'call',
      title: 'Ada Admin is calling you',
      body: 'Private call: answer or decline.',
      url: `/talk?call=${started.body.res.callId}`,
      tag: `call-${started.body.res.callId}`,
      callId: started.body.res.callId,
    });
    expect(delivery.headers.urgency).toBe('high');
    expect(delivery.headers.ttl).toBe(String(app.config.privateCallRingMs / 1000));
    verifyVapid(delivery, service.origin, publicKey);
  });

  it('turns the ringing notification into a missed call when the caller gives up, in the device’s language', async () => {
    const aliceDevice = await subscribe(alice, 'fr');
    const started = await app.call('/user/api/startPrivateCall', { userId: alice.id }, admin.token);
    const callId = started.body.res.callId;
    expect(decrypt(aliceDevice, await service.next(aliceDevice.path))).toMatchObject({ kind: 'call' });
    expect((await app.call('/user/api/endPrivateCall', { callId }, admin.token)).status).toBe(200);
    const missed = await service.next(aliceDevice.path);
    expect(decrypt(aliceDevice, missed)).toEqual({
      kind: 'missed_call',
      title: 'Appel manqué',
      body: 'Ada Admin vous a appelé.',
      url: '/talk',
      tag: `call-${callId}`,
      callId,
    });
    expect(missed.headers.urgency).toBe('normal');
  });

  it('pushes a transmission to the members who are not in the channel, one topic per channel', async () => {
    const carol = await createMember(app, admin, { firstName: 'Carol', lastName: 'Away' });
    await app.services.memberships.add(channel.id, [carol.id]);
    const carolDevice = await subscribe(carol);
    const bobDevice = await subscribe(bob);
    const aliceDevice = await subscribe(alice);
    // Dan is away too, but busy: his transmissions go to his missed list without a notification.
    const dan = await createMember(app, admin, { firstName: 'Dan', lastName: 'Busy' });
    await app.services.memberships.add(channel.id, [dan.id]);
    const danDevice = await subscribe(dan);
    expect((await app.call('/user/api/setAvailability', { busy: true }, dan.token)).status).toBe(200);
    // Alice talks; Bob is in the channel (his page), Carol is not.
    const joined = async (account: Account) => {
      const client = await connect(url, account.token);
      clients.push(client);
      client.socket.emit('join_room', { room: channel.rtcSession });
      await client.next('all_users');
      return client;
    };
    const talker = await joined(alice);
    await joined(bob);
    expect(await talker.emitAck('floor_request', { room: channel.rtcSession })).toMatchObject({ granted: true });

    const delivery = await service.next(carolDevice.path);
    expect(decrypt(carolDevice, delivery)).toEqual({
      kind: 'transmission',
      title: 'Atelier',
      body: 'Alice Field is talking in Atelier.',
      url: `/talk/${channel.id}`,
      tag: `channel-${channel.id}`,
    });
    expect(delivery.headers.topic).toBe(`channel-${channel.id}`);
    expect(delivery.headers.urgency).toBe('normal');
    verifyVapid(delivery, service.origin, publicKey);
    await app.push.sender?.idle();
    expect(service.to(bobDevice.path)).toEqual([]);
    expect(service.to(aliceDevice.path)).toEqual([]);
    expect(service.to(danDevice.path)).toEqual([]);
  });

  it('pushes a geofence crossing to administrators and the channel’s dispatchers', async () => {
    const dispatcher = await createWithRole(app, admin, 'dispatcher', { firstName: 'Dora', lastName: 'Desk' });
    await app.services.memberships.add(channel.id, [dispatcher.id]);
    const deskDevice = await subscribe(dispatcher, 'fr');
    const bobDevice = await subscribe(bob);
    const created = await app.call(
      '/user/api/createGeofence',
      { name: 'Dépôt', channelId: channel.id, shape: { type: 'circle', lat: 48.8566, lng: 2.3522, radiusM: 200 } },
      admin.token,
    );
    expect(created.status).toBe(200);
    const phone = await connect(url, alice.token);
    clients.push(phone);
    expect(await phone.emitAck('onLocationChanged', { lat: 48.8666, lng: 2.3522, accuracy: 10 })).toMatchObject({
      success: true,
    });
    expect(await phone.emitAck('onLocationChanged', { lat: 48.8566, lng: 2.3522, accuracy: 10 })).toMatchObject({
      success: true,
    });
    const delivery = await service.next(deskDevice.path);
    expect(decrypt(deskDevice, delivery)).toEqual({
      kind: 'geofence',
      title: 'Zone Dépôt',
      body: 'Alice Field est entré dans Dépôt.',
      url: '/dispatch',
      tag: `geofence-${created.body.res.id}-${alice.id}`,
    });
    verifyVapid(delivery, service.origin, publicKey);
    await app.push.sender?.idle();
    expect(service.to(bobDevice.path)).toEqual([]);
  });

  it('refuses an endpoint that is not https or leads to a private address, and bad keys, in the caller’s language', async () => {
    const good = subscriber(service.origin).json;
    const refusals: Array<[object, string, string]> = [
      [{ ...good, endpoint: 'http://push.example.org/x' }, 'push_endpoint_https', 'https://'],
      [{ ...good, endpoint: 'https://127.0.0.1:9/x' }, 'push_endpoint_private', 'réseau privé'],
      [{ ...good, endpoint: 'https://10.1.2.3/x' }, 'push_endpoint_private', 'réseau privé'],
      [{ ...good, endpoint: 'https://[::1]:8443/x' }, 'push_endpoint_private', 'réseau privé'],
      [{ ...good, endpoint: 'https://localhost:8443/x' }, 'push_endpoint_private', 'réseau privé'],
      [{ ...good, endpoint: 'https://169.254.169.254/latest' }, 'push_endpoint_private', 'réseau privé'],
      [
        {
          ...good,
          keys: { ...good.keys, p256dh: Buffer.concat([Buffer.from([4]), randomBytes(64)]).toString('base64url') },
        },
        'push_key_invalid',
        'P-256',
      ],
      [{ ...good, keys: { ...good.keys, p256dh: randomBytes(33).toString('base64url') } }, 'push_key_invalid', 'P-256'],
      [
        { ...good, keys: { ...good.keys, auth: randomBytes(8).toString('base64url') } },
        'push_auth_invalid',
        '16 octets',
      ],
    ];
    for (const [subscription, code, words] of refusals) {
      const answer = await callIn('fr', '/user/api/savePushSubscription', { subscription }, alice.token);
      expect(answer.status, code).toBe(400);
      expect(answer.body.code).toBe(code);
      expect(answer.body.result).toContain(words);
    }
    const inGerman = await callIn(
      'de',
      '/user/api/savePushSubscription',
      { subscription: { ...good, endpoint: 'http://push.example.org/x' } },
      alice.token,
    );
    expect(inGerman.body.result).toBe('Die Adresse des Push-Dienstes muss mit https:// beginnen.');
    expect(await rows(alice.id)).toEqual([]);
  });

  it('keeps one row per endpoint, updated when saved again; deletePushSubscription removes it', async () => {
    const device = await subscribe(alice);
    const fresh = createECDH('prime256v1');
    fresh.generateKeys();
    const again = await app.call(
      '/user/api/savePushSubscription',
      { subscription: { ...device.json, keys: { ...device.json.keys, p256dh: fresh.getPublicKey('base64url') } } },
      alice.token,
    );
    expect(again.status).toBe(200);
    const saved = await rows(alice.id);
    expect(saved).toHaveLength(1);
    expect(saved[0]?.p256dh).toBe(fresh.getPublicKey('base64url'));
    // Another user cannot remove it.
    await app.call('/user/api/deletePushSubscription', { endpoint: device.endpoint }, bob.token);
    expect(await rows(alice.id)).toHaveLength(1);
    const removed = await app.call('/user/api/deletePushSubscription', { endpoint: device.endpoint }, alice.token);
    expect(removed.body).toMatchObject({ success: true, code: 'push_deleted' });
    expect(await rows(alice.id)).toEqual([]);
  });

  it('removes a subscription whose push service answers 404 or 410, and retries a 503', async () => {
    const gone = await subscribe(alice);
    const missing = await subscribe(admin);
    const flaky = await subscribe(bob);
    const dora = await createMember(app, admin);
    await app.services.memberships.add(channel.id, [dora.id]);
    service.answers.set(gone.path, [410]);
    service.answers.set(missing.path, [404]);
    service.answers.set(flaky.path, [503]);
    expect((await app.call('/user/api/sendEmergencyAlert', { channelId: channel.id }, dora.token)).status).toBe(200);
    await service.next(gone.path);
    await service.next(missing.path);
    await service.next(flaky.path);
    const retried = await service.next(flaky.path);
    expect(decrypt(flaky, retried)).toMatchObject({ kind: 'sos' });
    await eventually(async () => (await rows(alice.id)).length === 0 && (await rows(admin.id)).length === 0, 'gone');
    expect(await rows(bob.id)).toHaveLength(1);
    await app.push.sender?.idle();
    expect(await pushed('gone')()).toBe(2);
    expect(await pushed('retried')()).toBe(1);
    expect(await pushed('sent')()).toBe(1);
  });

  it('removes the subscriptions of a session that logs out or is revoked, and of a deleted user', async () => {
    await subscribe(alice);
    const otherSession = await app.call('/user/api/login', {
      user_email: alice.identifier,
      user_password: alice.password,
    });
    const otherToken = otherSession.body.user.authToken;
    const second = subscriber(service.origin);
    expect((await app.call('/user/api/savePushSubscription', { subscription: second.json }, otherToken)).status).toBe(
      200,
    );
    expect(await rows(alice.id)).toHaveLength(2);

    expect((await app.call('/user/api/logout', {}, alice.token)).status).toBe(200);
    const left = await rows(alice.id);
    expect(left.map((row) => row.endpoint)).toEqual([second.endpoint]);

    await subscribe(bob);
    expect((await app.call('/user/api/deleteUserTokens/', { userId: bob.id }, admin.token)).status).toBe(200);
    expect(await rows(bob.id)).toEqual([]);

    expect((await app.call('/user/api/deleteUser', { UserId: alice.id }, admin.token)).status).toBe(200);
    expect(await rows(alice.id)).toEqual([]);
  });
});

describe.each(databases)('Web Push turned off on %s', (dialect: Dialect) => {
  it('gives no key and refuses subscriptions (PUSH=off)', async () => {
    const storage = testStorage(dialect);
    const app = await buildTestApp(storage, { push: false });
    try {
      const admin = await signUpAdmin(app);
      const config = await app.call('/user/api/getClientConfig', {}, admin.token);
      expect(config.body.res.pushPublicKey).toBeNull();
      const refused = await app.call(
        '/user/api/savePushSubscription',
        { subscription: subscriber('https://push.example.org').json },
        admin.token,
      );
      expect(refused).toMatchObject({ status: 400, body: { code: 'push_off' } });
    } finally {
      await app.fastify.close();
      await storage.remove();
    }
  });
});
