/** The Redis connections of the Socket.IO adapter (REDIS_URL): one to publish, one to subscribe. */
import type { FastifyBaseLogger } from 'fastify';

/** Redis as /readyz reports it: not used without REDIS_URL (nothing to wait for), else whether it answers. */
export interface RedisState {
  used: boolean;
  ok: boolean;
}

export type RedisPair = Awaited<ReturnType<typeof connectRedis>>;

/**
 * `onBack` is called each time the subscribing connection is ready again after it was lost (Redis restarted
 * or failed over): broadcasts from other instances may have been missed meanwhile, and what Redis held (the
 * floor, the instance registry) may be gone.
 */
export async function connectRedis(url: string, log: FastifyBaseLogger, onBack: () => void = () => {}) {
  // Loaded only with REDIS_URL: a single instance never holds the client library in memory.
  const { createClient } = await import('redis');
  const pub = createClient({ url });
  const sub = pub.duplicate();
  // node-redis reconnects by itself; without a listener an error event would crash the process.
  pub.on('error', (error) => log.warn({ err: error }, 'redis (publish) connection error'));
  sub.on('error', (error) => log.warn({ err: error }, 'redis (subscribe) connection error'));
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('could not reach Redis (REDIS_URL) within 10 s')), 10_000);
  });
  let lost = false;
  sub.on('end', () => {
    lost = true;
  });
  sub.on('reconnecting', () => {
    lost = true;
  });
  sub.on('ready', () => {
    if (!lost) return;
    lost = false;
    log.warn('redis is reachable again');
    onBack();
  });
  try {
    await Promise.race([Promise.all([pub.connect(), sub.connect()]), timeout]);
  } catch (error) {
    pub.destroy();
    sub.destroy();
    throw error;
  } finally {
    clearTimeout(timer);
  }
  return { pub, sub };
}

/**
 * The publishing client as the Socket.IO adapter gets it. The adapter publishes without waiting for the answer,
 * and a publish in flight when Redis goes away is refused ("Socket closed unexpectedly"): unheard, that refusal
 * would end the process (Node stops on an unhandled rejection). Here each one is logged instead; what it
 * carried is fetched again by the clients after Redis is back (`resync`). Everything else reaches the client
 * itself, bound to it (node-redis keeps its state in private fields).
 */
export function heardPublisher<T extends object>(client: T, log: FastifyBaseLogger): T {
  return new Proxy(client, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      if (property !== 'publish' && property !== 'sPublish') return value.bind(target);
      return (...args: unknown[]) => {
        const sent = value.apply(target, args) as Promise<unknown>;
        sent.catch((error: unknown) => log.warn({ err: error }, 'a broadcast to the other instances was lost'));
        return sent;
      };
    },
  });
}
