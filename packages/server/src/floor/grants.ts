/**
 * Giving the floor and taking it back (issue 14): a take asks the holders (holders.ts, by policy.ts's rule:
 * one holder per channel, memory or an atomic Redis script across instances) and is pushed at once through the
 * socket layer's `signals` (floor_taken, floor_idle, floor_revoked); talk bursts and activities are written
 * after, by the callers. Each grant has an id that the answer carries. A holding ends when its holder
 * releases, leaves, disconnects or is preempted, and after FLOOR_MAX_SECONDS at the latest. A press refused on a
 * channel with a queue waits in it (queue.ts, issue 59); a freed floor is offered to the first there.
 */
import { randomUUID } from 'node:crypto';
import type { FloorAnswer, FloorRevokeReason, Role } from '@talkgroup/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { FloorClaim, FloorStore } from './holders.ts';
import { claimPriority } from './policy.ts';
import { type FloorQueue, floorQueue, type QueueSignals, type QueueTimings } from './queue.ts';
import type { FloorQueueStore } from './queue-store.ts';

/** Who presses: a socket's user (or, over HTTP, a user and the socket id that stands for it). */
export interface Talker {
  userId: number;
  name: string;
  role: Role;
  socketId: string;
  /**
   * Issue 59: the user's talk priority, 1 to 9 (its own, or its role's default: protocol's talkPriorityOf),
   * read where the socket's user is loaded; absent: the role's default.
   */
  talkPriority?: number;
}

/** How the floor's changes reach the channel's pages (the socket layer implements it: realtime/floor-signals.ts). */
export interface FloorSignals extends QueueSignals {
  /** The room's pages learn who talks now (floor_taken). */
  taken(room: string, claim: FloorClaim): void;
  /** The room's pages learn the floor is free (floor_idle). */
  idle(room: string): void;
  /** The holder's socket learns why the floor was taken back (floor_revoked); `by`: who broke in. */
  revoked(
    channelId: number,
    socketId: string,
    room: string,
    reason: FloorRevokeReason,
    by?: { userId: number; name: string },
  ): void;
}

export interface FloorOutcome {
  answer: FloorAnswer;
  /** The holding a higher priority took over. */
  preempted?: FloorClaim;
}

export interface TakeOptions {
  /** An emergency: top priority, for `holdMs` (issue 14: 10 s of open microphone). */
  emergency?: boolean;
  /** How long the holding may last; FLOOR_MAX_SECONDS when absent. */
  holdMs?: number;
  /** The grant's id (an all call's channels share one); a new one when absent. */
  grantId?: string;
  /** Issue 59: a refused press waits in the channel's queue (a socket's press on a channel with floorQueue). */
  queue?: boolean;
  /** Issue 59: false when the channel's preemption is `queue` (a higher priority does not break in). */
  interrupt?: boolean;
}

export interface Floor {
  take(holder: Talker, room: string, channelId: number, options?: TakeOptions): Promise<FloorOutcome>;
  /** Frees the floor if `socketId` holds it; `reason` tells the holder why (none when it let go itself). */
  free(socketId: string, room: string, channelId: number, reason?: FloorRevokeReason): Promise<FloorClaim | undefined>;
  /** Who holds the channel's floor now (across instances). */
  holder(channelId: number): Promise<FloorClaim | undefined>;
  /** Issue 59: the channel's floor queue (cancel, a dispatcher's removal). */
  queue: Pick<FloorQueue, 'cancel' | 'remove' | 'waiting'>;
  /**
   * Writes the holdings this instance granted into the store again, for what they have left (Redis restarted
   * empty): a holder keeps the floor, and a press meanwhile is refused as before. Returns how many.
   */
  restore(): Promise<number>;
  stop(): void;
}

export function floorControl(deps: {
  signals: FloorSignals;
  store: FloorStore;
  maxMs: number;
  log: FastifyBaseLogger;
  /** A holding that ran out: its holder's mic goes off (talk bursts, onMicStateChanged). */
  onTimeout: (claim: FloorClaim, channelId: number) => Promise<void>;
  /** Issue 59: where the queues are kept (beside `store`), and how long a press and an offer wait. */
  queue: { store: FloorQueueStore; timings: QueueTimings };
}): Floor {
  const { store, maxMs, signals, log } = deps;
  const queue = floorQueue({ store: deps.queue.store, signals, timings: deps.queue.timings, log });
  const moveOn = (channelId: number, room: string) =>
    void queue.advance(channelId, room).catch((error) => log.error({ err: error, channelId }, 'floor queue'));
  /** This instance's timers of the holdings it granted, with their claims and when they run out. */
  const timers = new Map<number, { socketId: string; timer: NodeJS.Timeout; claim: FloorClaim; endsAt: number }>();

  const disarm = (channelId: number, socketId?: string) => {
    const armed = timers.get(channelId);
    if (!armed || (socketId && armed.socketId !== socketId)) return;
    clearTimeout(armed.timer);
    timers.delete(channelId);
  };

  const floor: Floor = {
    async take(holder, room, channelId, options = {}) {
      const claim: FloorClaim = {
        socketId: holder.socketId,
        userId: holder.userId,
        name: holder.name,
        role: holder.role,
        priority: claimPriority(holder, options.emergency),
        since: new Date().toISOString(),
        grantId: options.grantId ?? randomUUID(),
      };
      const holdMs = options.holdMs ?? maxMs;
      // A little longer in the store than the timer: the timer frees it, the expiry only covers a lost instance.
      const interrupt = options.emergency === true || options.interrupt !== false;
      const decision = await store.take(channelId, claim, holdMs + 5000, interrupt);
      if (!decision.granted) {
        if (options.queue) return { answer: await queue.join(claim, room, channelId, decision.holder) };
        return { answer: { granted: false, holder: { userId: decision.holder.userId, name: decision.holder.name } } };
      }
      // An offer that ended (its deadline passed, or a higher priority broke in) was never talked on.
      const offer = decision.preempted?.offer ? decision.preempted : undefined;
      const preempted = offer ? undefined : decision.preempted;
      if (offer && offer.socketId !== claim.socketId) signals.revoked(channelId, offer.socketId, room, 'not_taken');
      if (preempted)
        signals.revoked(channelId, preempted.socketId, room, 'preempted', { userId: claim.userId, name: claim.name });
      const alreadyHeld = timers.get(channelId)?.socketId === claim.socketId;
      if (!alreadyHeld || options.holdMs !== undefined) {
        disarm(channelId);
        const timer = setTimeout(() => {
          void (async () => {
            const freed = await floor.free(claim.socketId, room, channelId, 'timeout');
            if (freed) await deps.onTimeout(freed, channelId);
          })().catch((error) => log.error({ err: error, channelId }, 'could not take the floor back'));
        }, holdMs);
        timer.unref();
        timers.set(channelId, { socketId: claim.socketId, timer, claim: decision.kept, endsAt: Date.now() + holdMs });
      }
      if (!alreadyHeld) signals.taken(room, decision.kept);
      // Its own socket's holding keeps its grant (and the talk burst that names it).
      const grantId = decision.kept.grantId ?? (claim.grantId as string);
      return { answer: { granted: true, grantId }, preempted };
    },

    async free(socketId, room, channelId, reason) {
      const freed = await store.release(channelId, socketId);
      if (!freed) return undefined;
      disarm(channelId, socketId);
      if (reason) signals.revoked(channelId, socketId, room, reason);
      signals.idle(room);
      moveOn(channelId, room);
      return freed;
    },

    holder: (channelId) => store.holder(channelId),
    queue,

    async restore() {
      let restored = 0;
      for (const [channelId, { claim, endsAt }] of timers) {
        const left = endsAt - Date.now();
        if (left <= 0) continue;
        const decision = await store.take(channelId, claim, left + 5000);
        if (decision.granted) restored += 1;
      }
      return restored;
    },

    stop() {
      for (const { timer } of timers.values()) clearTimeout(timer);
      timers.clear();
      queue.stop();
    },
  };
  return floor;
}
