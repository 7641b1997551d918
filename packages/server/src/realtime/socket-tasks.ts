/**
 * A socket's events run one after the other (a leave never overtakes the join before it); a bad payload or
 * a refused action answers the client an `error` event and a failed acknowledgement, never a crash.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import { ChannelAccessError } from '../channels/access.ts';
import { describeZodError, HttpError } from '../http/errors.ts';
import { serverText } from '../http/messages.ts';
import { databaseUnreachable, diskFull } from '../http/outages.ts';
import type { Faults } from '../process/faults.ts';
import { SocketInputError } from '../sockets/errors.ts';
import { eventLimits } from './event-limits.ts';
import type { TalkSocket } from './io.ts';

export { SocketInputError };

type Ack = (result: { success: boolean; result?: string }) => void;

/**
 * A write that raced with the deletion of its channel or user (PostgreSQL 23503, SQLite "FOREIGN KEY
 * constraint failed"): not a server fault, the thing is simply gone.
 */
function isForeignKeyViolation(error: unknown): boolean {
  const e = error as { code?: unknown; errcode?: unknown; message?: unknown };
  return e?.code === '23503' || e?.errcode === 787 || String(e?.message).includes('FOREIGN KEY constraint failed');
}

export function parse<S extends z.ZodType>(schema: S, payload: unknown, event: string): z.output<S> {
  const result = schema.safeParse(payload ?? {});
  if (!result.success) throw new SocketInputError(`${event}: ${describeZodError(result.error)}`);
  return result.data;
}

/** The sentence the client gets, and whether the failure is the client's (not logged as a server fault). */
function describeFailure(event: string, error: unknown): { message: string; expected: boolean } {
  if (error instanceof SocketInputError) return { message: error.message, expected: true };
  if (error instanceof ChannelAccessError) return { message: error.forSocket(event), expected: true };
  // A limit of the call behind the event (too many chat messages): the client is told what the call said.
  if (error instanceof HttpError && error.statusCode < 500)
    return { message: `${event}: ${error.message}`, expected: true };
  if (isForeignKeyViolation(error))
    return { message: `${event}: this channel or user no longer exists.`, expected: true };
  // Not the client's fault, but no bug either: the client is told to try again, and the log says why once.
  if (databaseUnreachable(error)) return { message: `${event}: ${serverText('database_unavailable')}`, expected: true };
  if (diskFull(error)) return { message: `${event}: ${serverText('disk_full')}`, expected: false };
  return { message: `${event}: something went wrong on the server.`, expected: false };
}

export function socketTasks(
  socket: TalkSocket,
  log: FastifyBaseLogger,
  onIdleAfterDisconnect: () => void,
  faults?: Faults,
) {
  let queue: Promise<void> = Promise.resolve();
  const limits = eventLimits();
  const lastRefusal = new Map<string, number>();

  /**
   * Over its event kind's budget: refused without queueing; the ack says so every time, the `error` event
   * at most once a second per kind (a flood must not be answered by a flood).
   */
  function refuse(event: string, ack?: (outcome: { success: boolean; result?: string }) => void): void {
    const message = `${event}: too many events, slow down.`;
    ack?.({ success: false, result: message });
    const now = performance.now();
    if (socket.connected && now - (lastRefusal.get(event) ?? -Infinity) >= 1000) {
      lastRefusal.set(event, now);
      socket.emit('error', { message });
    }
  }

  /** The event failed: the client is told, and a fault of ours is counted and logged (process/faults.ts). */
  function failed(event: string, error: unknown, ack?: (outcome: { success: boolean; result?: string }) => void): void {
    const { message, expected } = describeFailure(event, error);
    if (!expected) {
      if (faults) faults.fault('socket_event', error, { event });
      else log.error({ err: error, event }, 'socket event failed');
    }
    try {
      if (socket.connected) socket.emit('error', { message });
      ack?.({ success: false, result: message });
    } catch (sendError) {
      faults?.fault('socket_event', sendError, { event });
    }
  }

  function run(event: string, task: () => Promise<void> | void, ack?: Ack): Promise<void> {
    const next = queue
      .then(task)
      .then(() => ack?.({ success: true }))
      .catch((error: unknown) => {
        failed(event, error, ack);
      })
      .finally(() => {
        // A disconnected socket is forgotten once its last task is done.
        if (socket.disconnected && queue === next) onIdleAfterDisconnect();
      });
    queue = next;
    return next;
  }

  function on(event: string, task: (payload: unknown) => Promise<void> | void): void {
    (socket.on as (event: string, listener: (...args: unknown[]) => void) => void)(event, (...args: unknown[]) => {
      const ack = typeof args[args.length - 1] === 'function' ? (args.pop() as Ack) : undefined;
      if (!limits.take(event)) return refuse(event, ack);
      void run(event, () => task(args[0]), ack);
    });
  }

  function answer<R>(event: string, task: (payload: unknown) => Promise<R>): void {
    (socket.on as (event: string, listener: (...args: unknown[]) => void) => void)(event, (...args: unknown[]) => {
      const ack = typeof args[args.length - 1] === 'function' ? (args.pop() as (answer: unknown) => void) : undefined;
      if (!limits.take(event)) return refuse(event, ack);
      let result: R;
      void run(
        event,
        async () => {
          result = await task(args[0]);
        },
        ack && ((outcome) => ack(outcome.success ? result : outcome)),
      );
    });
  }

  /**
   * Like `answer`, but the task runs as soon as the event arrives, beside the queue: for a decision made in
   * memory that must not wait behind earlier events' writes (a press asking for the floor). What it must
   * write afterwards goes in the queue with `run`.
   */
  function answerNow<R>(event: string, task: (payload: unknown) => Promise<R>): void {
    (socket.on as (event: string, listener: (...args: unknown[]) => void) => void)(event, (...args: unknown[]) => {
      const ack = typeof args[args.length - 1] === 'function' ? (args.pop() as (answer: unknown) => void) : undefined;
      if (!limits.take(event)) return refuse(event, ack);
      // Through a promise: a task that throws before its first await fails this event, not the connection.
      Promise.resolve(args[0])
        .then(task)
        .then(
          (result) => ack?.(result ?? { success: true }),
          (error: unknown) => failed(event, error, ack),
        );
    });
  }

  return { run, on, answer, answerNow, idle: () => queue };
}
