/**
 * baresip's ctrl_tcp module as the baresip harness (baresip.ts) drives it: netstring-framed JSON commands
 * ("{length}:{json},"), each answered by a response, and the events baresip sends on the same connection
 * (CALL_ESTABLISHED, CALL_CLOSED...). ctrl_tcp takes one connection at a time, and events go to that connection
 * only. Every wait here has a bound.
 */
import { type Socket, connect as tcpConnect } from 'node:net';

/** One ctrl_tcp event as baresip 1.0.0 sends it (event.c: event_encode_dict). */
export interface BaresipEvent {
  class: string;
  type: string;
  param?: string;
  accountaor?: string;
  direction?: 'incoming' | 'outgoing';
  peeruri?: string;
  id?: string;
  [key: string]: unknown;
}

/** ctrl_tcp's connection: netstring frames ("{length}:{json},") each way. */
export class ControlChannel {
  readonly events: BaresipEvent[] = [];
  private buffer = Buffer.alloc(0);
  private readonly responses: Array<(response: { ok: boolean; data: string }) => void> = [];
  private readonly waiters = new Set<() => void>();
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;
  private readonly socket: Socket;
  private readonly fail: (what: string) => Error;

  private constructor(socket: Socket, fail: (what: string) => Error) {
    this.socket = socket;
    this.fail = fail;
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
    socket.on('close', () => {
      this.closed = true;
      for (const waiter of [...this.waiters]) waiter();
    });
    socket.on('error', () => {});
  }

  static async open(host: string, port: number, timeoutMs: number, fail: (what: string) => Error) {
    const socket = await bounded(
      new Promise<Socket>((resolve, reject) => {
        const socket = tcpConnect({ host, port }, () => resolve(socket));
        socket.once('error', reject);
      }),
      timeoutMs,
      () => fail(`ctrl_tcp did not accept a connection on ${host}:${port}`),
    );
    return new ControlChannel(socket, fail);
  }

  /**
   * One command at a time, each after the previous one's response: responses come in order but carry no token
   * unless given one, and baresip 1.0.0's netstring reader (tcp_netstring.c) bounds a second frame of the same
   * TCP read by the whole buffer's length rather than what is left of it, so two frames never share a write.
   */
  command(command: string, params: string | undefined, timeoutMs: number): Promise<string> {
    const run = async () => {
      if (this.closed) throw this.fail(`ctrl_tcp closed before "${command}"`);
      const json = JSON.stringify(params === undefined ? { command } : { command, params });
      const response = new Promise<{ ok: boolean; data: string }>((resolve) => this.responses.push(resolve));
      this.socket.write(`${Buffer.byteLength(json)}:${json},`);
      const { ok, data } = await bounded(response, timeoutMs, () => this.fail(`no response to "${command}"`));
      if (!ok) throw this.fail(`"${command} ${params ?? ''}" failed: ${data}`);
      return data;
    };
    const result = this.queue.then(run, run);
    this.queue = result.catch(() => {});
    return result;
  }

  /** `type` may name several types with "|"; the first matching event at or after `since` resolves. */
  waitFor(
    type: string,
    match: ((event: BaresipEvent) => boolean) | undefined,
    since: number | undefined,
    timeoutMs: number,
  ): Promise<BaresipEvent> {
    const types = type.split('|');
    const start = since ?? this.events.length;
    const found = () =>
      this.events.slice(start).find((event) => types.includes(event.type) && (match?.(event) ?? true));
    return bounded(
      new Promise<BaresipEvent>((resolve, reject) => {
        const check = () => {
          const event = found();
          if (event) {
            this.waiters.delete(check);
            resolve(event);
          } else if (this.closed) {
            this.waiters.delete(check);
            reject(this.fail(`ctrl_tcp closed while waiting for ${type}`));
          }
        };
        this.waiters.add(check);
        check();
      }),
      timeoutMs,
      () =>
        this.fail(
          `no ${type} within ${timeoutMs} ms; events: ${this.events.map((event) => `${event.type}(${event.param ?? ''})`).join(', ')}`,
        ),
    );
  }

  close() {
    this.socket.destroy();
  }

  private receive(chunk: Buffer) {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const colon = this.buffer.indexOf(':');
      if (colon < 0) return;
      const length = Number(this.buffer.toString('ascii', 0, colon));
      if (this.buffer.length < colon + 1 + length + 1) return;
      const message = JSON.parse(this.buffer.toString('utf8', colon + 1, colon + 1 + length));
      this.buffer = this.buffer.subarray(colon + 1 + length + 1);
      if (message.response) {
        this.responses.shift()?.({ ok: message.ok === true, data: String(message.data ?? '') });
      } else if (message.event) {
        this.events.push(message as BaresipEvent);
        for (const waiter of [...this.waiters]) waiter();
      }
    }
  }
}

/** Rejects with `error()` when `promise` has not settled within `ms`. */
export function bounded<T>(promise: Promise<T>, ms: number, error: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(error()), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Resolves once `condition` holds, checked every 50 ms (a file being written has no event to wait on), and
 * rejects with `error()` once `ms` have passed without it.
 */
export async function until(condition: () => Promise<boolean>, ms: number, error: () => Error): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw error();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
