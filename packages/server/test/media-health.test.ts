/**
 * What /readyz and /metrics say of the media servers and the TURN server (issue 37): each Janus named with
 * whether it is reachable, the channel rooms this instance has on it and its last error; 503 only when no
 * Janus can take the channels; each TURN server probed (a STUN binding to a real coturn). Real Janus and coturn
 * processes (Debian's), on free ports.
 */
import { createSocket } from 'node:dgram';
import { afterEach, describe, expect, it } from 'vitest';
import { type MediaProcess, randomSecret, startCoturn } from '../src/ops/dev-media.ts';
import { turnProbe, turnTarget } from '../src/ops/turn-probe.ts';
import { startApp, type TestApp } from './harness.ts';
import { type TestJanus, testJanus } from './janus-harness.ts';
import { freePort } from './process-harness.ts';
import { eventually } from './realtime-harness.ts';

const stops: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop().catch(() => {});
});

async function janus(): Promise<TestJanus> {
  const started = await testJanus();
  stops.push(() => started.stop());
  return started;
}

async function coturn(): Promise<MediaProcess & { port: number }> {
  const port = await freePort();
  const base = 50_000 + Math.floor(Math.random() * 100) * 50;
  const started = await startCoturn({ port, secret: randomSecret(), relayPorts: [base, base + 49] });
  stops.push(() => started.stop());
  return { ...started, port };
}

async function app(overrides: Parameters<typeof startApp>[1]): Promise<TestApp> {
  const started = await startApp('sqlite', overrides);
  stops.push(() => started.close());
  return started;
}

async function readyz(of: TestApp) {
  const answer = await of.fastify.inject({ method: 'GET', url: '/readyz' });
  return { status: answer.statusCode, body: answer.json() };
}

describe('/readyz names each media server and the TURN server', () => {
  it('stays ready while one Janus of two is down, names it with its error, and is 503 once none is left', async () => {
    const [one, two] = [await janus(), await janus()];
    const served = await app({ janusUrls: [one.url, two.url], janusApiSecret: one.secret, turnUrls: [] });
    await eventually(async () => (await readyz(served)).body.media.servers.every((s: any) => s.reachable), 'both up');
    const first = await readyz(served);
    expect(first.status).toBe(200);
    expect(first.body.media).toMatchObject({ used: true, ok: true, state: 'ready' });
    expect(first.body.media.servers).toEqual([
      { url: one.url, reachable: true, rooms: 0, lastError: null },
      { url: two.url, reachable: true, rooms: 0, lastError: null },
    ]);
    expect(first.body.turn).toEqual({ used: false, ok: true, state: 'not used', servers: [] });

    await one.kill();
    await eventually(async () => !(await readyz(served)).body.media.servers[0].reachable, 'the first is down');
    const half = await readyz(served);
    expect(half.status).toBe(200);
    expect(half.body.media.ok).toBe(true);
    expect(half.body.media.servers[0]).toMatchObject({ url: one.url, reachable: false, rooms: 0 });
    expect(half.body.media.servers[0].lastError.message).toMatch(/closed|answer|refused/);
    expect(Number.isFinite(Date.parse(half.body.media.servers[0].lastError.at))).toBe(true);

    await two.kill();
    await eventually(async () => (await readyz(served)).status === 503, 'no media server left');
    const none = await readyz(served);
    expect(none.body).toMatchObject({ success: false, media: { used: true, ok: false, state: 'unreachable' } });
  });

  it('gives /metrics a gauge per media server', async () => {
    const one = await janus();
    const served = await app({ janusUrls: [one.url], janusApiSecret: one.secret, metricsToken: 'm'.repeat(32) });
    await eventually(async () => (await readyz(served)).body.media.servers[0].reachable, 'up');
    const metrics = await served.fastify.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${'m'.repeat(32)}` },
    });
    expect(metrics.body).toContain(`talkgroup_media_server_up{server="${one.url}"} 1`);
    expect(metrics.body).toContain(`talkgroup_media_server_rooms{server="${one.url}"} 0`);
  });

  it('says "not used" without JANUS_URL', async () => {
    const served = await app({ janusUrls: [], turnUrls: [] });
    const answer = await readyz(served);
    expect(answer.status).toBe(200);
    expect(answer.body.media).toEqual({ used: false, ok: true, state: 'not used', servers: [] });
  });

  it('probes each TURN server with a STUN binding: a running coturn answers, a silent port does not (no 503)', async () => {
    const turn = await coturn();
    // A UDP port that takes the request and never answers.
    const silent = createSocket('udp4');
    await new Promise<void>((resolve) => silent.bind(0, '127.0.0.1', resolve));
    stops.push(async () => silent.close());
    const silentPort = (silent.address() as { port: number }).port;
    const urls = [`turn:127.0.0.1:${turn.port}`, `turn:127.0.0.1:${silentPort}?transport=udp`];
    const served = await app({ janusUrls: [], turnUrls: urls, turnSecret: turn.secret });
    const answer = await readyz(served);
    expect(answer.status).toBe(200);
    expect(answer.body.turn).toMatchObject({ used: true, ok: false, state: 'unreachable' });
    expect(answer.body.turn.servers).toEqual([
      { url: urls[0], reachable: true },
      { url: urls[1], reachable: false, error: 'no answer to a STUN binding request' },
    ]);
    // Over TCP too (coturn listens on both).
    expect(await turnProbe([`turn:127.0.0.1:${turn.port}?transport=tcp`])()).toEqual([
      { url: `turn:127.0.0.1:${turn.port}?transport=tcp`, reachable: true },
    ]);
  });

  it('reads turn: and turns: addresses with their default ports and transports', () => {
    expect(turnTarget('turn:turn.example.org')).toEqual({ host: 'turn.example.org', port: 3478, transport: 'udp' });
    expect(turnTarget('turn:10.0.0.2:3479?transport=tcp')).toEqual({ host: '10.0.0.2', port: 3479, transport: 'tcp' });
    expect(turnTarget('turns:turn.example.org')).toEqual({ host: 'turn.example.org', port: 5349, transport: 'tls' });
    expect(turnTarget('turn:[::1]:3478')).toEqual({ host: '::1', port: 3478, transport: 'udp' });
    expect(turnTarget('stun:x')).toBeNull();
  });
});
