/**
 * Floor control: one talker per channel (issue 14). The decision comes from the floor store (memory, or an
 * atomic Redis script across instances) and is pushed at once (floor_taken, floor_idle, floor_revoked);
 * talk bursts and activities are written after, by the callers. A holding ends when its holder releases,
 * leaves, disconnects or is preempted (a dispatcher breaks in on a member, an administrator on both, an emergency
 * on anyone), and after FLOOR_MAX_SECONDS at the latest.
 */
import {
  EMERGENCY_FLOOR_PRIORITY,
  type FloorAnswer,
  type FloorRevokeReason,
  floorPriorityOf,
} from '@talkgroup/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { FloorClaim, FloorStore } from '../floor/store.ts';
import type { EmitTo, SocketData } from './io.ts';
import { channelRoom, peerRoom } from './room-names.ts';

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
}

export interface Floor {
  take(
    holder: Pick<SocketData, 'userId' | 'name' | 'role'> & { socketId: string },
    room: string,
    channelId: number,
    options?: TakeOptions,
  ): Promise<FloorOutcome>;
  /** Frees the floor if `socketId` holds it; `reason` tells the holder why (none when it let go itself). */
  free(socketId: string, room: string, channelId: number, reason?: FloorRevokeReason): Promise<FloorClaim | undefined>;
  /** Who holds the channel's floor now (across instances). */
  holder(channelId: number): Promise<FloorClaim | undefined>;
  /**
   * Writes the holdings this instance granted into the store again, for what they have left (Redis restarted
   * empty): a holder keeps the floor, and a press meanwhile is refused as before. Returns how many.
   */
  restore(): Promise<number>;
  stop(): void;
}

export function floorControl(deps: {
  emitTo: EmitTo;
  store: FloorStore;
  maxMs: number;
  log: FastifyBaseLogger;
  /** A holding that ran out: its holder's mic goes off (talk bursts, onMicStateChanged). */
  onTimeout: (claim: FloorClaim, channelId: number) => Promise<void>;
}): Floor {
  const { store, maxMs, emitTo, log } = deps;
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
      const priority = options.emergency ? EMERGENCY_FLOOR_PRIORITY : floorPriorityOf(holder.role);
      const claim: FloorClaim = {
        socketId: holder.socketId,
        userId: holder.userId,
        name: holder.name,
        role: holder.role,
        priority,
        since: new Date().toISOString(),
      };
      const holdMs = options.holdMs ?? maxMs;
      // A little longer in the store than the timer: the timer frees it, the expiry only covers a lost instance.
      const decision = await store.take(channelId, claim, holdMs + 5000);
      if (!decision.granted) {
        return { answer: { granted: false, holder: { userId: decision.holder.userId, name: decision.holder.name } } };
      }
      if (decision.preempted) {
        emitTo([peerRoom(channelId, decision.preempted.socketId)], 'floor_revoked', { room, reason: 'preempted' });
      }
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
        timers.set(channelId, { socketId: claim.socketId, timer, claim, endsAt: Date.now() + holdMs });
      }
      if (!alreadyHeld) {
        emitTo([channelRoom(room)], 'floor_taken', {
          room,
          userId: claim.userId,
          name: claim.name,
          since: claim.since,
        });
      }
      return { answer: { granted: true }, preempted: decision.preempted };
    },

    async free(socketId, room, channelId, reason) {
      const freed = await store.release(channelId, socketId);
      if (!freed) return undefined;
      disarm(channelId, socketId);
      if (reason) emitTo([peerRoom(channelId, socketId)], 'floor_revoked', { room, reason });
      emitTo([channelRoom(room)], 'floor_idle', { room });
      return freed;
    },

    holder: (channelId) => store.holder(channelId),

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
    },
  };
  return floor;
}
