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
 * What waits and in which order is send-queue.ts; one request, its deadline and `web-push`, push-request.ts.
 * Every outcome counts in talkgroup_push_total{outcome}.
 */
import type { LabelledCounter } from '../process/metrics.ts';
import type { VapidKeys } from './keys.ts';
import { type PushAnswer, pushRequests } from './push-request.ts';
import { type Job, type PushOptions, type PushService, type PushServiceHealth, sendQueue } from './send-queue.ts';
import type { PushSubscriptionStore, StoredSubscription } from './store.ts';

export { PUSH_LANES, type PushLane, type PushOptions, type PushServiceHealth } from './send-queue.ts';

export type PushOutcome = 'sent' | 'gone' | 'retried' | 'failed' | 'rejected' | 'dropped' | 'expired';

/** talkgroup_push_total{outcome} */
export const PUSH_COUNTER: LabelledCounter<PushOutcome> = {
  name: 'talkgroup_push_total',
  help: 'Web Push sends by outcome: sent, gone (404/410: subscription removed), retried (429/5xx/network/time-out), failed (after every retry), rejected (another 4xx, or a private address), dropped (too many waiting), expired (its TTL passed while it waited).',
  label: 'outcome',
  values: ['sent', 'gone', 'retried', 'failed', 'rejected', 'dropped', 'expired'],
};

/** Sends in flight at once, in all, and those that new and stalled push services may hold together. */
const IN_FLIGHT_MAX = 64;
const PROBATION_MAX = 4;
/** Sends in flight to one push service. */
const PER_SERVICE: Record<PushServiceHealth, number> = { answering: 16, new: 2, stalled: 1 };
/** How long one send may take in all, and past what an answer counts as slow. */
const SEND_TIMEOUT_MS: Record<PushServiceHealth, number> = { answering: 10_000, new: 10_000, stalled: 3_000 };
const SLOW_MS = 5_000;
const ATTEMPTS: Record<PushServiceHealth, number> = { answering: 4, new: 4, stalled: 2 };
const BACKOFF_MS = 1000;
const BACKOFF_MAX_MS = 60_000;
/** The browsers' push services (Chrome and Edge's FCM, Firefox's autopush, Safari's, Windows'): answering at first. */
const KNOWN_PUSH_HOSTS =
  /(^|\.)(fcm\.googleapis\.com|push\.services\.mozilla\.com|push\.apple\.com|notify\.windows\.com)$/;

const hostOf = (origin: string): string => {
  try {
    return new URL(origin).hostname;
  } catch {
    return '';
  }
};

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
  const requests = pushRequests(deps);
  const queue = sendQueue({
    dropped: () => count('dropped'),
    answeringAtFirst:
      deps.answeringAtFirst ?? ((origin) => deps.allow.includes(origin) || KNOWN_PUSH_HOSTS.test(hostOf(origin))),
  });
  const timers = new Set<NodeJS.Timeout>();
  let inFlightTotal = 0;
  let probationInFlight = 0;
  let closed = false;
  const idleWaiters: Array<() => void> = [];

  const onProbation = (service: PushService) => service.health !== 'answering';

  const hasRoom = (service: PushService) =>
    service.inFlight < PER_SERVICE[service.health] && (!onProbation(service) || probationInFlight < PROBATION_MAX);

  const settleIdle = () => {
    if (inFlightTotal === 0 && queue.waiting === 0 && timers.size === 0)
      for (const done of idleWaiters.splice(0)) done();
  };

  function pump(): void {
    while (!closed && inFlightTotal < IN_FLIGHT_MAX) {
      const picked = queue.next(hasRoom);
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
      queue.add({ ...job, attempt: job.attempt + 1 });
      pump();
      settleIdle();
    }, delay);
    timer.unref();
    timers.add(timer);
  }

  async function send(service: PushService, job: Job): Promise<void> {
    const started = Date.now();
    let answer: PushAnswer;
    try {
      answer = await requests.post(job, SEND_TIMEOUT_MS[service.health]);
    } catch (error) {
      if (closed) return;
      if ((error as { code?: string }).code === 'EPUSHPRIVATE') {
        count('rejected');
        return;
      }
      // Timed out, refused or cut: the push service is stalled until it answers quickly again.
      service.health = 'stalled';
      queue.trimStalled(service);
      retryLater(service, job, undefined);
      return;
    }
    service.health = Date.now() - started > SLOW_MS ? 'stalled' : 'answering';
    if (service.health === 'stalled') queue.trimStalled(service);
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
        queue.add({ subscription, payload: payloadOf(subscription), options, attempt: 0, staleAt });
      pump();
    },
    /** What waits and runs now, and each push service's health (tests, benchmarks). */
    state() {
      return {
        waiting: queue.waiting,
        inFlight: inFlightTotal,
        retrying: timers.size,
        services: Object.fromEntries(
          [...queue.services()].map((service) => [
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
      queue.clear();
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      requests.close();
      settleIdle();
    },
  };
}

export type PushSender = ReturnType<typeof pushSender>;
