/** GET /metrics: Prometheus text, behind METRICS_TOKEN on the main port or alone on METRICS_PORT. */
import { afterEach, describe, expect, it } from 'vitest';
import { type Account, createMember, databases, signUpAdmin, startApp, type TestApp } from './harness.ts';
import { connect, eventually, listen, type TestClient } from './realtime-harness.ts';

/** The value of one sample line (`name{labels} value`), or undefined. */
function sample(text: string, name: string, labels = ''): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${name}${labels ? `{${labels}` : ''}`) && !l.startsWith('#'));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

describe.each(databases)('metrics on %s', (dialect) => {
  let app: TestApp;
  const clients: TestClient[] = [];
  afterEach(async () => {
    for (const client of clients.splice(0)) client.close();
    await app.close();
  });

  const scrape = (headers: Record<string, string> = {}) =>
    app.fastify.inject({ method: 'GET', url: '/metrics', headers });

  it('is not served without METRICS_TOKEN or METRICS_PORT, and needs the token when set', async () => {
    app = await startApp(dialect);
    expect((await scrape()).statusCode).toBe(404);
    await app.close();
    app = await startApp(dialect, { metricsToken: 'scrape-me-please' });
    expect((await scrape()).statusCode).toBe(401);
    expect((await scrape({ authorization: 'Bearer wrong-token-000' })).statusCode).toBe(401);
    const ok = await scrape({ authorization: 'Bearer scrape-me-please' });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['content-type']).toMatch(/^text\/plain/);
  });

  it('counts HTTP requests by route and status, database queries, sockets, rooms, talkers and event-loop lag', async () => {
    app = await startApp(dialect, { metricsToken: 'scrape-me-please' });
    const url = await listen(app);
    const admin: Account = await signUpAdmin(app);
    const mia = await createMember(app, admin);
    const channel = await app.services.channels.create('Metered');
    await app.services.memberships.add(channel.id, [mia.id]);
    await app.call('/user/api/login', { user_email: admin.identifier, user_password: 'not-the-password' });
    const client = await connect(url, mia.token);
    clients.push(client);
    client.socket.emit('join_room', { room: channel.rtcSession, name: '' });
    await client.next('all_users');
    await app.services.talkBursts.start(mia.id, channel);

    const text = (await scrape({ authorization: 'Bearer scrape-me-please' })).body;
    expect(
      sample(
        text,
        'talkgroup_http_request_duration_seconds_count',
        'method="POST",route="/user/api/login",status="401"',
      ),
    ).toBe(1);
    expect(
      sample(
        text,
        'talkgroup_http_request_duration_seconds_count',
        'method="POST",route="/user/api/login",status="200"',
      ),
    ).toBeGreaterThanOrEqual(2);
    expect(sample(text, 'talkgroup_db_query_duration_seconds_count')).toBeGreaterThan(5);
    expect(sample(text, 'talkgroup_sockets_connected')).toBe(1);
    expect(sample(text, 'talkgroup_rooms_active')).toBe(1);
    expect(sample(text, 'talkgroup_talking_now')).toBe(1);
    expect(text).toContain('talkgroup_nodejs_eventloop_lag_seconds');
    // No secret in the figures.
    expect(text).not.toContain(mia.token);

    client.close();
    await eventually(async () => {
      const after = (await scrape({ authorization: 'Bearer scrape-me-please' })).body;
      return sample(after, 'talkgroup_sockets_connected') === 0;
    }, 'the socket leaves the gauge');
  });

  it('serves /metrics alone on METRICS_PORT, and not on the main port', async () => {
    app = await startApp(dialect, { metricsPort: 0, metricsHost: '127.0.0.1' });
    const url = await listen(app);
    expect((await fetch(`${url}/metrics`)).status).toBe(404);
    const port = app.metrics.port();
    expect(port).toBeGreaterThan(0);
    const separate = await fetch(`http://127.0.0.1:${port}/metrics`);
    expect(separate.status).toBe(200);
    expect(await separate.text()).toContain('talkgroup_http_request_duration_seconds');
  });
});
