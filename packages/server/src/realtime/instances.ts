/**
 * Which server instances are alive, so that presence rows of a dead one can be removed.
 *
 * Presence rows carry the instance id of the process holding the socket, and that id changes with every
 * process (config.instanceId), so "remove my own stale rows at start" cannot work: the previous process had
 * another id. Instead every instance heartbeats into a Redis sorted set (member = instance id, score = Redis
 * server time, so clocks of the hosts do not matter) and, on every beat, removes the rows of instances that
 * have not beaten for INSTANCE_TTL_MS. A crashed instance's rows disappear within TTL + one beat, whether or
 * not it ever restarts. Without Redis there is one instance by definition (sockets are not shared), so at
 * start every row belongs to a previous process and all of them go.
 */
export const HEARTBEAT_MS = 10_000;
export const INSTANCE_TTL_MS = 30_000;

/** The few commands used here (a node-redis client has them). */
export interface RedisCommands {
  sendCommand(args: string[]): Promise<unknown>;
  zAdd(key: string, member: { score: number; value: string }): Promise<unknown>;
  zRemRangeByScore(key: string, min: string | number, max: string | number): Promise<unknown>;
  zRangeByScore(key: string, min: string | number, max: string | number): Promise<unknown>;
  zRem(key: string, member: string): Promise<unknown>;
}

export interface InstanceRegistry {
  /** Marks this instance alive now. */
  beat(): Promise<void>;
  /** Instances that beat within the TTL (this one included once it has beaten). */
  alive(): Promise<string[]>;
  /** Removes this instance (graceful shutdown). */
  leave(): Promise<void>;
}

export function redisInstanceRegistry(redis: RedisCommands, instanceId: string, key: string): InstanceRegistry {
  async function nowMs(): Promise<number> {
    const [seconds, micros] = (await redis.sendCommand(['TIME'])) as [string, string];
    return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
  }
  return {
    async beat() {
      await redis.zAdd(key, { score: await nowMs(), value: instanceId });
    },
    async alive() {
      const now = await nowMs();
      await redis.zRemRangeByScore(key, '-inf', now - INSTANCE_TTL_MS);
      return ((await redis.zRangeByScore(key, now - INSTANCE_TTL_MS, '+inf')) as unknown[]).map(String);
    },
    async leave() {
      await redis.zRem(key, instanceId);
    },
  };
}

export function singleInstanceRegistry(instanceId: string): InstanceRegistry {
  return {
    async beat() {},
    async alive() {
      return [instanceId];
    },
    async leave() {},
  };
}
