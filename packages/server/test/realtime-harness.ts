/**
 * Socket test helpers: a listening app (port 0), socket.io-client connections that record every event they
 * receive (so none is missed between an action and the wait for it), and a flush that proves the absence
 * of an event without waiting for a delay.
 */
import type { AddressInfo } from 'node:net';
import { io, type Socket } from 'socket.io-client';
import type { App } from '../src/app.ts';

export async function listen(app: App): Promise<string> {
  await app.fastify.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.fastify.server.address() as AddressInfo;
  return `http://127.0.0.1:${port}`;
}

export interface Received {
  event: string;
  payload: any;
}

/** A bound, not a timing check: generous, since CI machines run many things at once. */
const WAIT_MS = 15_000;

export class TestClient {
  readonly socket: Socket;
  readonly received: Received[] = [];
  private readonly taken = new Set<Received>();
  private readonly waiters: Array<() => void> = [];

  constructor(socket: Socket) {
    this.socket = socket;
    socket.onAny((event: string, payload: unknown) => {
      this.received.push({ event, payload });
      for (const wake of this.waiters.splice(0)) wake();
    });
    socket.on('disconnect', (reason) => {
      this.received.push({ event: 'disconnect', payload: reason });
      for (const wake of this.waiters.splice(0)) wake();
    });
  }

  get id(): string {
    return this.socket.id as string;
  }

  /** Events of this name received so far (taken or not). */
  all(event: string): any[] {
    return this.received.filter((r) => r.event === event).map((r) => r.payload);
  }

  /** The first not yet taken event of this name that matches; waits for it if it has not come yet. */
  async next(event: string, matches: (payload: any) => boolean = () => true): Promise<any> {
    const deadline = Date.now() + WAIT_MS;
    for (;;) {
      const found = this.received.find((r) => r.event === event && !this.taken.has(r) && matches(r.payload));
      if (found) {
        this.taken.add(found);
        return found.payload;
      }
      const left = deadline - Date.now();
      if (left <= 0) {
        const seen = this.received.map((r) => r.event).join(', ');
        throw new Error(`no "${event}" event came (received: ${seen || 'nothing'})`);
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Emits and waits for the server's acknowledgement (every event accepts one). */
  async emitAck(event: string, payload?: unknown): Promise<{ success: boolean; result?: string }> {
    return this.socket.timeout(WAIT_MS).emitWithAck(event, payload);
  }

  /**
   * Makes sure every event the server sent to this socket before now has arrived: the server answers an
   * acknowledged event on the same ordered connection, after what it queued for this socket earlier.
   * (typing that names a room this socket is not in is refused with an error and changes nothing.)
   */
  async flush(): Promise<void> {
    await this.emitAck('typing', { room: '\u0001flush' });
    const last = this.received.findLast((r) => r.event === 'error');
    if (last) this.taken.add(last);
  }

  close(): void {
    this.socket.disconnect();
  }
}

export interface ConnectOptions {
  /** Send the token in the handshake's auth object instead of the query. */
  viaAuth?: boolean;
  /** Connect as a client that wants one push per change (`pushes=once`: no spec twins). */
  pushesOnce?: boolean;
  /** Connect as the members' app, /talk (`auth.app: 'talk'`), which "the member's app is open" counts (issue 60). */
  talkPage?: boolean;
}

function open(url: string, token: string | undefined, options: ConnectOptions = {}): Socket {
  const credentials = token === undefined ? {} : options.viaAuth ? { auth: { token } } : { query: { token } };
  const pushes = options.pushesOnce ? { pushes: 'once' } : {};
  const query = { ...('query' in credentials ? credentials.query : {}), ...pushes };
  const auth = { ...('auth' in credentials ? credentials.auth : {}), ...(options.talkPage ? { app: 'talk' } : {}) };
  return io(url, { transports: ['websocket'], reconnection: false, forceNew: true, ...credentials, query, auth });
}

export async function connect(url: string, token: string, options: ConnectOptions = {}): Promise<TestClient> {
  const socket = open(url, token, options);
  const client = new TestClient(socket);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', (error) => reject(new Error(`connection refused: ${error.message}`)));
  });
  return client;
}

/** The message of the connect_error a refused handshake gives. */
export async function refusal(url: string, token: string | undefined): Promise<string> {
  const socket = open(url, token);
  try {
    return await new Promise<string>((resolve, reject) => {
      socket.once('connect', () => reject(new Error('the connection was accepted')));
      socket.once('connect_error', (error) => resolve(error.message));
    });
  } finally {
    socket.disconnect();
  }
}

/** The `{ code, message }` a refused handshake's connect_error carries (`headers`: e.g. Accept-Language). */
export async function refusalData(
  url: string,
  token: string | undefined,
  headers: Record<string, string> = {},
  transport: 'websocket' | 'polling' = 'websocket',
): Promise<{ code: string; message: string }> {
  const socket = io(url, {
    transports: [transport],
    reconnection: false,
    forceNew: true,
    extraHeaders: headers,
    ...(token === undefined ? {} : { query: { token } }),
  });
  try {
    return await new Promise((resolve, reject) => {
      socket.once('connect', () => reject(new Error('the connection was accepted')));
      socket.once('connect_error', (error) =>
        resolve((error as Error & { data: { code: string; message: string } }).data),
      );
    });
  } finally {
    socket.disconnect();
  }
}

/** Polls until the check returns a value (server work that follows a socket event is asynchronous). */
export async function eventually<T>(check: () => Promise<T | undefined | null | false>, what: string): Promise<T> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== null && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`never happened: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
