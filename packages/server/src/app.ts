/** Builds the Fastify app and its Socket.IO server (tests use app.inject, or listen on port 0 for sockets). */
import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance } from 'fastify';
import { activityRoutes } from './activities/routes.ts';
import { aliasRoutes } from './aliases/routes.ts';
import { ambientRoutes } from './ambient/routes.ts';
import { areaRoutes } from './areas/routes.ts';
import { auditRoutes } from './audit/routes.ts';
import { identityRoutes } from './auth/identity-routes.ts';
import { oidcRoutes } from './auth/oidc-routes.ts';
import { accountSecurityRoutes } from './auth/routes.ts';
import { startSessionSweep } from './auth/session-sweep.ts';
import { callRoutes } from './calls/routes.ts';
import { channelRoutes } from './channels/routes.ts';
import { clientConfigRoutes } from './client-config/routes.ts';
import type { Config } from './config/config.ts';
import { dashboardRoutes } from './dashboard/routes.ts';
import { type OpenedDatabase, openDatabase } from './db/open.ts';
import { deviceRoutes } from './devices/routes.ts';
import { dispatchQueueRoutes } from './dispatch/queue-routes.ts';
import { dispatchQueueSweep } from './dispatch/queue-sweep.ts';
import { dispatchRoutes } from './dispatch/routes.ts';
import { emergencyRoutes } from './emergency/routes.ts';
import { gatewayRoutes } from './gateways/routes.ts';
import { geofenceRoutes } from './geofences/routes.ts';
import { registerCompression } from './http/compression.ts';
import { registerErrorHandler } from './http/errors.ts';
import { redactedRequest } from './http/redact.ts';
import { registerSecurityHeaders } from './http/security-headers.ts';
import { legacyRoutes } from './legacy/routes.ts';
import { startLogPruning } from './lists/change-log.ts';
import { messageRoutes } from './messages/routes.ts';
import { registerOpenApi, zodSchemaController } from './openapi.ts';
import { healthRoutes } from './ops/health.ts';
import { turnProbe } from './ops/turn-probe.ts';
import { patchRoutes } from './patches/routes.ts';
import { positionRoutes } from './positions/routes.ts';
import { presenceSamples } from './presence/samples.ts';
import { deadlineSweep } from './process/deadline-sweep.ts';
import { FAULTS_COUNTER } from './process/faults.ts';
import { createMetrics, type Metrics } from './process/metrics.ts';
import { pushRoutes } from './push/routes.ts';
import { createPush, type Push } from './push/service.ts';
import { specHttpCalls } from './realtime/legacy/http-calls.ts';
import type { MediaPlanes } from './realtime/media/plane.ts';
import { attachRealtime, type Io } from './realtime/server.ts';
import { regroupRoutes } from './regroups/routes.ts';
import { reportRoutes } from './reports/routes.ts';
import { safetyRoutes } from './safety/routes.ts';
import { createServices, type Services } from './services.ts';
import { type SipServer, startSip } from './sip/gateway-calls.ts';
import { statusRoutes } from './statuses/routes.ts';
import { userRoutes } from './users/routes.ts';
import { secondFactorRoutes } from './users/second-factor-routes.ts';
import type { LiveVideos } from './video/live.ts';
import { videoRecordingRoutes } from './video/recording-routes.ts';
import { videoRoutes } from './video/routes.ts';
import { missedRoutes } from './voice/missed-routes.ts';
import { voiceRoutes } from './voice/routes.ts';
import { scanRoutes } from './voice/scan-routes.ts';

export interface App {
  fastify: FastifyInstance;
  services: Services;
  metrics: Metrics;
  /** Where each channel's voice goes (the mesh, or the media server), and patches of channels. */
  media: MediaPlanes;
  /** Web Push (issue 34): its public key, subscriptions and queue. */
  push: Push;
  /** The Socket.IO server (the tests read its connections). */
  io: Io;
  /** Live video's streams (issue 61; the tests sweep those of an instance gone). */
  videos: LiveVideos;
  /** The SIP gateways' server (issue 51), when SIP_PORT is set: its port (SIP_PORT=0 picks one) and its calls. */
  sip: SipServer | undefined;
  close(): Promise<void>;
}

export interface BuildOptions {
  /** An already opened database (tests); otherwise the configuration's. */
  database?: OpenedDatabase;
  logger?: boolean | object;
}

/** Paths the single-page app must not answer for. */
const NOT_SPA = /^\/(user\/api|device|socket\.io|files|health|healthz|readyz|api)(\/|$)/;

export async function buildApp(config: Config, options: BuildOptions = {}): Promise<App> {
  let log: FastifyInstance['log'] | undefined;
  const database =
    options.database ??
    (await openDatabase({
      dataDir: config.dataDir,
      databaseUrl: config.databaseUrl,
      timeoutMs: config.databaseTimeoutMs,
      onIdleError: (error) => log?.warn({ err: error }, 'a pooled database connection broke; the pool makes another'),
    }));
  const logger = options.logger ?? false;
  const fastify = Fastify({
    // Request URLs are logged with their secrets replaced (http/redact.ts).
    logger: logger === false ? false : { ...(logger === true ? {} : logger), serializers: { req: redactedRequest } },
    bodyLimit: 8 * 1024 * 1024,
    trustProxy: config.trustProxy,
    schemaController: zodSchemaController,
    ...(config.tlsCert && config.tlsKey ? { https: { cert: config.tlsCert, key: config.tlsKey } } : {}),
  });
  log = fastify.log;
  registerErrorHandler(fastify);
  await registerSecurityHeaders(fastify, config);
  await registerCompression(fastify);
  const metrics = await createMetrics(fastify, config, database);
  await registerOpenApi(fastify);
  const services = createServices(config, database, (error, event) =>
    fastify.log.error({ err: error, event }, 'a domain event listener failed'),
  );
  services.faults.attach(metrics.counter(FAULTS_COUNTER), fastify.log);
  fastify.addHook('onClose', () => services.counters.close());
  fastify.addHook('onClose', async () => services.hashPool.stop());
  const stopPruning = startLogPruning(services.listChanges, (error) =>
    fastify.log.warn({ err: error }, 'pruning the lists change log failed'),
  );
  fastify.addHook('onClose', async () => stopPruning());
  const stopSessionSweep = startSessionSweep(services.sessions, (error) =>
    fastify.log.warn({ err: error }, 'sweeping the ended sessions failed'),
  );
  fastify.addHook('onClose', () => stopSessionSweep());

  const push = await createPush(services, metrics, (error, what) => fastify.log.warn({ err: error }, `${what} failed`));
  fastify.addHook('onClose', async () => push.close());

  // First: it sets the hook that audits the administrators' calls declared by the routes below.
  auditRoutes(fastify, services);
  userRoutes(fastify, services);
  accountSecurityRoutes(fastify, services);
  oidcRoutes(fastify, services);
  secondFactorRoutes(fastify, services);
  channelRoutes(fastify, services);
  activityRoutes(fastify, services);
  messageRoutes(fastify, services);
  legacyRoutes(fastify, services);
  identityRoutes(fastify, services);
  clientConfigRoutes(fastify, services, push);
  pushRoutes(fastify, services, push);
  dashboardRoutes(fastify, services);
  voiceRoutes(fastify, services);
  missedRoutes(fastify, services);
  scanRoutes(fastify, services);
  emergencyRoutes(fastify, services);
  positionRoutes(fastify, services);
  geofenceRoutes(fastify, services);
  dispatchRoutes(fastify, services);
  statusRoutes(fastify, services);
  reportRoutes(fastify, services);
  dispatchQueueRoutes(fastify, services);
  callRoutes(fastify, services);
  aliasRoutes(fastify, services);
  services.aliasLabels.start();
  fastify.addHook('onClose', async () => services.aliasLabels.stop());
  gatewayRoutes(fastify, services);
  areaRoutes(fastify, services);
  const queueSweep = dispatchQueueSweep({
    store: services.dispatchRequests,
    queue: services.dispatchQueue,
    access: services.access,
    users: services.users,
    limits: config.dispatch,
    onError: (error, what) => fastify.log.warn({ err: error }, `${what} failed`),
  });
  queueSweep.start();
  // A member taken out of a channel leaves its requests there at once, not at the next sweep.
  const stopQueueFollow = services.events.on('membershipChanged', () => void queueSweep.sweepNow());
  fastify.addHook('onClose', async () => {
    stopQueueFollow();
    await queueSweep.stop();
  });
  // Area channels' exits (issue 59): outside or silent long enough, on whichever instance looks first.
  services.areaChannels.start();
  fastify.addHook('onClose', () => services.areaChannels.stop());
  // Issue 59: regroups, their end when their minutes run out, and the channel each member's /talk is on.
  regroupRoutes(fastify, services);
  const regroupEnds = deadlineSweep(services.regroups.deadlines, (error, what) =>
    fastify.log.warn({ err: error }, `${what} failed`),
  );
  regroupEnds.start();
  // A regroup made here: its deadline's timer is set at once.
  const stopRegroupFollow = services.events.on('regroupsChanged', () => void regroupEnds.sweepNow());
  fastify.addHook('onClose', async () => {
    stopRegroupFollow();
    await regroupEnds.stop();
  });
  // Issue 60: the safety settings, and lone workers' check-ins with their deadlines.
  safetyRoutes(fastify, services);
  // The most people connected at once, per minute (issue 50's reports).
  const samples = presenceSamples({
    db: services.db,
    events: services.events,
    onError: (error, what) => fastify.log.warn({ err: error }, `${what} failed`),
  });
  samples.start();
  fastify.addHook('onClose', () => samples.stop());
  // Socket.IO shares the HTTP server (same port); it closes before Fastify does (a preClose hook).
  const realtime = await attachRealtime(fastify, services);
  metrics.attachSockets(realtime.io);
  metrics.attachMedia(realtime.mediaHealth);
  specHttpCalls(fastify, services, realtime);
  // Patching is the media planes' (real time's) work: the routes get them as a PatchPlane.
  patchRoutes(fastify, services, realtime.media);
  // Issue 60: a member's device status, asked of its open pages, and a device disabled: they reach sockets.
  deviceRoutes(fastify, services, realtime);
  ambientRoutes(fastify, services, realtime);
  // Issue 61: live video (its streams are real time's) and its recordings.
  videoRoutes(fastify, services, { io: realtime.io, videos: realtime.videos, videoRequests: realtime.videos.requests });
  videoRecordingRoutes(fastify, { ...services, live: realtime.videos });
  // SIP gateways (issue 51): radios and desk phones dial the channels, when SIP_PORT is set. Its calls end
  // (a BYE each) before real time closes.
  const sip = config.sip
    ? await startSip({ config: config.sip, instanceId: config.instanceId, services, realtime, log: fastify.log })
    : undefined;
  if (sip) fastify.addHook('preClose', () => sip.stop());
  // SIP_PORT=0 (tests) picks a free port: the configuration says which one (the client config shows it).
  if (sip && config.sip) config.sip.port = sip.port;
  healthRoutes(fastify, database, {
    redisState: realtime.redisState,
    mediaHealth: realtime.mediaHealth,
    turnHealth: turnProbe(config.turnUrls),
    metricsToken: config.metricsToken,
  });

  const webDir = config.webDir;
  if (webDir && existsSync(path.join(webDir, 'index.html'))) {
    await fastify.register(fastifyStatic, {
      root: webDir,
      prefix: '/',
      wildcard: false,
      index: ['index.html'],
      // The build writes .br and .gz beside each asset (packages/web/build/precompress.ts).
      preCompressed: true,
      // Built assets have content hashes in their names: cache them for good; always revalidate the page.
      setHeaders(reply, filePath) {
        reply.header(
          'cache-control',
          filePath.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
    // http/errors.ts owns the (JSON) not-found handler: the single-page app's fallback is a catch-all GET.
    fastify.get('/*', (request, reply) => {
      const pathname = request.url.split('?')[0];
      // A missing file (an asset of an older build) is a 404, not the page: a script must never get HTML.
      // Only a built asset or a top-level file counts: a room path may end like a file (/groupCallView/Team1.5).
      if (NOT_SPA.test(request.url) || /^\/(assets\/.+|[^/]+)\.[a-z0-9]+$/i.test(pathname)) {
        return reply.status(404).send({ success: false, result: `No such call: GET ${pathname}` });
      }
      return reply.sendFile('index.html');
    });
  }

  return {
    fastify,
    services,
    metrics,
    push,
    media: realtime.media,
    io: realtime.io,
    videos: realtime.videos,
    sip,
    async close() {
      await fastify.close();
      await database.close();
    },
  };
}
