/**
 * Several instances of one deployment: the same data folder and database (testStorage), one Redis and one key
 * prefix of their own (other test files share this Redis), each instance with an id of its own and listening
 * on a port of its own. Close the clients first, then the cluster.
 */
import { randomBytes } from 'node:crypto';
import type { Config } from '../src/config/config.ts';
import type { Dialect } from '../src/db/open.ts';
import { buildTestApp, type TestApp, testStorage } from './harness.ts';
import { listen } from './realtime-harness.ts';

export interface ClusterOptions {
  /** The Redis the instances share: TEST_REDIS_URL unless given. */
  redisUrl?: string;
  /** How many instances start at once (2 unless given). */
  instances?: number;
  /** Configuration of every instance. */
  overrides?: Partial<Config>;
}

export interface Cluster {
  /** The instances, in the order they started. */
  apps: TestApp[];
  /** Their addresses, in the same order. */
  urls: string[];
  /** One more instance of the deployment, listening (added to apps and urls). */
  start(overrides?: Partial<Config>): Promise<TestApp>;
  /** Closes every instance, then drops the database and the data folder. */
  close(): Promise<void>;
}

const NAMES = ['one', 'two', 'three', 'four'];

export async function startCluster(dialect: Dialect, options: ClusterOptions = {}): Promise<Cluster> {
  const { redisUrl = process.env.TEST_REDIS_URL, instances = 2, overrides = {} } = options;
  const storage = testStorage(dialect);
  const apps: TestApp[] = [];
  const urls: string[] = [];
  const cluster: Cluster = {
    apps,
    urls,
    async start(more = {}) {
      const name = NAMES[apps.length] ?? `instance${apps.length + 1}`;
      const instanceId = `${name}-${randomBytes(4).toString('hex')}`;
      const app = await buildTestApp(storage, { redisUrl, instanceId, ...overrides, ...more });
      apps.push(app);
      urls.push(await listen(app));
      return app;
    },
    async close() {
      for (const app of apps.splice(0)) await app.fastify.close();
      urls.splice(0);
      await storage.remove();
    },
  };
  try {
    for (let i = 0; i < instances; i += 1) await cluster.start();
  } catch (error) {
    await cluster.close();
    throw error;
  }
  return cluster;
}
