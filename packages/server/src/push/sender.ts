/**
 * Sends pushes without ever holding up what caused them, and so that nobody can clog them (issue 47): `enqueue`
 * returns at once and the sends run beside the event loop's other work.
 *
 * - Two lanes: alerts (an SOS, a ringing or missed call, a geofence crossing) always go before transmissions.
 * - One queue per push service (the endpoint's origin), served in turn (round robin within a lane), each with a
 *   bounded number of sends in flight, so that one push service's backlog never holds the others' sends.
 * - A push service is `answering` once it answered quickly (16 sends in flight), `new` until then (2), and
 *   `stalled` when a send to it timed out, failed on the network or was answered slowly (1, a shorter time-out,
 *   two attempts instead of four). New and stalled services share 4 of the 64 sends in flight, so that push
 *   services that never answer (however many) never take the answering ones' room. The browsers' own push
 *   services and PUSH_ENDPOINT_ALLOW's origins start as answering (a restart does not put them behind others).
 * - Every send has a hard deadline (connection, TLS, answer together), and an answer's body is read up to 64 kB.
 * - A push service that answers 429 or 5xx (or cannot be reached) is asked again after a growing delay (its
 *   Retry-After when it gives one); one that answers 404 or 410 loses the subscription. A push whose TTL has
 *   passed while it waited is not sent (the push service would drop it).
 * - At most 50,000 pushes wait: past that, the push service with the most waiting loses its least urgent, newest;
 *   a stalled push service keeps 1,000 waiting at most (its least urgent, oldest go first): at one send at a time,
 *   it could not send more before their TTL anyway.
 *
 * `web-push` (encryption, VAPID) and the HTTPS agents come with the first send only: an instance that never
 * pushes never holds them. Every outcome counts in talkgroup_push_total{outcome}.
 */
import type { Agent } from 'node:https';
import type { LabelledCounter } from '../ops/metrics.ts';
import { allowedOrigin, guardedLookup } from './endpoints.ts';
import type { VapidKeys } from './keys.ts';
import type { PushSubscriptionStore, StoredSubscription } from './store.ts';

/** `alert` goes before `transmission`. */
export const PUSH_LANES = ['alert', 'transmission'] as const;
export type PushLane = (typeof PUSH_LANES)[number];

export interface PushOptions {
  urgency: 'very-low' | 'low' | 'normal' | 'high';
  /** Seconds the push service keeps it while the device is away. */
  ttl: number;
  /** A later push of the same topic replaces this one at the push service (base64url, 32 characters at most). */
  topic?: string;
  lane: PushLane;
}

interface Job {
  subscription: StoredSubscription;
  payload: string;
  options: PushOptions;
  attempt: number;
  /** Past this (ms since the epoch) the push is not worth sending: its TTL has passed. */
  staleAt: number;
}

export type PushOutcome = 'sent' | 'gone' | 'retried' | 'failed' | 'rejected' | 'dropped' | 'expired';

/** talkgroup_push_total{outcome} */
export const PUSH_COUNTER: LabelledCounter<PushOutcome> = {
  name: 'talkgroup_push_total',
  help: 'Web Push sends by outcome: sent, gone (404/410: subscription removed), retried (429/5xx/network/time-out), failed (after every retry), rejected (another 4xx, or a private address), dropped (too many waiting), expired (its TTL passed while it waited).',
  label: 'outcome',
  values: ['sent', 'gone', 'retried', 'failed', 'rejected', 'dropped', 'expired'],
};

export type PushServiceHealth = 'new' | 'answering' | 'stalled';

/** Sends in flight at once, in all, and those that new and stalled push services may hold together. */
const IN_FLIGHT_MAX = 64;
const PROBATION_MAX = 4;
/** Sends in flight to one push service. */
const PER_SERVICE: Record<PushServiceHealth, number> = { answering: 16, new: 2, stalled: 1 };
/** How long one send may take in all, and past what an answer counts as slow. */
const SEND_TIMEOUT_MS: Record<PushServiceHealth, number> = { answering: 10_000, new: 10_000, stalled: 3_000 };
const SLOW_MS = 5_000;
const ATTEMPTS: Record<PushServiceHealth, number> = { answering: 4, new: 4, stalled: 2 };
const QUEUE_MAX = 50_000;
const STALLED_WAITING_MAX = 1_000;
const BACKOFF_MS = 1000;
const BACKOFF_MAX_MS = 60_000;
const ANSWER_BODY_MAX = 64 * 1024;
/** Push services remembered (their health) at most; the least recently used are forgotten past it. */
const SERVICES_MAX = 10_000;
/** The browsers' push services (Chrome and Edge's FCM, Firefox's autopush, Safari's, Windows'): answering at first. */
const KNOWN_PUSH_HOSTS =
  /(^|\.)(fcm\.googleapis\.com|push\.services\.mozilla\.com|push\.apple\.com|notify\.windows\.com)$/;

type WebPush = typeof import('web-push');

/** A first-in first-out list that takes from its head in constant time. */
class Fifo<T> {
  private items: T[] = [];
  private head = 0;
  get length(): number {
    return this.items.length - this.head;
  }
  push(item: T): void {
    this.items.push(item);
  }
  shift(): T | undefined {
    if (this.head >= this.items.length) return undefined;
    const item = this.items[this.head];
    this.items[this.head] = undefined as T;
    this.head += 1;
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }
  /** The newest item, taken off. */
  pop(): T | undefined {
    return this.length > 0 ? this.items.pop() : undefined;
  }
  clear(): void {
    this.items = [];
    this.head = 0;
  }
}

interface PushService {
  origin: string;
  health: PushServiceHealth;
  lanes: Record<PushLane, Fifo<Job>>;
  waiting: number;
  inFlight: number;
}

export function pushSender(deps: {
  keys: VapidKeys;
  subject: () => Promise<string>;
  store: Pick<PushSubscriptionStore, 'removeGone'>;
  /** Counts an outcome (talkgroup_push_total). */
  count: (outcome: PushOutcome) => void;
  allow: readonly string[];
  extraCa: string | undefined;
  onError: (error: unknown, what: string) => void;
  /** Whether a push service is taken as answering before it answered (default: the browsers' and PUSH_ENDPOINT_ALLOW's). */
  answeringAtFirst?: (origin: string) => boolean;
}) {
  const { count } = deps;

  /**
   * web-push and the HTTPS agents (node:https and node:tls with them) come with the first send. Endpoints of
   * PUSH_ENDPOINT_ALLOW may be on a private network; every other one may not, checked per connection.
   */
  let library:
    | Promise<{ webpush: WebPush; https: typeof import('node:https'); openAgent: Agent; guardedAgent: Agent }>
    | undefined;
  let agents: Agent[] = [];
  const load = () => {
    library ??= Promise.all([import('web-push'), import('node:https'), import('node:tls')]).then(
      ([module, https, tls]) => {
        const ca = deps.extraCa ? [...tls.rootCertificates, deps.extraCa] : undefined;
        const openAgent = new https.Agent({ keepAlive: true, ...(ca ? { ca } : {}) });
        const guardedAgent = new https.Agent({ keepAlive: true, lookup: guardedLookup, ...(ca ? { ca } : {}) });
        agents = [openAgent, guardedAgent];
        return { webpush: (module as { default?: WebPush }).default ?? module, https, openAgent, guardedAgent };
      },
    );
    return library;
  };

  /** Push services by origin: those with pushes waiting or in flight, and the health of those seen lately. */
  const services = new Map<string, PushService>();
  /**
   * Per lane, the push services with pushes waiting in it, in the order they are served: one served goes to the
   * back (round robin); one without room keeps its place.
   */
  const turns: Record<PushLane, Set<PushService>> = { alert: new Set(), transmission: new Set() };
  const timers = new Set<NodeJS.Timeout>();
  const inFlightRequests = new Set<AbortController>();
  let waitingTotal = 0;
  let inFlightTotal = 0;
  let probationInFlight = 0;
  let closed = false;
  const idleWaiters: Array<() => void> = [];

  const hostOf = (origin: string): string => {
    try {
      return new URL(origin).hostname;
    } catch {
      return '';
    }
  };

  const originOf = (endpoint: string): string => {
    try {
      return new URL(endpoint).origin;
    } catch {
      return endpoint;
    }
  };

  function serviceOf(origin: string): PushService {
    let service = services.get(origin);
    if (service) {
      // Most recently used last: the first ones are forgotten first.
      services.delete(origin);
    } else {
      const trusted = deps.answeringAtFirst
        ? deps.answeringAtFirst(origin)
        : deps.allow.includes(origin) || KNOWN_PUSH_HOSTS.test(hostOf(origin));
      service = {
        origin,
        health: trusted ? 'answering' : 'new',
        lanes: { alert: new Fifo(), transmission: new Fifo() },
        waiting: 0,
        inFlight: 0,
      };
    }
    services.set(origin, service);
    if (services.size > SERVICES_MAX) {
      for (const [key, old] of services) {
        if (services.size <= SERVICES_MAX) break;
        if (old.waiting === 0 && old.inFlight === 0) services.delete(key);
      }
    }
    return service;
  }

  const onProbation = (service: PushService) => service.health !== 'answering';

  const hasRoom = (service: PushService) =>
    service.inFlight < PER_SERVICE[service.health] && (!onProbation(service) || probationInFlight < PROBATION_MAX);

  const settleIdle = () => {
    if (inFlightTotal === 0 && waitingTotal === 0 && timers.size === 0)
      for (const done of idleWaiters.splice(0)) done();
  };

  /** A stalled push service's least urgent, oldest waiting push goes (counted as dropped). */
  function dropOldest(service: PushService): void {
    const lane = [...PUSH_LANES].reverse().find((name) => service.lanes[name].length > 0);
    if (!lane) return;
    service.lanes[lane].shift();
    if (service.lanes[lane].length === 0) turns[lane].delete(service);
    service.waiting -= 1;
    waitingTotal -= 1;
    count('dropped');
  }

  function add(job: Job): void {
    const service = serviceOf(originOf(job.subscription.endpoint));
    if (service.health === 'stalled' && service.waiting >= STALLED_WAITING_MAX) dropOldest(service);
    if (waitingTotal >= QUEUE_MAX && !evictFor(service, job.options.lane)) {
      count('dropped');
      return;
    }
    service.lanes[job.options.lane].push(job);
    service.waiting += 1;
    waitingTotal += 1;
    turns[job.options.lane].add(service);
  }

  /**
   * Room for one more push of `lane` to `incoming`: the push service with the most waiting loses its least urgent,
   * newest one. False when that would be the incoming push itself (it is dropped instead).
   */
  function evictFor(incoming: PushService, lane: PushLane): boolean {
    let largest: PushService | undefined;
    for (const service of services.values()) if (!largest || service.waiting > largest.waiting) largest = service;
    if (!largest) return false;
    const laneOfVictim = [...PUSH_LANES].reverse().find((name) => (largest as PushService).lanes[name].length > 0);
    if (!laneOfVictim) return false;
    const sameOrLower = PUSH_LANES.indexOf(laneOfVictim) <= PUSH_LANES.indexOf(lane);
    if (largest === incoming && sameOrLower) return false;
    largest.lanes[laneOfVictim].pop();
    if (largest.lanes[laneOfVictim].length === 0) turns[laneOfVictim].delete(largest);
    largest.waiting -= 1;
    waitingTotal -= 1;
    count('dropped');
    return true;
  }

  /** The next push to send: the most urgent lane first, push services in turn within it. */
  function next(): { service: PushService; job: Job } | undefined {
    for (const lane of PUSH_LANES) {
      const inTurn = turns[lane];
      for (const service of inTurn) {
        if (!hasRoom(service)) continue;
        const job = service.lanes[lane].shift() as Job;
        service.waiting -= 1;
        waitingTotal -= 1;
        inTurn.delete(service);
        if (service.lanes[lane].length > 0) inTurn.add(service);
        return { service, job };
      }
    }
    return undefined;
  }

  function pump(): void {
    while (!closed && inFlightTotal < IN_FLIGHT_MAX) {
      const picked = next();
      if (!picked) break;
      const { service, job } = picked;
      if (Date.now() >= job.staleAt) {
        count('expired');
        continue;
      }
      const probation = onProbation(service);
      service.inFlight += 1;
      inFlightTotal += 1;
      if (probation) probationInFlight += 1;
      send(service, job)
        .catch((error) => deps.onError(error, 'push send'))
        .finally(() => {
          service.inFlight -= 1;
          inFlightTotal -= 1;
          if (probation) probationInFlight -= 1;
          pump();
          settleIdle();
        });
    }
  }

  function retryLater(service: PushService, job: Job, retryAfter: string | undefined): void {
    if (closed) return;
    if (job.attempt + 1 >= ATTEMPTS[service.health]) {
      count('failed');
      return;
    }
    count('retried');
    const seconds = Number(retryAfter);
    const delay =
      Number.isFinite(seconds) && seconds > 0
        ? Math.min(seconds * 1000, BACKOFF_MAX_MS)
        : Math.min(BACKOFF_MS * 2 ** job.attempt, BACKOFF_MAX_MS);
    const timer = setTimeout(() => {
      timers.delete(timer);
      if (closed) return;
      add({ ...job, attempt: job.attempt + 1 });
      pump();
      settleIdle();
    }, delay);
    timer.unref();
    timers.add(timer);
  }

  interface Answer {
    status: number;
    headers: Record<string, string | string[] | undefined>;
  }

  /** One POST to the push service, within `timeoutMs` in all; the answer's body is read up to 64 kB. */
  async function post(job: Job, timeoutMs: number): Promise<Answer> {
    const { webpush, https, openAgent, guardedAgent } = await load();
    const { subscription } = job;
    const details = webpush.generateRequestDetails(
      { endpoint: subscription.endpoint, keys: subscription.keys },
      job.payload,
      {
        vapidDetails: {
          subject: await deps.subject(),
          publicKey: deps.keys.publicKey,
          privateKey: deps.keys.privateKey,
        },
        TTL: job.options.ttl,
        urgency: job.options.urgency,
        ...(job.options.topic ? { topic: job.options.topic } : {}),
        contentEncoding: 'aes128gcm',
      },
    );
    const abort = new AbortController();
    inFlightRequests.add(abort);
    const deadline = setTimeout(() => abort.abort(new Error('push send timed out')), timeoutMs);
    try {
      return await new Promise<Answer>((resolve, reject) => {
        const request = https.request(
          details.endpoint,
          {
            method: details.method,
            headers: details.headers as Record<string, string | number>,
            agent: allowedOrigin(subscription.endpoint, deps.allow) ? openAgent : guardedAgent,
            signal: abort.signal,
          },
          (response) => {
            let read = 0;
            response.on('data', (chunk: Buffer) => {
              read += chunk.length;
              if (read > ANSWER_BODY_MAX) response.destroy(new Error('push service answer too long'));
            });
            response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers }));
            response.on('error', reject);
          },
        );
        request.on('error', reject);
        request.end(details.body ?? undefined);
      });
    } finally {
      clearTimeout(deadline);
      inFlightRequests.delete(abort);
    }
  }

  async function send(service: PushService, job: Job): Promise<void> {
    const started = Date.now();
    let answer: Answer;
    try {
      answer = await post(job, SEND_TIMEOUT_MS[service.health]);
    } catch (error) {
      if (closed) return;
      if ((error as { code?: string }).code === 'EPUSHPRIVATE') {
        count('rejected');
        return;
      }
      // Timed out, refused or cut: the push service is stalled until it answers quickly again.
      service.health = 'stalled';
      while (service.waiting > STALLED_WAITING_MAX) dropOldest(service);
      retryLater(service, job, undefined);
      return;
    }
    service.health = Date.now() - started > SLOW_MS ? 'stalled' : 'answering';
    if (service.health === 'stalled') while (service.waiting > STALLED_WAITING_MAX) dropOldest(service);
    const { status } = answer;
    if (status >= 200 && status < 300) count('sent');
    else if (status === 404 || status === 410) {
      count('gone');
      await deps.store.removeGone(job.subscription.id, job.subscription.endpoint);
    } else if (status === 429 || status >= 500) {
      const retryAfter = answer.headers['retry-after'];
      retryLater(service, job, Array.isArray(retryAfter) ? retryAfter[0] : retryAfter);
    } else count('rejected');
  }

  return {
    /** Queues one push to each subscription; returns at once. */
    enqueue(
      subscriptions: readonly StoredSubscription[],
      payloadOf: (s: StoredSubscription) => string,
      options: PushOptions,
    ) {
      if (closed) return;
      // TTL 0 (deliver now or never) is left to the push service.
      const staleAt = options.ttl > 0 ? Date.now() + options.ttl * 1000 : Number.POSITIVE_INFINITY;
      for (const subscription of subscriptions)
        add({ subscription, payload: payloadOf(subscription), options, attempt: 0, staleAt });
      pump();
    },
    /** What waits and runs now, and each push service's health (tests, benchmarks). */
    state() {
      return {
        waiting: waitingTotal,
        inFlight: inFlightTotal,
        retrying: timers.size,
        services: Object.fromEntries(
          [...services.values()].map((service) => [
            service.origin,
            { health: service.health, waiting: service.waiting, inFlight: service.inFlight },
          ]),
        ),
      };
    },
    /** Resolves once nothing waits or runs (tests, benchmarks). */
    idle(): Promise<void> {
      return new Promise((resolve) => {
        idleWaiters.push(resolve);
        settleIdle();
      });
    },
    close(): void {
      closed = true;
      for (const service of services.values()) for (const lane of PUSH_LANES) service.lanes[lane].clear();
      services.clear();
      for (const lane of PUSH_LANES) turns[lane].clear();
      waitingTotal = 0;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      for (const abort of inFlightRequests) abort.abort(new Error('push sender closed'));
      for (const agent of agents) agent.destroy();
      settleIdle();
    },
  };
}

export type PushSender = ReturnType<typeof pushSender>;
