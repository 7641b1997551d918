/**
 * The Janus instances of a deployment (JANUS_URL, a comma list): one connection to each, kept up for good, and
 * on each, once it answers, this server's session with a control handle per plugin (rooms and mountpoints
 * are made and destroyed through them). A Janus that goes down takes its session along; the next use after
 * it is back makes a new one.
 */
import type { FastifyBaseLogger } from 'fastify';
import { JanusConnection, type JanusHandle, JanusSession } from './connection.ts';

export const AUDIOBRIDGE = 'janus.plugin.audiobridge';
export const STREAMING = 'janus.plugin.streaming';
export const VIDEOROOM = 'janus.plugin.videoroom';

export interface BackendControl {
  session: JanusSession;
  audiobridge: JanusHandle;
  streaming: JanusHandle;
  videoroom: JanusHandle;
}

export interface JanusBackend {
  readonly url: string;
  readonly connection: JanusConnection;
  /** This server's session on it and its control handles (made on first use after each connection). */
  control(): Promise<BackendControl>;
  readonly up: boolean;
}

export interface BackendsOptions {
  urls: string[];
  apiSecret?: string;
  log: FastifyBaseLogger;
  onUp: (backend: JanusBackend) => void;
  onDown: (backend: JanusBackend) => void;
  fault?: (error: unknown) => void;
}

/** How long a starting server waits for its Janus instances before it answers joins (then: the mesh). */
const FIRST_CONNECTION_MS = 3_000;

export function janusBackends(options: BackendsOptions) {
  const { log } = options;
  let firstUp: () => void = () => {};
  const anyUp = new Promise<void>((resolve) => {
    firstUp = resolve;
  });
  const backends = options.urls.map((url) => {
    let control: Promise<BackendControl> | undefined;
    const backend: JanusBackend = {
      url,
      connection: new JanusConnection({
        url,
        apiSecret: options.apiSecret,
        log,
        fault: options.fault,
        onUp: () => {
          firstUp();
          options.onUp(backend);
        },
        onDown: () => {
          const lost = control;
          control = undefined;
          void lost?.then((made) => made.session.forget()).catch(() => {});
          options.onDown(backend);
        },
      }),
      get up() {
        return backend.connection.up;
      },
      async control() {
        control ??= (async () => {
          const session = await JanusSession.create(backend.connection);
          const [audiobridge, streaming, videoroom] = await Promise.all([
            session.attach(AUDIOBRIDGE),
            session.attach(STREAMING),
            session.attach(VIDEOROOM),
          ]);
          return { session, audiobridge, streaming, videoroom };
        })();
        const made = control;
        try {
          return await made;
        } catch (error) {
          if (control === made) control = undefined;
          throw error;
        }
      },
    };
    return backend;
  });
  for (const backend of backends) backend.connection.start();

  return {
    all: backends,
    byUrl: (url: string) => backends.find((backend) => backend.url === url),
    alive: () => backends.filter((backend) => backend.up),
    /**
     * Resolves once one Janus answers, or after a short while (a deployment whose Janus is down starts too). The
     * wait holds the process: a refused connection leaves nothing else running while the server starts (its
     * retries do not hold it), and the process would end there, silently and with status 0.
     */
    ready: async () => {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([anyUp, new Promise<void>((resolve) => (timer = setTimeout(resolve, FIRST_CONNECTION_MS)))]);
      clearTimeout(timer);
    },
    async stop() {
      await Promise.all(backends.map((backend) => backend.connection.stop()));
    },
  };
}

export type JanusBackends = ReturnType<typeof janusBackends>;

/** One media server as /healthz and /metrics show it. */
export interface MediaServerHealth {
  url: string;
  reachable: boolean;
  rooms: number;
  lastError: { message: string; at: string } | null;
}
