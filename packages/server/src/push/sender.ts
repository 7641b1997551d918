/**
 * Sends pushes without ever holding up what caused them: `enqueue` returns at once, a few sends run at a time
 * beside the event loop's other work, a push service that answers 429 or 5xx (or cannot be reached) is asked
 * again after a growing delay (its Retry-After when it gives one), and one that answers 404 or 410 loses the
 * subscription. `web-push` and its HTTPS agents come with the first send only: an instance that never pushes never
 * holds them.
 * Every outcome counts in talkgroup_push_total{outcome}.
 */
import type { Agent } from 'node:https';
import type { LabelledCounter } from '../ops/metrics.ts';
import { allowedOrigin, guardedLookup } from './endpoints.ts';
import type { VapidKeys } from './keys.ts';
import type { PushSubscriptionStore, StoredSubscription } from './store.ts';

export interface PushOptions {
  urgency: 'very-low' | 'low' | 'normal' | 'high';
  /** Seconds the push service keeps it while the device is away. */
  ttl: number;
  /** A later push of the same topic replaces this one at the push service (base64url, 32 characters at most). */
  topic?: string;
}

interface Job {
  subscription: StoredSubscription;
  payload: string;
  options: PushOptions;
  attempt: number;
}

export type PushOutcome = 'sent' | 'gone' | 'retried' | 'failed' | 'rejected' | 'dropped';

/** talkgroup_push_total{outcome} */
export const PUSH_COUNTER: LabelledCounter<PushOutcome> = {
  name: 'talkgroup_push_total',
  help: 'Web Push sends by outcome: sent, gone (404/410: subscription removed), retried (429/5xx/network), failed (after every retry), rejected (another 4xx), dropped (queue full).',
  label: 'outcome',
  values: ['sent', 'gone', 'retried', 'failed', 'rejected', 'dropped'],
};

/** Sends in flight at once, attempts per push, and the most pushes that may wait (more are dropped, counted). */
const CONCURRENCY = 16;
const ATTEMPTS = 4;
const QUEUE_MAX = 50_000;
const BACKOFF_MS = 1000;
const BACKOFF_MAX_MS = 60_000;
const SEND_TIMEOUT_MS = 15_000;

type WebPush = typeof import('web-push');

export function pushSender(deps: {
  keys: VapidKeys;
  subject: () => Promise<string>;
  store: PushSubscriptionStore;
  /** Counts an outcome (talkgroup_push_total). */
  count: (outcome: PushOutcome) => void;
  allow: readonly string[];
  extraCa: string | undefined;
  onError: (error: unknown, what: string) => void;
}) {
  const { count } = deps;

  /**
   * web-push and the HTTPS agents (node:https and node:tls with them) come with the first send. Endpoints of
   * PUSH_ENDPOINT_ALLOW may be on a private network; every other one may not, checked per connection.
   */
  let library: Promise<{ webpush: WebPush; openAgent: Agent; guardedAgent: Agent }> | undefined;
  let agents: Agent[] = [];
  const load = () => {
    library ??= Promise.all([import('web-push'), import('node:https'), import('node:tls')]).then(
      ([module, https, tls]) => {
        const ca = deps.extraCa ? [...tls.rootCertificates, deps.extraCa] : undefined;
        const openAgent = new https.Agent({ keepAlive: true, ...(ca ? { ca } : {}) });
        const guardedAgent = new https.Agent({ keepAlive: true, lookup: guardedLookup, ...(ca ? { ca } : {}) });
        agents = [openAgent, guardedAgent];
        return { webpush: (module as { default?: WebPush }).default ?? module, openAgent, guardedAgent };
      },
    );
    return library;
  };

  const queue: Job[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let running = 0;
  let closed = false;
  const waiting: Array<() => void> = [];

  const settleIdle = () => {
    if (running === 0 && queue.length === 0 && timers.size === 0) for (const done of waiting.splice(0)) done();
  };

  function pump(): void {
    while (!closed && running < CONCURRENCY && queue.length > 0) {
      const job = queue.shift() as Job;
      running++;
      send(job)
        .catch((error) => deps.onError(error, 'push send'))
        .finally(() => {
          running--;
          pump();
          settleIdle();
        });
    }
  }

  function retryLater(job: Job, retryAfter: string | undefined): void {
    if (job.attempt + 1 >= ATTEMPTS) {
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
      queue.push({ ...job, attempt: job.attempt + 1 });
      pump();
      settleIdle();
    }, delay);
    timer.unref();
    timers.add(timer);
  }

  async function send(job: Job): Promise<void> {
    const { webpush, openAgent, guardedAgent } = await load();
    const { subscription } = job;
    try {
      await webpush.sendNotification({ endpoint: subscription.endpoint, keys: subscription.keys }, job.payload, {
        vapidDetails: {
          subject: await deps.subject(),
          publicKey: deps.keys.publicKey,
          privateKey: deps.keys.privateKey,
        },
        TTL: job.options.ttl,
        urgency: job.options.urgency,
        ...(job.options.topic ? { topic: job.options.topic } : {}),
        contentEncoding: 'aes128gcm',
        agent: allowedOrigin(subscription.endpoint, deps.allow) ? openAgent : guardedAgent,
        timeout: SEND_TIMEOUT_MS,
      });
      count('sent');
    } catch (error) {
      const status = (error as { statusCode?: number }).statusCode;
      const headers = (error as { headers?: Record<string, string | undefined> }).headers;
      if (status === 404 || status === 410) {
        count('gone');
        await deps.store.removeGone(subscription.id, subscription.endpoint);
      } else if (status === 429 || (status !== undefined && status >= 500)) retryLater(job, headers?.['retry-after']);
      else if (status !== undefined) count('rejected');
      else if ((error as { code?: string }).code === 'EPUSHPRIVATE') count('rejected');
      else retryLater(job, undefined);
    }
  }

  return {
    /** Queues one push to each subscription; returns at once. */
    enqueue(
      subscriptions: readonly StoredSubscription[],
      payloadOf: (s: StoredSubscription) => string,
      options: PushOptions,
    ) {
      if (closed) return;
      for (const subscription of subscriptions) {
        if (queue.length >= QUEUE_MAX) {
          count('dropped');
          continue;
        }
        queue.push({ subscription, payload: payloadOf(subscription), options, attempt: 0 });
      }
      pump();
    },
    /** Resolves once nothing waits or runs (tests, benchmarks). */
    idle(): Promise<void> {
      return new Promise((resolve) => {
        waiting.push(resolve);
        settleIdle();
      });
    },
    close(): void {
      closed = true;
      queue.length = 0;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      for (const agent of agents) agent.destroy();
      settleIdle();
    },
  };
}

export type PushSender = ReturnType<typeof pushSender>;
