/**
 * The floor queue (issue 59): a press on a busy floor waits, by talk priority then time, until it is offered
 * the floor, cancelled (floor_cancel, leaving the channel), removed by a dispatcher, or expired
 * (FLOOR_QUEUE_SECONDS). When the floor frees, the first is offered it (`floor_granted`, reason `queue`): its
 * press within `acceptMs` confirms it (holders.ts), else `floor_revoked` `not_taken` and the next is offered.
 *
 * The store (queue-store.ts) decides each change once across instances; the instance that made a change pushes
 * it. Deadlines live in the store: the instance that made an offer steps the channel at its deadline, and each
 * instance steps every queued channel now and then (a press's expiry, an instance gone with its timers).
 */
import { randomUUID } from 'node:crypto';
import type { FloorAnswer, FloorRevokeReason } from '@talkgroup/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { QueueTimings } from '../config/floor-queue.ts';
import type { FloorClaim } from './policy.ts';
import type { FloorQueueStore, QueueChange, QueuedPress } from './queue-store.ts';

export type { QueueTimings };

/** How the queue's changes reach the pages (realtime/floor-signals.ts). */
export interface QueueSignals {
  /** The room's pages learn the queue now (floor_queue). */
  queue(room: string, queue: QueuedPress[]): void;
  /** A queued socket learns its place (floor_queue_position; 0: it is no longer queued). */
  position(channelId: number, socketId: string, room: string, position: number): void;
  /**
   * The first of the queue is offered the free floor (floor_granted, reason queue) until `until` (ISO time, issue
   * 70: the page counts down the seconds left).
   */
  offered(channelId: number, socketId: string, room: string, grantId: string, acceptMs: number, until: string): void;
  revoked(channelId: number, socketId: string, room: string, reason: FloorRevokeReason): void;
}

export interface FloorQueue {
  /** Queues a refused press behind `holder`; the press's answer. */
  join(
    talker: Pick<FloorClaim, 'socketId' | 'userId' | 'name' | 'role' | 'priority'>,
    room: string,
    channelId: number,
    holder: FloorClaim,
  ): Promise<FloorAnswer>;
  /** A socket leaves the queue (or declines its offer); whether it was there. */
  cancel(socketId: string, room: string, channelId: number): Promise<boolean>;
  /** A dispatcher takes a user out of the queue; whether it was there. */
  remove(userId: number, room: string, channelId: number): Promise<boolean>;
  /** Who waits in the channel's queue now, first first. */
  waiting(channelId: number): Promise<QueuedPress[]>;
  /** Applies what is due (an offer's deadline, expired presses) and offers a free floor to the first. */
  advance(channelId: number, room: string): Promise<void>;
  stop(): void;
}

const sameQueue = (a: QueuedPress[], b: QueuedPress[]) =>
  a.length === b.length && a.every((entry, i) => entry.socketId === b[i].socketId);

export function floorQueue(deps: {
  store: FloorQueueStore;
  signals: QueueSignals;
  timings: QueueTimings;
  log: FastifyBaseLogger;
}): FloorQueue {
  const { store, signals, timings, log } = deps;
  const offerTimers = new Map<number, NodeJS.Timeout>();

  /** Pushes a change: the queue to the room, each moved socket its place (not `quiet`, who has its answer). */
  function publish(channelId: number, room: string, change: QueueChange, quiet?: string, offered?: string): void {
    const { before, after } = change;
    if (!sameQueue(before, after)) signals.queue(room, after);
    after.forEach((entry, i) => {
      if (entry.socketId !== quiet && before.findIndex((e) => e.socketId === entry.socketId) !== i)
        signals.position(channelId, entry.socketId, room, i + 1);
    });
    for (const entry of before)
      if (entry.socketId !== offered && !after.some((e) => e.socketId === entry.socketId))
        signals.position(channelId, entry.socketId, room, 0);
  }

  const failed = (channelId: number) => (error: unknown) =>
    log.error({ err: error, channelId }, 'the floor queue could not move on');

  const queue: FloorQueue = {
    async join(talker, room, channelId, holder) {
      const now = Date.now();
      const { socketId, userId, name, role, priority } = talker;
      const press: QueuedPress = {
        socketId,
        userId,
        name,
        role,
        priority,
        since: new Date(now).toISOString(),
        at: now,
        expiresAt: now + timings.queueMs,
      };
      const change = await store.join(channelId, room, press);
      publish(channelId, room, change, socketId);
      // The floor may have freed between the refusal and the join: after the answer, the first may be offered it.
      setImmediate(() => void queue.advance(channelId, room).catch(failed(channelId)));
      return {
        granted: false,
        queued: true,
        position: change.position,
        holder: { userId: holder.userId, name: holder.name },
      };
    },

    async cancel(socketId, room, channelId) {
      const change = await store.leave(channelId, { socketId });
      publish(channelId, room, change, socketId);
      if (change.declined) await queue.advance(channelId, room);
      return change.declined !== undefined || change.before.length !== change.after.length;
    },

    async remove(userId, room, channelId) {
      const change = await store.leave(channelId, { userId });
      publish(channelId, room, change);
      if (change.declined) {
        signals.revoked(channelId, change.declined.socketId, room, 'revoked');
        await queue.advance(channelId, room);
      }
      return change.declined !== undefined || change.before.length !== change.after.length;
    },

    waiting: (channelId) => store.waiting(channelId),

    async advance(channelId, room) {
      const step = await store.step(channelId, room, { grantId: randomUUID(), acceptMs: timings.acceptMs });
      if (step.notTaken) signals.revoked(channelId, step.notTaken.socketId, room, 'not_taken');
      publish(channelId, room, step, undefined, step.offered?.socketId);
      const offer = step.offered;
      if (!offer) return;
      const until = new Date(offer.deadline ?? Date.now() + timings.acceptMs).toISOString();
      signals.offered(channelId, offer.socketId, room, offer.grantId as string, timings.acceptMs, until);
      clearTimeout(offerTimers.get(channelId));
      const timer = setTimeout(() => {
        offerTimers.delete(channelId);
        void queue.advance(channelId, room).catch(failed(channelId));
      }, timings.acceptMs + 20);
      timer.unref();
      offerTimers.set(channelId, timer);
    },

    stop() {
      clearInterval(sweep);
      for (const timer of offerTimers.values()) clearTimeout(timer);
      offerTimers.clear();
    },
  };

  // Every instance steps the queued channels now and then: presses expire, and an offer whose instance is gone
  // still ends. Each step is decided once: only the instance whose step changed something pushes it.
  const sweepMs = Math.max(50, Math.min(1000, timings.queueMs / 4, timings.acceptMs / 2));
  let sweeping = false;
  const sweep = setInterval(() => {
    if (sweeping) return;
    sweeping = true;
    void (async () => {
      for (const { channelId, room } of await store.channels())
        await queue.advance(channelId, room).catch(failed(channelId));
    })()
      .catch((error) => log.error({ err: error }, 'the floor queue sweep failed'))
      .finally(() => {
        sweeping = false;
      });
  }, sweepMs);
  sweep.unref();
  return queue;
}
