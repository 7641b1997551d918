/**
 * The instances of one deployment together (REDIS_URL): the Socket.IO Redis adapter, the registry of the live
 * instances and this one's heartbeat, which removes the presence rows of instances that are gone and writes
 * this one's again; what is written again when Redis comes back; whether Redis answers (/readyz). Without
 * Redis, this instance is alone: the registry knows only itself and nothing beats.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config/config.ts';
import type { LocalSocket } from './context.ts';
import { HEARTBEAT_MS, type InstanceRegistry, redisInstanceRegistry, singleInstanceRegistry } from './instances.ts';
import type { Io, RealtimeServices } from './io.ts';
import { connectRedis, heardPublisher, type RedisPair, type RedisState } from './redis.ts';

export interface ClusterDeps {
  config: Pick<Config, 'instanceId' | 'redisUrl' | 'redisKeyPrefix'>;
  services: Pick<RealtimeServices, 'presence' | 'talkBursts' | 'gateways'>;
  log: FastifyBaseLogger;
  /** This instance's sockets: their presence rows are written again if another instance removed them. */
  local: Map<string, LocalSocket>;
}

/** How long /readyz waits for Redis to answer a ping. */
const REDIS_ANSWER_MS = 1500;

export class Cluster {
  readonly redis: RedisPair | undefined;
  readonly registry: InstanceRegistry;
  /** Writes again the floors this instance granted (the floor hands it over once it exists). */
  restoreFloors: () => Promise<number> = async () => 0;
  readonly #io: Io;
  readonly #deps: ClusterDeps;
  /** After Redis came back, others' presence rows are kept until every live instance has beaten again. */
  #keepOthersUntil = 0;
  #heartbeat: NodeJS.Timeout | undefined;

  constructor(io: Io, deps: ClusterDeps, redis: RedisPair | undefined, registry: InstanceRegistry) {
    this.#io = io;
    this.#deps = deps;
    this.redis = redis;
    this.registry = registry;
  }

  /** Beats, removes the presence rows of instances that are gone, and writes this one's again where missing. */
  async sweep(): Promise<void> {
    const { services, log, local, config } = this.#deps;
    const { presence } = services;
    await this.registry.beat();
    const alive = Date.now() < this.#keepOthersUntil ? undefined : await this.registry.alive();
    const removed = alive ? await presence.sweep(alive) : 0;
    // A gateway's call held by an instance that is gone ended with it (issue 51).
    if (alive) await services.gateways.sweepCalls(alive);
    await services.talkBursts.closeOrphans();
    if (removed > 0) log.info(`removed ${removed} presence row(s) of server instances that are gone`);
    // If this instance could not beat for a while (Redis unreachable), the others took it for dead and
    // removed its rows: its sockets, still connected, are written again.
    const written = await presence.socketIdsOf(config.instanceId);
    for (const { socket, scope } of local.values()) {
      if (socket.disconnected || written.has(socket.id)) continue;
      void scope.run('presence', async () => {
        if (socket.connected)
          await presence.restore(
            { socketId: socket.id, userId: socket.data.userId, instanceId: config.instanceId },
            socket.data.participations,
          );
      });
    }
  }

  /** Sweeps at each heartbeat; alone (no Redis), no other instance can go away, so nothing beats. */
  startHeartbeat(): void {
    if (!this.redis) return;
    const { log } = this.#deps;
    this.#heartbeat = setInterval(
      () => this.sweep().catch((error) => log.warn({ err: error }, 'presence sweep failed')),
      HEARTBEAT_MS,
    );
    this.#heartbeat.unref();
  }

  stopHeartbeat(): void {
    if (this.#heartbeat) clearInterval(this.#heartbeat);
  }

  /**
   * Redis restarted (or failed over), invisibly to clients: their connections stay open, and their rooms were
   * never in Redis (each instance keeps its sockets' rooms). What Redis lost is written again: this instance's
   * beat (it waits for the others to beat before it takes their rows for dead) and the floors it granted (a
   * holder keeps talking, a press meanwhile is refused as before); presence rows are in the database, and the
   * sweep writes again any another instance removed meanwhile. Broadcasts between instances were lost while it
   * was away: every client here is told to fetch what it may have missed (`resync`).
   */
  redisBack(): void {
    const { log } = this.#deps;
    this.#keepOthersUntil = Date.now() + 2 * HEARTBEAT_MS;
    void (async () => {
      await this.registry.beat();
      const floors = await this.restoreFloors();
      if (floors > 0) log.info(`wrote ${floors} floor holding(s) again after Redis came back`);
      this.#io.local.emit('resync', { reason: 'redis' });
    })().catch((error) => log.warn({ err: error }, 'could not put things back after Redis came back'));
  }

  /** Shutting down: this instance's presence rows go, and it leaves the registry. */
  async leave(): Promise<void> {
    try {
      await this.#deps.services.presence.removeInstance(this.#deps.config.instanceId);
      await this.registry.leave();
    } catch (error) {
      this.#deps.log.warn({ err: error }, 'could not remove the presence rows of this instance');
    }
  }

  /** Closes the Redis connections (after the adapter). */
  async disconnect(): Promise<void> {
    if (this.redis) await Promise.allSettled([this.redis.pub.close(), this.redis.sub.close()]);
  }

  /** Whether Redis is used (REDIS_URL) and, if so, answers within a second and a half. */
  async redisState(): Promise<RedisState> {
    const { redis } = this;
    if (!redis) return { used: false, ok: true };
    // A command sent while the client reconnects waits in its queue: the answer is bounded here.
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), REDIS_ANSWER_MS);
    });
    const answered = redis.pub.isReady
      ? redis.pub.ping().then(
          (pong) => pong === 'PONG',
          () => false,
        )
      : Promise.resolve(false);
    try {
      return { used: true, ok: await Promise.race([answered, late]) };
    } finally {
      clearTimeout(timer);
    }
  }
}

/**
 * Connects this instance to the others (REDIS_URL: the adapter under the deployment's prefix, the registry),
 * sweeps once and starts the heartbeat.
 */
export async function joinCluster(io: Io, deps: ClusterDeps): Promise<Cluster> {
  const { config, log } = deps;
  let cluster: Cluster;
  if (config.redisUrl) {
    const redis = await connectRedis(config.redisUrl, log, () => cluster?.redisBack());
    const { createAdapter } = await import('@socket.io/redis-adapter');
    // Under the deployment's prefix: deployments (and test runs) that share one Redis never hear each other.
    io.adapter(createAdapter(heardPublisher(redis.pub, log), redis.sub, { key: `${config.redisKeyPrefix}socket.io` }));
    const registry = redisInstanceRegistry(redis.pub, config.instanceId, `${config.redisKeyPrefix}instances`);
    cluster = new Cluster(io, deps, redis, registry);
  } else {
    cluster = new Cluster(io, deps, undefined, singleInstanceRegistry(config.instanceId));
  }
  await cluster.sweep();
  cluster.startHeartbeat();
  return cluster;
}
