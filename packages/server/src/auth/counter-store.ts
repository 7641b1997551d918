/**
 * Expiring counters and marks for the limits (sign-in, chat, uploads). With REDIS_URL they live in Redis
 * under REDIS_KEY_PREFIX, shared by every instance of the deployment; otherwise in this process's memory.
 */

export interface CounterStore {
  /** Adds one to the key (its window starts at the first hit and lasts windowMs); the new count. */
  increment(key: string, windowMs: number): Promise<number>;
  /** The key's count (0 when absent or expired). */
  count(key: string): Promise<number>;
  /** Sets a mark that lasts ttlMs. */
  mark(key: string, ttlMs: number): Promise<void>;
  /** Milliseconds left on a key (0 when absent or expired). */
  remaining(key: string): Promise<number>;
  remove(...keys: string[]): Promise<void>;
  close(): Promise<void>;
}

export function memoryCounterStore(): CounterStore {
  const entries = new Map<string, { count: number; expiresAt: number }>();
  const live = (key: string) => {
    const entry = entries.get(key);
    if (entry && entry.expiresAt <= Date.now()) {
      entries.delete(key);
      return undefined;
    }
    return entry;
  };
  const sweep = () => {
    if (entries.size < 100_000) return;
    const now = Date.now();
    for (const [key, entry] of entries) if (entry.expiresAt <= now) entries.delete(key);
  };
  return {
    async increment(key, windowMs) {
      sweep();
      const entry = live(key) ?? { count: 0, expiresAt: Date.now() + windowMs };
      entry.count += 1;
      entries.set(key, entry);
      return entry.count;
    },
    async count(key) {
      return live(key)?.count ?? 0;
    },
    async mark(key, ttlMs) {
      sweep();
      entries.set(key, { count: 1, expiresAt: Date.now() + ttlMs });
    },
    async remaining(key) {
      const entry = live(key);
      return entry ? entry.expiresAt - Date.now() : 0;
    },
    async remove(...keys) {
      for (const key of keys) entries.delete(key);
    },
    async close() {
      entries.clear();
    },
  };
}

// One round trip, and the window is set by the first hit only.
const INCREMENT = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return n`;

/**
 * Counters in Redis. Commands wait in the client's queue until it is connected; an unreachable Redis makes
 * the limited call fail (500) rather than go unlimited.
 */
export function redisCounterStore(url: string, prefix: string, onError: (error: unknown) => void): CounterStore {
  // The client library is loaded only with REDIS_URL: a single instance never holds it in memory.
  const created = import('redis').then(({ createClient }) => {
    const client = createClient({ url });
    client.on('error', onError);
    return client;
  });
  const connected = created
    .then((client) => client.connect())
    .catch((error: unknown) => {
      onError(error);
    });
  const k = (key: string) => `${prefix}${key}`;
  const ready = async () => {
    await connected;
    return created;
  };
  return {
    async increment(key, windowMs) {
      const redis = await ready();
      return Number(await redis.eval(INCREMENT, { keys: [k(key)], arguments: [String(Math.ceil(windowMs))] }));
    },
    async count(key) {
      const redis = await ready();
      return Number((await redis.get(k(key))) ?? 0);
    },
    async mark(key, ttlMs) {
      const redis = await ready();
      await redis.set(k(key), '1', { PX: Math.max(1, Math.ceil(ttlMs)) });
    },
    async remaining(key) {
      const redis = await ready();
      return Math.max(0, Number(await redis.pTTL(k(key))));
    },
    async remove(...keys) {
      const redis = await ready();
      if (keys.length > 0) await redis.del(keys.map(k));
    },
    async close() {
      await connected;
      const client = await created;
      if (client.isOpen) await client.close();
    },
  };
}
