/**
 * Faults (issues 29 and 36): a connection flood from one address is refused past CONNECTION_RATE_PER_MINUTE,
 * with a code and a sentence (`too_many_connections`), while another address keeps connecting; a full instance
 * refuses as `server_busy`; behind a trusted proxy the client's address is the one
 * X-Forwarded-For gives.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { CONNECTION_REFUSED } from '../src/realtime/connection-gate.ts';
import { type Account, signUpAdmin, startApp, type TestApp } from './harness.ts';
import { connect, eventually, listen, refusalData } from './realtime-harness.ts';

/** An Engine.IO handshake (long polling) from `from`, as a browser starts one: its status and body. */
function handshake(
  port: number,
  options: { from?: string; forwardedFor?: string } = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.get(
      {
        host: '127.0.0.1',
        port,
        path: '/socket.io/?EIO=4&transport=polling',
        localAddress: options.from,
        agent: false,
        headers: options.forwardedFor ? { 'x-forwarded-for': options.forwardedFor } : {},
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk) => {
          body += chunk;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    request.setTimeout(10_000, () => request.destroy(new Error('the handshake did not answer')));
    request.on('error', reject);
  });
}

/** Refused before Engine.IO opened a session: the refusal's own packets, with no session behind them. */
const refusedEarly = (answer: { body: string }) => answer.body.startsWith('0{"sid":"refused"');

describe('a connection flood from one address', () => {
  let app: TestApp;
  afterEach(async () => {
    await app.close();
  });

  it('is refused past the rate with a code and a sentence, while another address keeps connecting', async () => {
    app = await startApp('sqlite', { connectionRatePerMinute: 10 });
    const url = await listen(app);
    const { port } = app.fastify.server.address() as AddressInfo;
    const admin: Account = await signUpAdmin(app);

    // The rate's worth of real clients from 127.0.0.1, then a refusal a client can read and tell from a bad token.
    for (let i = 0; i < 10; i++) (await connect(url, admin.token)).close();
    expect(await refusalData(url, admin.token)).toEqual({ code: 'too_many_connections', message: CONNECTION_REFUSED });
    expect(await refusalData(url, admin.token, { 'accept-language': 'de' })).toEqual({
      code: 'too_many_connections',
      message: 'Zu viele Verbindungen von Ihrer Adresse: Warten Sie eine Minute und versuchen Sie es erneut.',
    });
    // A flood that ignores the refusals is refused earlier, before the transport opens, past twice the rate,
    // and still with the code and the sentence (issue 47: a bare 400 before), on either transport.
    const answers = [];
    for (let i = 0; i < 10; i++) answers.push(await handshake(port, { from: '127.0.0.1' }));
    const refused = answers.filter(refusedEarly);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused[0]?.status).toBe(200);
    expect(refused[0]?.body).toContain(JSON.stringify({ code: 'too_many_connections', message: CONNECTION_REFUSED }));
    expect(await refusalData(url, admin.token)).toEqual({ code: 'too_many_connections', message: CONNECTION_REFUSED });
    expect(await refusalData(url, admin.token, { 'accept-language': 'fr' }, 'polling')).toEqual({
      code: 'too_many_connections',
      message: 'Trop de connexions depuis votre adresse : attendez une minute et réessayez.',
    });

    // Another address is not held back by the flood.
    for (let i = 0; i < 5; i++) {
      const other = await handshake(port, { from: '127.0.0.2' });
      expect(other.status).toBe(200);
      expect(other.body).toContain('"sid"');
      expect(refusedEarly(other)).toBe(false);
    }
  });

  it('refuses past MAX_CONNECTIONS as server_busy, and a bad token as bad_token', async () => {
    app = await startApp('sqlite', { maxConnections: 2 });
    const url = await listen(app);
    const admin: Account = await signUpAdmin(app);
    const first = await connect(url, admin.token);
    const second = await connect(url, admin.token);
    expect(await refusalData(url, admin.token, { 'accept-language': 'fr' })).toEqual({
      code: 'server_busy',
      message: 'Le serveur a autant de connexions qu’il peut en prendre : nouvel essai automatique dans un instant.',
    });
    first.close();
    // A place freed: the next one gets in.
    const third = await eventually(
      () => connect(url, admin.token).catch(() => undefined),
      'a connection once a place is free',
    );
    third.close();
    second.close();
    expect(await refusalData(url, 'not-a-token')).toEqual({
      code: 'bad_token',
      message: 'The token is invalid, expired or revoked: sign in again.',
    });
    expect((await refusalData(url, undefined)).code).toBe('token_missing');
  });

  it('counts the address X-Forwarded-For gives when TRUST_PROXY trusts the proxy', async () => {
    app = await startApp('sqlite', { connectionRatePerMinute: 5, trustProxy: ['loopback'] });
    await listen(app);
    const { port } = app.fastify.server.address() as AddressInfo;
    // Transport handshakes are refused past twice the rate (sockets past the rate, as above).
    for (let i = 0; i < 10; i++)
      expect(refusedEarly(await handshake(port, { forwardedFor: '203.0.113.7' }))).toBe(false);
    expect(refusedEarly(await handshake(port, { forwardedFor: '203.0.113.7' }))).toBe(true);
    // Same proxy, another client behind it.
    expect(refusedEarly(await handshake(port, { forwardedFor: '198.51.100.9' }))).toBe(false);
  });

  it('lets ordinary reconnections through at the default rate', async () => {
    app = await startApp('sqlite');
    const url = await listen(app);
    const admin = await signUpAdmin(app);
    expect(app.config.connectionRatePerMinute).toBe(120);
    // A page that reconnects a dozen times in a minute (a bad network) is never refused.
    for (let i = 0; i < 12; i++) (await connect(url, admin.token)).close();
  });
});
