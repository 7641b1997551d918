/**
 * The push sender's queues (issue 47), against local HTTPS push services (push-harness.ts) that answer, hold
 * their answers (slow, or never answering) or cut the connection: alerts go before the transmissions waiting for
 * the same push service; push services are served in turn, so that one's backlog never holds another's pushes;
 * push services that never answered stay on probation (two sends at a time each, four in all) beside those that
 * answer; one that fails on the network is stalled (one send at a time, two attempts). Every check is on what
 * the push services received and the sender's state, never on a time.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { newVapidKeys } from '../src/push/keys.ts';
import { type PushLane, type PushOutcome, type PushSender, pushSender } from '../src/push/sender.ts';
import type { StoredSubscription } from '../src/push/store.ts';
import { PushService, subscriber } from './push-harness.ts';
import { eventually } from './realtime-harness.ts';

describe('the push sender', () => {
  const services = [new PushService(), new PushService(), new PushService(), new PushService()];
  const [a, b, c, d] = services as [PushService, PushService, PushService, PushService];
  const keys = newVapidKeys();
  const outcomes: PushOutcome[] = [];
  const errors: unknown[] = [];
  let sender: PushSender | undefined;
  let subscriptionId = 0;

  beforeAll(async () => {
    await a.start();
    for (const other of [b, c, d]) await other.start({ key: a.key, cert: a.cert });
  });
  afterAll(async () => {
    for (const service of services) await service.stop();
  });
  afterEach(() => {
    sender?.close();
    sender = undefined;
    outcomes.length = 0;
    expect(errors).toEqual([]);
    for (const service of services) {
      service.mode = 'answer';
      service.release();
    }
  });

  /** A sender to these push services; those `answering` are taken as answering from the start. */
  function start(answering: PushService[]): PushSender {
    sender = pushSender({
      keys,
      subject: async () => 'mailto:ops@example.org',
      store: { removeGone: async () => {} },
      count: (outcome) => outcomes.push(outcome),
      allow: services.map((service) => service.origin),
      extraCa: a.cert,
      onError: (error) => errors.push(error),
      answeringAtFirst: (origin) => answering.some((service) => service.origin === origin),
    });
    return sender;
  }

  /** `count` subscriptions on this push service, each on its own path `/push/<name>-<i>`. */
  function subscriptions(service: PushService, name: string, count: number): StoredSubscription[] {
    const browserKeys = subscriber(service.origin).json.keys;
    return Array.from({ length: count }, (_, i) => {
      subscriptionId += 1;
      return {
        id: subscriptionId,
        userId: subscriptionId,
        endpoint: `${service.origin}/push/${name}-${i}`,
        keys: browserKeys,
        language: 'en' as const,
      };
    });
  }

  const enqueue = (to: StoredSubscription[], lane: PushLane) =>
    sender?.enqueue(to, () => JSON.stringify({ kind: lane === 'alert' ? 'sos' : 'transmission' }), {
      urgency: lane === 'alert' ? 'high' : 'normal',
      ttl: 300,
      lane,
    });
  const stateOf = (service: PushService) => sender?.state().services[service.origin];
  const counted = (outcome: PushOutcome) => outcomes.filter((o) => o === outcome).length;

  it('sends an SOS before the transmissions waiting for the same push service', async () => {
    start([a]);
    a.mode = 'hold';
    enqueue(subscriptions(a, 'talk', 30), 'transmission');
    // An answering push service takes 16 sends at once: the other 14 wait.
    await a.until(() => a.holding === 16, '16 transmissions');
    enqueue(subscriptions(a, 'sos', 1), 'alert');
    expect(stateOf(a)).toMatchObject({ health: 'answering', inFlight: 16, waiting: 15 });
    // The first answer frees a send: it goes to the SOS, not to the 14 transmissions before it.
    a.release(1);
    await a.until(() => a.received.length === 17, 'a 17th request');
    expect(a.received[16]?.path).toBe('/push/sos-0');
    a.mode = 'answer';
    a.release();
    await sender?.idle();
    expect(counted('sent')).toBe(31);
    expect(a.received.slice(17).every((request) => request.path.startsWith('/push/talk-'))).toBe(true);
  });

  it('serves push services in turn: a backlog at one never holds another’s pushes', async () => {
    start([a, b]);
    a.mode = 'hold';
    enqueue(subscriptions(a, 'backlog', 40), 'alert');
    await a.until(() => a.holding === 16, '16 sends');
    const [late] = subscriptions(b, 'late', 1);
    enqueue([late as StoredSubscription], 'alert');
    await b.next('/push/late-0');
    // b's push went while the 24 before it at a still waited.
    expect(stateOf(a)).toMatchObject({ inFlight: 16, waiting: 24 });
  });

  it('keeps push services that never answered on probation: two sends each, four in all; the answering ones go on', async () => {
    start([c]);
    for (const silent of [a, b, d]) silent.mode = 'hold';
    for (const [service, name] of [
      [a, 'a'],
      [b, 'b'],
      [d, 'd'],
    ] as const)
      enqueue(subscriptions(service, name, 10), 'alert');
    enqueue(subscriptions(c, 'c', 10), 'alert');
    // Every push to the answering service arrives while the three silent ones hold what they got.
    await c.until(() => c.deliveries.length === 10, 'the answering service’s 10 pushes');
    await a.until(() => a.holding + b.holding + d.holding === 4, 'four sends on probation');
    await eventually(async () => sender?.state().inFlight === 4, 'the answered sends settled');
    const held = [a, b, d].map((service) => stateOf(service)?.inFlight ?? 0);
    expect(held.reduce((sum, n) => sum + n, 0)).toBe(4);
    for (const n of held) expect(n).toBeLessThanOrEqual(2);
    for (const service of [a, b, d]) expect(stateOf(service)?.health).toBe('new');
    expect(sender?.state()).toMatchObject({ waiting: 26 });
  });

  it('stalls a push service that fails on the network: two attempts, one send at a time, 1,000 waiting, until it answers', async () => {
    start([]);
    const before = a.received.length;
    a.mode = 'cut';
    enqueue(subscriptions(a, 'cut', 3), 'alert');
    await sender?.idle();
    expect(stateOf(a)?.health).toBe('stalled');
    // Each push tried twice (not four times): 3 retried, then 3 failed.
    expect(a.received.length - before).toBe(6);
    expect(counted('retried')).toBe(3);
    expect(counted('failed')).toBe(3);
    // Stalled, it gets one send at a time and keeps 1,000 waiting at most (the oldest transmissions go first);
    // once it answers quickly, it is answering again.
    a.mode = 'hold';
    enqueue(subscriptions(a, 'back', 3), 'alert');
    await a.until(() => a.holding === 1, 'one send');
    expect(stateOf(a)).toMatchObject({ health: 'stalled', inFlight: 1, waiting: 2 });
    enqueue(subscriptions(a, 'late-talk', 1200), 'transmission');
    expect(stateOf(a)).toMatchObject({ inFlight: 1, waiting: 1000 });
    expect(counted('dropped')).toBe(202);
    a.mode = 'answer';
    a.release();
    await sender?.idle();
    expect(stateOf(a)?.health).toBe('answering');
    expect(counted('sent')).toBe(1001);
    // The two alerts waiting were kept; the first 202 transmissions went.
    const sentTalk = a.deliveries.filter((request) => request.path.startsWith('/push/late-talk-'));
    const numbers = sentTalk.map((request) => Number(request.path.split('-').pop())).sort((x, y) => x - y);
    expect(numbers).toHaveLength(998);
    expect(numbers[0]).toBe(202);
    expect(a.deliveries.filter((request) => request.path.startsWith('/push/back-'))).toHaveLength(3);
  });
});
