/**
 * The TURN relay reaches only the Internet (issue 35): Debian's coturn started with the shipped
 * deploy/coturn/turnserver.conf (through dev-media's startCoturn, on free ports, without any peer allowed for
 * tests), asked by a TURN client of the test's own (turn-client.ts) with the credentials the app hands out.
 * An allocation works; a permission for a peer in a private, loopback, link-local, CGNAT, documentation or
 * multicast range is refused (403 Forbidden IP), and so is a credential signed with another secret or expired.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { turnCredential } from '../src/client-config/turn-credentials.ts';
import { type MediaProcess, randomSecret, startCoturn } from '../src/ops/dev-media.ts';
import { databases, signUpAdmin, startApp, type TestApp } from './harness.ts';
import { freePort, startServer } from './process-harness.ts';
import { TurnClient } from './turn-client.ts';

const SHIPPED = path.resolve(import.meta.dirname, '../../../deploy/coturn/turnserver.conf');

/** Peers a relay must never reach: the private network, this machine, the cloud's metadata service, ... */
const FORBIDDEN = [
  '10.0.0.1',
  '172.16.5.4',
  '192.168.1.1',
  '127.0.0.1',
  '100.64.0.1',
  '169.254.169.254',
  '192.0.2.2',
  '198.18.0.1',
  '0.0.0.1',
  '240.0.0.1',
];
const INTERNET = '1.1.1.1';

/** A UDP port block for coturn's relays (other test runs on this machine use theirs). */
function relayPorts(): [number, number] {
  const base = 50_000 + Math.floor(Math.random() * 100) * 50;
  return [base, base + 49];
}

async function coturn(allowPeers?: string[]): Promise<MediaProcess & { port: number }> {
  const port = await freePort();
  const secret = randomSecret();
  const started = await startCoturn({ port, secret, relayPorts: relayPorts(), allowPeers });
  return { ...started, port };
}

function clientFor(turn: { port: number }, credential: { username: string; credential: string }) {
  return new TurnClient(
    { host: '127.0.0.1', port: turn.port },
    { username: credential.username, password: credential.credential },
  );
}

describe('the shipped coturn configuration', () => {
  const text = readFileSync(SHIPPED, 'utf8');
  const active = (key: string) => text.split('\n').filter((line) => line.startsWith(`${key}=`) || line === key);

  it('has no working secret, no loopback, no allowed peer, no TCP relay, and quotas', () => {
    expect(active('static-auth-secret')).toEqual([]);
    expect(text).toMatch(/^#static-auth-secret=$/m);
    expect(active('allow-loopback-peers')).toEqual([]);
    expect(active('allowed-peer-ip')).toEqual([]);
    expect(active('no-tcp-relay')).toEqual(['no-tcp-relay']);
    expect(active('user-quota')).toEqual(['user-quota=40']);
    expect(active('max-bps')).toEqual(['max-bps=128000']);
  });

  it('denies the IPv6 ranges that are not the Internet', () => {
    const denied = active('denied-peer-ip').map((line) => line.slice('denied-peer-ip='.length));
    expect(denied).toContain('::1');
    for (const start of ['::ffff:0.0.0.0', '64:ff9b::', '2001:db8::', '2002::', 'fc00::', 'fe80::', 'ff00::'])
      expect(denied.some((range) => range.startsWith(`${start}-`))).toBe(true);
  });
});

describe('the TURN relay through Debian coturn', () => {
  let turn: MediaProcess & { port: number };
  const clients: TurnClient[] = [];
  beforeAll(async () => {
    turn = await coturn();
  });
  afterAll(async () => {
    await turn?.stop();
  });
  afterEach(() => {
    for (const client of clients.splice(0)) client.close();
  });
  const client = (credential: { username: string; credential: string }) => {
    const made = clientFor(turn, credential);
    clients.push(made);
    return made;
  };

  it('allocates a relay and lets it reach the Internet, never a private, local or reserved address', async () => {
    const relay = client(turnCredential(turn.secret, [turn.url], 7, 3600_000));
    const allocated = await relay.allocate();
    expect(allocated, turn.output()).toMatchObject({ ok: true });
    expect(allocated.relayed?.port).toBeGreaterThan(0);
    expect(await relay.createPermission(INTERNET)).toEqual({ ok: true });
    for (const peer of FORBIDDEN) {
      const refused = await relay.createPermission(peer);
      expect({ peer, ...refused }).toMatchObject({ peer, ok: false, code: 403, reason: 'Forbidden IP' });
    }
  });

  it('refuses a credential signed with another secret, or expired', async () => {
    const forged = client(turnCredential(randomSecret(), [turn.url], 7, 3600_000));
    expect(await forged.allocate()).toMatchObject({ ok: false, code: 401 });
    const expired = client(turnCredential(turn.secret, [turn.url], 7, -60_000));
    expect(await expired.allocate()).toMatchObject({ ok: false, code: 401 });
  });
});

describe('the relay for tests on one machine (allowPeers)', () => {
  it('relays to the peers named, and still to no other private address', async () => {
    const turn = await coturn(['127.0.0.1']);
    const relay = clientFor(turn, turnCredential(turn.secret, [turn.url], 8, 3600_000));
    try {
      expect(await relay.allocate()).toMatchObject({ ok: true });
      expect(await relay.createPermission('127.0.0.1')).toEqual({ ok: true });
      for (const peer of ['127.0.0.2', '10.0.0.1', '192.168.1.1'])
        expect(await relay.createPermission(peer)).toMatchObject({ ok: false, code: 403 });
    } finally {
      relay.close();
      await turn.stop();
    }
  });
});

describe('npm run turn', () => {
  const run = (env: Record<string, string>) =>
    spawnSync(process.execPath, [path.resolve(import.meta.dirname, '../src/ops/dev-media.ts'), 'turn'], {
      env: { ...process.env, TURN_PORT: '1', ...env },
      encoding: 'utf8',
      timeout: 20_000,
    });

  it('refuses change-me or a short secret, and says how to make one', () => {
    for (const secret of ['change-me', 'dev-turn-secret']) {
      const refused = run({ TURN_SECRET: secret });
      expect(refused.status).toBe(1);
      expect(refused.stderr).toContain('TURN_SECRET must be a random secret of at least 32 characters');
      expect(refused.stderr).toContain('openssl rand -hex 32');
    }
  });
});

describe.each(databases)('TURN credentials of the app, through coturn (%s)', (dialect) => {
  let app: TestApp;
  let turn: MediaProcess & { port: number };
  afterEach(async () => {
    await app?.close();
    await turn?.stop();
  });

  it('are valid an hour by default and work with coturn, only towards the Internet', async () => {
    turn = await coturn();
    const { loadConfig } = await import('../src/config/config.ts');
    const { turnTtlMs } = loadConfig({ TURN_SECRET: turn.secret, TURN_URLS: turn.url });
    expect(turnTtlMs).toBe(3600_000);
    app = await startApp(dialect, { turnUrls: [turn.url], turnSecret: turn.secret, turnTtlMs });
    const admin = await signUpAdmin(app);
    const { body } = await app.call('/user/api/getClientConfig', {}, admin.token);
    const [ice] = body.res.iceServers;
    expect(ice.username).toMatch(new RegExp(`^\\d+:${admin.id}$`));
    const relay = clientFor(turn, ice);
    try {
      expect(await relay.allocate()).toMatchObject({ ok: true });
      expect(await relay.createPermission(INTERNET)).toEqual({ ok: true });
      expect(await relay.createPermission('10.0.0.1')).toMatchObject({ ok: false, code: 403 });
    } finally {
      relay.close();
    }
  });
});

describe('the app with a weak TURN_SECRET or without JANUS_API_SECRET for a remote Janus', () => {
  it('refuses to start, with a sentence naming the setting', async () => {
    await expect(startServer({ TURN_SECRET: 'change-me', TURN_URLS: 'turn:turn.example.org' })).rejects.toThrow(
      /TURN_SECRET must be a random secret of at least 32 characters/,
    );
    await expect(startServer({ JANUS_URL: 'ws://10.0.0.5:8188', JANUS_API_SECRET: '' })).rejects.toThrow(
      /JANUS_API_SECRET is required when JANUS_URL names another host \(ws:\/\/10\.0\.0\.5:8188\)/,
    );
  });
});
