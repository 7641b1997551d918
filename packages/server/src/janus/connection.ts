/**
 * One WebSocket to a Janus instance's API (`janus-protocol`; Node's own WebSocket), with the sessions and
 * plugin handles on it. Every request carries a transaction and, with JANUS_API_SECRET, the secret; a request
 * resolves with Janus's answer (for a plugin's asynchronous request, the event that follows its `ack`) and
 * rejects on an error, a timeout or a lost connection. Events Janus sends on its own (a participant's
 * PeerConnection up or down, a room's notifications) go to the listener of their handle.
 *
 * The connection never gives up: it reconnects with back-off, and says when it is up (a fresh Janus: every
 * session, handle and room of the old one is gone) and down. A Janus that dies closes the WebSocket at once;
 * one that hangs (stopped, overloaded, a dead link without a reset) is caught by a ping every second that
 * must be answered within PING_TIMEOUT_MS, so that either is noticed within a few seconds. A connection that
 * never opens is tried again the same way, from the first attempt on: a server started while its Janus is
 * down uses it once it answers. Node's WebSocket says nothing of why a connection failed to open, so a plain
 * TCP connection to the same address says it (refused, no such host, or a handshake Janus did not accept).
 */
import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';

export interface JanusMessage {
  janus: string;
  transaction?: string;
  session_id?: number;
  sender?: number;
  data?: { id?: number };
  error?: { code: number; reason: string };
  plugindata?: { plugin: string; data: Record<string, unknown> & { error_code?: number; error?: string } };
  jsep?: { type: 'offer' | 'answer'; sdp: string };
}

/** A plugin refused a request (AudioBridge's error_code: 485 no such room, 486 room exists, ...). */
export class JanusPluginError extends Error {
  readonly code: number;
  constructor(code: number, message: string) {
    super(message);
    this.code = code;
  }
}

/** Janus is not reachable now (down, restarting, or the request timed out). */
export class JanusUnavailableError extends Error {}

const REQUEST_TIMEOUT_MS = 10_000;
const RETRY_MIN_MS = 250;
const RETRY_MAX_MS = 3_000;
const PING_EVERY_MS = 1_000;
/** A ping unanswered this long: Janus is taken for dead (with PING_EVERY_MS, noticed within 3.5 s). */
const PING_TIMEOUT_MS = 2_500;
/** A WebSocket handshake that does not finish in this time (a hung Janus still accepts TCP connections). */
const OPEN_TIMEOUT_MS = 5_000;

const CONNECT_ERRORS: Record<string, string> = {
  ECONNREFUSED: 'connection refused: nothing listens on that port',
  ENOTFOUND: 'no such host name',
  EAI_AGAIN: 'the host name could not be resolved now',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
  ECONNRESET: 'the connection was reset',
  ETIMEDOUT: 'no answer to a connection',
};

/** Why a WebSocket to `url` did not open, as a TCP connection to its host and port tells it. */
export function whyNotOpened(url: string): Promise<string> {
  const target = new URL(url);
  const host = target.hostname.replace(/^\[|\]$/g, '');
  const port = Number(target.port) || (target.protocol === 'wss:' ? 443 : 80);
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.setTimeout(OPEN_TIMEOUT_MS, () => {
      socket.destroy();
      resolve(CONNECT_ERRORS.ETIMEDOUT as string);
    });
    socket.once('connect', () => {
      socket.destroy();
      resolve(
        target.protocol === 'wss:'
          ? 'the port answers but the secure WebSocket handshake failed (its certificate, or not Janus there)'
          : "the port answers but the WebSocket handshake failed (not Janus's WebSocket transport there)",
      );
    });
    socket.once('error', (error: NodeJS.ErrnoException) => {
      socket.destroy();
      resolve(CONNECT_ERRORS[error.code ?? ''] ?? error.code ?? error.message);
    });
  });
}

interface Pending {
  resolve: (message: JanusMessage) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
  /** Janus answers this request with an `ack` alone (a trickle, a keepalive). */
  ackAnswers: boolean;
}

export interface JanusConnectionOptions {
  url: string;
  apiSecret?: string;
  log: FastifyBaseLogger;
  /** Connected to a Janus that knows nothing of us yet (first time, or after a restart of either side). */
  onUp: () => void;
  /** The connection dropped: every session, handle and PeerConnection on it is gone. */
  onDown: () => void;
  /** An answer that could not be handled (not an object, or its handler threw): it is dropped, and said here. */
  fault?: (error: unknown) => void;
}

export class JanusConnection {
  private socket: WebSocket | null = null;
  private readonly pending = new Map<string, Pending>();
  private readonly handleListeners = new Map<number, (message: JanusMessage) => void>();
  private retries = 0;
  private retryTimer: NodeJS.Timeout | undefined;
  private pingTimer: NodeJS.Timeout | undefined;
  private openTimer: NodeJS.Timeout | undefined;
  /** The current socket opened (a drop before that is a failed attempt, told apart by whyNotOpened). */
  private opened = false;
  private stopped = false;
  up = false;
  /** Why the connection last failed or dropped, and when (ISO): /readyz names it. Null until one failed. */
  lastError: { message: string; at: string } | null = null;
  private readonly options: JanusConnectionOptions;

  constructor(options: JanusConnectionOptions) {
    this.options = options;
  }

  start(): void {
    if (this.stopped || this.socket) return;
    let socket: WebSocket;
    try {
      socket = new WebSocket(this.options.url, 'janus-protocol');
    } catch (error) {
      this.options.log.warn({ err: error, url: this.options.url }, 'could not open the media server connection');
      this.lastError = {
        message: error instanceof Error ? error.message : String(error),
        at: new Date().toISOString(),
      };
      this.scheduleRetry();
      return;
    }
    this.socket = socket;
    this.opened = false;
    this.openTimer = setTimeout(() => this.drop(socket, 'no answer to the connection'), OPEN_TIMEOUT_MS);
    this.openTimer.unref();
    socket.onopen = () => {
      clearTimeout(this.openTimer);
      this.opened = true;
      this.retries = 0;
      this.up = true;
      this.options.log.info({ url: this.options.url }, 'media server connected');
      this.pingTimer = setInterval(() => this.ping(socket), PING_EVERY_MS);
      this.pingTimer.unref();
      this.options.onUp();
    };
    socket.onmessage = (event) => this.received(String(event.data));
    socket.onclose = () => this.drop(socket, 'connection closed');
    socket.onerror = () => {
      // onclose follows and reconnects; the error itself says nothing more.
    };
  }

  private ping(socket: WebSocket): void {
    this.request({ janus: 'ping' }, PING_TIMEOUT_MS).catch(() => {
      if (this.socket === socket) this.drop(socket, 'no answer to a ping');
    });
  }

  /** The connection is gone (closed, or Janus stopped answering): everything on it fails, then a retry. */
  private drop(socket: WebSocket, why: string): void {
    if (this.socket !== socket) return;
    clearTimeout(this.openTimer);
    clearInterval(this.pingTimer);
    socket.onopen = null;
    socket.onmessage = null;
    socket.onclose = null;
    try {
      socket.close();
    } catch {
      // Closing a socket that never opened may throw; it is dropped either way.
    }
    const wasUp = this.up;
    const at = new Date().toISOString();
    if (this.opened || why !== 'connection closed') this.lastError = { message: why, at };
    else {
      // A failed attempt: the reason the last one found stays until this one's is known.
      this.lastError ??= { message: why, at };
      void whyNotOpened(this.options.url).then((reason) => {
        if (!this.up) this.lastError = { message: reason, at };
      });
    }
    this.socket = null;
    this.up = false;
    this.failAll(new JanusUnavailableError('The media server connection was lost.'));
    this.handleListeners.clear();
    if (wasUp) {
      this.options.log.warn({ url: this.options.url, why }, 'media server connection lost');
      this.options.onDown();
    }
    this.scheduleRetry();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    clearTimeout(this.openTimer);
    clearInterval(this.pingTimer);
    const socket = this.socket;
    this.socket = null;
    this.up = false;
    socket?.close();
    this.failAll(new JanusUnavailableError('The server is stopping.'));
  }

  private scheduleRetry(): void {
    if (this.stopped) return;
    const delay = Math.min(RETRY_MAX_MS, RETRY_MIN_MS * 2 ** this.retries++);
    this.retryTimer = setTimeout(() => this.start(), delay);
    this.retryTimer.unref();
  }

  private failAll(error: Error): void {
    for (const [transaction, pending] of this.pending) {
      clearTimeout(pending.timer);
      pending.reject(error);
      this.pending.delete(transaction);
    }
  }

  /** One message from Janus: whatever it holds, it ends at most its own request or event (issue 57). */
  private received(text: string): void {
    try {
      this.handle(text);
    } catch (error) {
      this.options.fault?.(error);
    }
  }

  private handle(text: string): void {
    const message = JSON.parse(text) as JanusMessage | null;
    if (typeof message !== 'object' || message === null || Array.isArray(message))
      throw new Error(`Janus sent something that is not a message: ${text.slice(0, 80)}`);
    const pending = message.transaction ? this.pending.get(message.transaction) : undefined;
    // An asynchronous plugin request is acknowledged first; its answer is the event that follows.
    if (message.janus === 'ack' && !pending?.ackAnswers) return;
    if (pending && message.transaction) {
      this.pending.delete(message.transaction);
      clearTimeout(pending.timer);
      if (message.janus === 'error')
        pending.reject(new JanusPluginError(message.error?.code ?? 0, message.error?.reason ?? 'Janus error'));
      else pending.resolve(message);
      return;
    }
    if (message.sender !== undefined) this.handleListeners.get(message.sender)?.(message);
  }

  /** Sends a request of the Janus API; resolves with its answer. */
  request(body: Record<string, unknown>, timeoutMs = REQUEST_TIMEOUT_MS): Promise<JanusMessage> {
    const ackAnswers = body.janus === 'trickle' || body.janus === 'keepalive';
    const socket = this.socket;
    if (!socket || !this.up || socket.readyState !== WebSocket.OPEN)
      return Promise.reject(new JanusUnavailableError('The media server is not reachable now.'));
    const transaction = randomBytes(9).toString('base64url');
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(transaction);
        reject(new JanusUnavailableError('The media server did not answer in time.'));
      }, timeoutMs);
      this.pending.set(transaction, { resolve, reject, timer, ackAnswers });
      const secret = this.options.apiSecret ? { apisecret: this.options.apiSecret } : {};
      socket.send(JSON.stringify({ ...body, ...secret, transaction }));
    });
  }

  /** Listens to what Janus sends on its own about a handle; returns the function that stops listening. */
  onHandle(handleId: number, listener: (message: JanusMessage) => void): () => void {
    this.handleListeners.set(handleId, listener);
    return () => {
      if (this.handleListeners.get(handleId) === listener) this.handleListeners.delete(handleId);
    };
  }
}

/** A session on a connection: kept alive while it lives, with its plugin handles. */
export class JanusSession {
  private keepalive: NodeJS.Timeout | undefined;
  readonly connection: JanusConnection;
  readonly id: number;

  private constructor(connection: JanusConnection, id: number) {
    this.connection = connection;
    this.id = id;
    // Janus ends a session idle for session_timeout (60 s by default).
    this.keepalive = setInterval(() => {
      connection.request({ janus: 'keepalive', session_id: id }).catch(() => {});
    }, 25_000);
    this.keepalive.unref();
  }

  static async create(connection: JanusConnection): Promise<JanusSession> {
    const created = await connection.request({ janus: 'create' });
    return new JanusSession(connection, Number(created.data?.id));
  }

  async attach(plugin: string): Promise<JanusHandle> {
    const attached = await this.connection.request({ janus: 'attach', session_id: this.id, plugin });
    return new JanusHandle(this, Number(attached.data?.id));
  }

  close(): void {
    clearInterval(this.keepalive);
    this.connection.request({ janus: 'destroy', session_id: this.id }).catch(() => {});
  }

  /** The session's keepalive stops (its connection dropped: Janus already forgot it). */
  forget(): void {
    clearInterval(this.keepalive);
  }
}

/** A handle on a plugin: its requests, and the SDP and candidates of its PeerConnection. */
export class JanusHandle {
  readonly session: JanusSession;
  readonly id: number;

  constructor(session: JanusSession, id: number) {
    this.session = session;
    this.id = id;
  }

  /**
   * A plugin request (synchronous or not); resolves with the plugin's data and, for a negotiation, Janus's
   * description. A plugin error rejects with JanusPluginError.
   */
  async message(
    body: Record<string, unknown>,
    jsep?: { type: string; sdp: string },
  ): Promise<{ data: Record<string, unknown>; jsep?: { type: 'offer' | 'answer'; sdp: string } }> {
    const answer = await this.session.connection.request({
      janus: 'message',
      session_id: this.session.id,
      handle_id: this.id,
      body,
      ...(jsep ? { jsep } : {}),
    });
    const data = answer.plugindata?.data ?? {};
    if (typeof data.error_code === 'number') throw new JanusPluginError(data.error_code, String(data.error ?? ''));
    return { data, jsep: answer.jsep };
  }

  /** Trickles a browser's candidate to Janus (null: gathering is complete). */
  async trickle(candidate: unknown): Promise<void> {
    await this.session.connection.request({
      janus: 'trickle',
      session_id: this.session.id,
      handle_id: this.id,
      candidate: candidate ?? { completed: true },
    });
  }

  onEvent(listener: (message: JanusMessage) => void): () => void {
    return this.session.connection.onHandle(this.id, listener);
  }

  async detach(): Promise<void> {
    await this.session.connection
      .request({ janus: 'detach', session_id: this.session.id, handle_id: this.id })
      .catch(() => {});
  }
}
