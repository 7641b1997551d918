/**
 * Faults (issue 29): a connection flood from one address is refused past CONNECTION_RATE_PER_MINUTE, with a
 * sentence, while another address keeps connecting; behind a trusted proxy the client's address is the one
 * X-Forwarded-For gives.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { CONNECTION_REFUSED } from '../src/realtime/connection-gate.ts';
import { type Account, signUpAdmin, startApp, type TestApp } from './harness.ts';
import { connect, listen } from './realtime-harness.ts';

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

describe('a connection flood from one address', () => {
  let app: TestApp;
  afterEach(async () => {
    await app.close();
  });

  it('is refused past the rate while another address keeps connecting', async () => {
    app = await startApp('sqlite', { connectionRatePerMinute: 20 });
    const url = await listen(app);
    const { port } = app.fastify.server.address() as AddressInfo;
    const admin: Account = await signUpAdmin(app);

    const answers = [];
    for (let i = 0; i < 30; i++) answers.push(await handshake(port, { from: '127.0.0.1' }));
    expect(answers.slice(0, 20).every((answer) => answer.status === 200 && answer.body.includes('"sid"'))).toBe(true);
    const refused = answers.slice(20);
    expect(refused.every((answer) => answer.status === 403)).toBe(true);
    expect(JSON.parse(refused[0]?.body ?? '{}').message).toBe(CONNECTION_REFUSED);
    // A real client from the flooding address is refused too.
    await expect(connect(url, admin.token)).rejects.toThrow(/connection refused/);

    // Another address is not held back by the flood.
    for (let i = 0; i < 5; i++) {
      const other = await handshake(port, { from: '127.0.0.2' });
      expect(other.status).toBe(200);
      expect(other.body).toContain('"sid"');
    }
  });

  it('counts the address X-Forwarded-For gives when TRUST_PROXY trusts the proxy', async () => {
    app = await startApp('sqlite', { connectionRatePerMinute: 5, trustProxy: ['loopback'] });
    await listen(app);
    const { port } = app.fastify.server.address() as AddressInfo;
    for (let i = 0; i < 5; i++) expect((await handshake(port, { forwardedFor: '203.0.113.7' })).status).toBe(200);
    expect((await handshake(port, { forwardedFor: '203.0.113.7' })).status).toBe(403);
    // Same proxy, another client behind it.
    expect((await handshake(port, { forwardedFor: '198.51.100.9' })).status).toBe(200);
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
