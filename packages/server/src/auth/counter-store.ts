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
  /**
   * Runs a decision over several keys as one step that nothing else interleaves with: the script's Lua in
   * Redis (one EVAL), its synchronous function in memory. A read then a write in two calls would let a burst
   * of requests all read before any of them wrote.
   */
  run(script: CounterScript, keys: string[], args: number[]): Promise<number[]>;
  close(): Promise<void>;
}

/** The counters as a script sees them in memory: every call is synchronous, so the script runs in one step. */
export interface SyncCounters {
  increment(key: string, windowMs: number): number;
  count(key: string): number;
  mark(key: string, ttlMs: number): void;
  remaining(key: string): number;
  /** Takes one off the key's count, keeping its window; the key goes at 0. */
  decrement(key: string): void;
  remove(...keys: string[]): void;
}

/**
 * One decision written twice, alike: in Lua for Redis (KEYS and ARGV as given to `run`, answering an array of
 * integers) and as a synchronous function for the memory store. Tests run both.
 */
export interface CounterScript {
  lua: string;
  memory(counters: SyncCounters, keys: string[], args: number[]): number[];
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
  const counters: SyncCounters = {
    increment(key, windowMs) {
      sweep();
      const entry = live(key) ?? { count: 0, expiresAt: Date.now() + windowMs };
      entry.count += 1;
      entries.set(key, entry);
      return entry.count;
    },
    count: (key) => live(key)?.count ?? 0,
    mark(key, ttlMs) {
      sweep();
      entries.set(key, { count: 1, expiresAt: Date.now() + ttlMs });
    },
    remaining(key) {
      const entry = live(key);
      return entry ? entry.expiresAt - Date.now() : 0;
    },
    decrement(key) {
      const entry = live(key);
      if (!entry) return;
      entry.count -= 1;
      if (entry.count <= 0) entries.delete(key);
    },
    remove(...keys) {
      for (const key of keys) entries.delete(key);
    },
  };
  return {
    increment: async (key, windowMs) => counters.increment(key, windowMs),
    count: async (key) => counters.count(key),
    mark: async (key, ttlMs) => counters.mark(key, ttlMs),
    remaining: async (key) => counters.remaining(key),
    remove: async (...keys) => counters.remove(...keys),
    // No await inside: the script's reads and writes happen before any other request's code runs.
    run: async (script, keys, args) => script.memory(counters, keys, args),
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
    async run(script, keys, args) {
      const redis = await ready();
      const answer = await redis.eval(script.lua, { keys: keys.map(k), arguments: args.map(String) });
      return (answer as unknown[]).map(Number);
    },
    async close() {
      await connected;
      const client = await created;
      if (client.isOpen) await client.close();
    },
  };
}
