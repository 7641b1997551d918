/**
 * Push services for the Web Push tests (push.test.ts, push-queue.test.ts): a local HTTPS push service with a
 * certificate made here with openssl (the app trusts it through config.pushExtraCa), which records what it
 * receives and answers 201 unless told otherwise; it can also hold its answers (a push service that is slow or
 * never answers) until the test lets them go. And a browser's side of a subscription: its keys, the RFC 8291
 * decryption of a payload, the RFC 8292 check of the VAPID header.
 */
import { execFileSync } from 'node:child_process';
import { createDecipheriv, createECDH, createPublicKey, type ECDH, hkdfSync, randomBytes, verify } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';

export interface Delivery {
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/**
 * A push service on 127.0.0.1 with its own self-signed certificate; answers 201 unless told otherwise. `mode`:
 * `answer` at once; `hold` each answer until `release` (never released: a push service that never answers);
 * `cut` the connection as soon as a request is read (a push service that fails on the network).
 */
export class PushService {
  /** Requests answered. */
  readonly deliveries: Delivery[] = [];
  /** Requests read, answered or not, in the order they came. */
  readonly received: Delivery[] = [];
  /** Status codes to answer on a path, in order, before 201. */
  readonly answers = new Map<string, number[]>();
  mode: 'answer' | 'hold' | 'cut' = 'answer';
  private readonly held: Array<() => void> = [];
  private readonly waiters: Array<() => void> = [];
  private readonly taken = new Set<Delivery>();
  private server: Server | undefined;
  private dir = '';
  key = '';
  cert = '';
  origin = '';

  /** Starts on a free port; with `tls`, the certificate of another PushService (one CA to trust for both). */
  async start(tls?: { key: string; cert: string }): Promise<void> {
    this.dir = mkdtempSync(path.join(tmpdir(), 'talkgroup-push-'));
    const key = path.join(this.dir, 'key.pem');
    const cert = path.join(this.dir, 'cert.pem');
    if (!tls)
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
    this.key = tls?.key ?? readFileSync(key, 'utf8');
    this.cert = tls?.cert ?? readFileSync(cert, 'utf8');
    this.server = createServer({ key: this.key, cert: this.cert }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const delivery = { path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) };
        this.received.push(delivery);
        if (this.mode === 'cut') req.socket.destroy();
        else if (this.mode === 'hold') this.held.push(() => this.answer(delivery, res));
        else this.answer(delivery, res);
        this.wake();
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.origin = `https://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  private answer(delivery: Delivery, res: ServerResponse): void {
    const status = this.answers.get(delivery.path)?.shift() ?? 201;
    res.writeHead(status, status === 503 ? { 'retry-after': '0' } : {}).end();
    this.deliveries.push(delivery);
    this.wake();
  }

  private wake(): void {
    for (const wake of this.waiters.splice(0)) wake();
  }

  /** Answers this many of the held requests, the oldest first. */
  release(count = Number.POSITIVE_INFINITY): void {
    for (const answer of this.held.splice(0, count)) answer();
  }

  /** Requests held unanswered now. */
  get holding(): number {
    return this.held.length;
  }

  /** Waits until `done()` holds, checked at each request read or answered (15 s at most). */
  async until(done: () => boolean, what: string): Promise<void> {
    const deadline = Date.now() + 15_000;
    while (!done()) {
      if (Date.now() > deadline) throw new Error(`the push service never saw ${what}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
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
    this.held.length = 0;
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** A browser's side of a subscription: its ECDH key pair and auth secret. */
export interface Subscriber {
  path: string;
  endpoint: string;
  ecdh: ECDH;
  auth: Buffer;
  json: { endpoint: string; expirationTime: null; keys: { p256dh: string; auth: string } };
}

let subscriberCount = 0;
export function subscriber(origin: string): Subscriber {
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
export function decrypt(sub: Subscriber, delivery: Pick<Delivery, 'headers' | 'body'>): any {
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
export function verifyVapid(delivery: Delivery, origin: string, publicKey: string): { sub: string } {
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
