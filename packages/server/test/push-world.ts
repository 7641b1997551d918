/**
 * The deployment of the Web Push tests (push*.test.ts): a local HTTPS push service that answers and one that
 * holds every request (push-harness.ts), an app that trusts them and counts its sends in /metrics, an
 * administrator, Alice and Bob in the channel Atelier, and the VAPID key the pages are given. `pushWorld`
 * registers the hooks that make it anew for each test of the describe that calls it.
 */
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import type { ChannelSummary } from '../src/channels/store.ts';
import type { Config } from '../src/config/config.ts';
import type { Dialect } from '../src/db/open.ts';
import { type Account, buildTestApp, type TestApp, testStorage } from './harness.ts';
import { PushService, subscriber } from './push-harness.ts';
import { listen, type TestClient } from './realtime-harness.ts';
import { cast } from './world.ts';

export interface PushWorld {
  service: PushService;
  /** A push service that reads every request and never answers (its certificate is the other one's). */
  silent: PushService;
  storage: ReturnType<typeof testStorage>;
  app: TestApp;
  url: string;
  admin: Account;
  alice: Account;
  bob: Account;
  channel: ChannelSummary;
  publicKey: string;
  /** Sockets the test opened, closed after it. */
  clients: TestClient[];
}

export function pushWorld(dialect: Dialect, overrides: Partial<Config> = {}): PushWorld {
  const world = { service: new PushService(), silent: new PushService(), clients: [] as TestClient[] } as PushWorld;
  const { service, silent } = world;
  beforeAll(async () => {
    await service.start();
    silent.mode = 'hold';
    await silent.start({ key: service.key, cert: service.cert });
  });
  afterAll(async () => {
    await silent.stop();
    await service.stop();
  });
  beforeEach(async () => {
    world.storage = testStorage(dialect);
    // The sends are counted in /metrics, which is there with METRICS_TOKEN.
    const app = await buildTestApp(world.storage, {
      pushEndpointAllow: [service.origin, silent.origin],
      pushExtraCa: service.cert,
      metricsToken: 'push-metrics-token',
      ...overrides,
    });
    world.app = app;
    world.url = await listen(app);
    Object.assign(
      world,
      await cast(app, {
        people: {
          alice: { role: 'member', firstName: 'Alice', lastName: 'Field' },
          bob: { role: 'member', firstName: 'Bob', lastName: 'Field' },
        },
        channels: { channel: { name: 'Atelier', members: ['alice', 'bob'] } },
      }),
    );
    const config = await app.call('/user/api/getClientConfig', {}, world.alice.token);
    world.publicKey = config.body.res.pushPublicKey;
  });
  afterEach(async () => {
    for (const client of world.clients.splice(0)) client.close();
    await world.app.fastify.close();
    await world.storage.remove();
  });
  return world;
}

/** What the push tests ask of the app of the test running now. */
export function pushRequests(world: PushWorld) {
  /** A JSON POST with Accept-Language. */
  const callIn = async (language: string, route: string, body: object, token: string) => {
    const response = await world.app.fastify.inject({
      method: 'POST',
      url: route,
      headers: { 'x-access-token': token, 'accept-language': language },
      payload: body,
    });
    return { status: response.statusCode, body: response.json() };
  };
  const subscribe = async (account: Account, language = 'en') => {
    const sub = subscriber(world.service.origin);
    const saved = await callIn(language, '/user/api/savePushSubscription', { subscription: sub.json }, account.token);
    expect(saved).toMatchObject({ status: 200, body: { success: true, code: 'push_saved' } });
    return sub;
  };
  const rows = (userId: number) =>
    world.app.services.db.selectFrom('push_subscriptions').selectAll().where('user_id', '=', userId).execute();
  const pushed = (outcome: string) => async () => {
    const metric = await world.app.metrics.registry?.getSingleMetric('talkgroup_push_total')?.get();
    return metric?.values.find((v) => v.labels.outcome === outcome)?.value ?? 0;
  };
  return { callIn, subscribe, rows, pushed };
}
