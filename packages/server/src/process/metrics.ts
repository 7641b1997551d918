/**
 * GET /metrics in Prometheus' text format (prom-client): HTTP request durations by route and status, the
 * sockets connected to this instance, the channel rooms with someone in them, who is talking now, database
 * query durations, and the process's own figures (event-loop lag, memory, CPU). Protected by METRICS_TOKEN
 * (Authorization: Bearer) on the main port, or served alone on METRICS_PORT (bind it to a private address).
 * With neither, nothing can read them: prom-client is not loaded and nothing is measured (docs/memory.md).
 */
import { timingSafeEqual } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Registry } from 'prom-client';
import type { Config } from '../config/config.ts';
import type { OpenedDatabase } from '../db/open.ts';
import type { MediaServerHealth } from '../janus/backends.ts';
import type { Io } from '../sockets/io.ts';

/** A constant-time comparison of a given secret with the expected one. */
export function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A counter by one label (every value shown from the start, at 0); a no-op when metrics are not served. */
export interface LabelledCounter<L extends string> {
  name: string;
  help: string;
  label: string;
  values: readonly L[];
}

export interface Metrics {
  /** prom-client's registry; undefined when /metrics is served nowhere (no METRICS_TOKEN, no METRICS_PORT). */
  registry: Registry | undefined;
  /** Counts `value`s of a counter of this registry. */
  counter<L extends string>(counter: LabelledCounter<L>): (value: L) => void;
  attachSockets(server: Io): void;
  attachMedia(health: () => MediaServerHealth[] | null): void;
  /** The separate listener's port (METRICS_PORT; 0 picks a free one), once listening. */
  port(): number | undefined;
}

const notServed = (reply: FastifyReply) =>
  reply.status(404).send({ success: false, result: 'No such call: GET /metrics' });

/** Created before the routes (its timing hook must see them all); the socket server is given once attached. */
export async function createMetrics(app: FastifyInstance, config: Config, database: OpenedDatabase): Promise<Metrics> {
  if (config.metricsToken === undefined && config.metricsPort === undefined) {
    app.get('/metrics', { schema: { hide: true } }, (_request, reply) => notServed(reply));
    return {
      registry: undefined,
      counter: () => () => {},
      attachSockets() {},
      attachMedia() {},
      port: () => undefined,
    };
  }
  const { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } = await import('prom-client');
  let io: Io | undefined;
  let mediaHealth: () => MediaServerHealth[] | null = () => null;
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'talkgroup_' });

  const http = new Histogram({
    name: 'talkgroup_http_request_duration_seconds',
    help: 'HTTP requests by method, route (the declared path) and status code.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const queries = new Histogram({
    name: 'talkgroup_db_query_duration_seconds',
    help: 'Database queries.',
    labelNames: ['dialect'] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
    registers: [registry],
  });
  const queryErrors = new Counter({
    name: 'talkgroup_db_query_errors_total',
    help: 'Database queries that failed.',
    registers: [registry],
  });
  new Gauge({
    name: 'talkgroup_sockets_connected',
    help: 'Sockets connected to this instance.',
    registers: [registry],
    collect() {
      this.set(io?.of('/').sockets.size ?? 0);
    },
  });
  new Gauge({
    name: 'talkgroup_rooms_active',
    help: 'Channel rooms with at least one socket of this instance in them.',
    registers: [registry],
    collect() {
      let rooms = 0;
      for (const [name, members] of io?.of('/').adapter.rooms ?? [])
        if (name.startsWith('channel:') && members.size > 0) rooms++;
      this.set(rooms);
    },
  });
  new Gauge({
    name: 'talkgroup_talking_now',
    help: 'Users transmitting now (open talk bursts, every instance).',
    registers: [registry],
    async collect() {
      const row = await database.db
        .selectFrom('talk_bursts')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('ended_at', 'is', null)
        .executeTakeFirst();
      this.set(Number(row?.n ?? 0));
    },
  });

  // Per media server (JANUS_URL): whether this instance reaches it, and the channel rooms it has there.
  new Gauge({
    name: 'talkgroup_media_server_up',
    help: 'Whether this instance reaches the media server (1) or not (0).',
    labelNames: ['server'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const server of mediaHealth() ?? []) this.set({ server: server.url }, server.reachable ? 1 : 0);
    },
  });
  new Gauge({
    name: 'talkgroup_media_server_rooms',
    help: 'Channel rooms this instance has on the media server.',
    labelNames: ['server'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const server of mediaHealth() ?? []) this.set({ server: server.url }, server.rooms);
    },
  });

  database.onQuery((ms, failed) => {
    queries.observe({ dialect: database.dialect }, ms / 1000);
    if (failed) queryErrors.inc();
  });
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    http.observe({ method: request.method, route, status: String(reply.statusCode) }, reply.elapsedTime / 1000);
  });

  async function answer(request: FastifyRequest, reply: FastifyReply, needsToken: boolean) {
    if (needsToken) {
      const header = request.headers.authorization ?? '';
      const token = header.startsWith('Bearer ') ? header.slice('Bearer '.length) : '';
      if (!config.metricsToken) return notServed(reply);
      if (!sameSecret(token, config.metricsToken))
        return reply.status(401).send({ success: false, result: 'Missing or wrong metrics token.' });
    }
    reply.header('content-type', registry.contentType);
    return registry.metrics();
  }

  let separate: FastifyInstance | undefined;
  // On the main port only with a token; with METRICS_PORT, there alone (the main port answers 404).
  app.get('/metrics', { schema: { hide: true } }, (request, reply) =>
    config.metricsPort === undefined ? answer(request, reply, true) : reply.callNotFound(),
  );
  let port: number | undefined;
  // The separate listener comes up with the main one (and goes down with it).
  app.addHook('onListen', async () => {
    if (config.metricsPort === undefined || separate) return;
    separate = Fastify({ logger: false });
    separate.get('/metrics', (request, reply) => answer(request, reply, config.metricsToken !== undefined));
    await separate.listen({ port: config.metricsPort, host: config.metricsHost });
    const address = separate.server.address();
    port = typeof address === 'object' && address ? address.port : config.metricsPort;
  });
  app.addHook('onClose', async () => {
    await separate?.close();
  });
  return {
    registry,
    counter({ name, help, label, values }) {
      const counter = new Counter({ name, help, labelNames: [label], registers: [registry] });
      for (const value of values) counter.inc({ [label]: value }, 0);
      return (value) => counter.inc({ [label]: value });
    },
    attachSockets(server: Io) {
      io = server;
    },
    attachMedia(health: () => MediaServerHealth[] | null) {
      mediaHealth = health;
    },
    port: () => port,
  };
}
