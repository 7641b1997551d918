/**
 * Presence pushes. They are gathered for STATUS_GATHER_MS and sent once per user, from the presence as it
 * is then: a member arriving connects and joins within a moment, and a crowd arriving at once (all phones
 * reconnecting after a restart) would otherwise push every change of every member to every member. A user's
 * arrival (its first socket) waits up to ARRIVAL_HOLD_MS for that socket's first join, so that coming online
 * and entering a room are one change, not two. The gathering goes out as one `onUserStatusesChanged` per room;
 * the spec's clients get it in their own shape (legacy/client-kinds.ts: one event per user), through
 * `alsoRender`, with the time of the change (`at`): sockets that arrived after it are not told (arrivals.ts).
 */
import { performance } from 'node:perf_hooks';
import type { UserStatus } from '@talkgroup/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { MembershipStore } from '../channels/membership.ts';
import type { ChannelStore } from '../channels/store.ts';
import type { PresenceStore } from '../presence/store.ts';
import { ADMINS_ROOM, channelRoom, supervisorRoom } from '../sockets/room-names.ts';
import type { RealtimeContext } from './context.ts';
import type { StatusOptions } from './io.ts';

/** What this part uses of the services (app.ts hands them over). */
export interface StatusServices {
  channels: ChannelStore;
  memberships: MembershipStore;
  presence: PresenceStore;
}

/** A user's presence change and the rooms that hear about it. */
export interface GatheredStatus {
  status: UserStatus;
  targets: string[];
  cameOnline: boolean;
  /** When the (last) change happened: performance.now(), as arrivals.ts keeps the sockets' arrivals. */
  at: number;
}

const STATUS_GATHER_MS = 150;
/** How long an arrival waits for its socket's first join_room before it is pushed alone. */
export const ARRIVAL_HOLD_MS = 2000;
/**
 * How long it waits at most once that join_room came in: until the join is answered (or refused: `settled`),
 * however busy the server; this bounds it should neither come.
 */
const JOIN_HOLD_MS = 30_000;

interface Pending {
  alsoRooms: Set<string>;
  cameOnline: boolean;
  at: number;
  /** An arrival alone waits until then for the socket's join. */
  heldUntil?: number;
}

export function statusPublisher(
  services: StatusServices,
  emitTo: RealtimeContext['emitTo'],
  log: FastifyBaseLogger,
  alsoRender: (gathered: GatheredStatus[]) => void = () => {},
) {
  let batch = new Map<number, Pending>();
  /** Users a socket of which asked to join a room before its arrival was published: when it asked. */
  const joinAsked = new Map<number, number>();
  let timer: NodeJS.Timeout | undefined;
  let dueAt = Number.POSITIVE_INFINITY;
  let flushing: Promise<void> | undefined;
  let stopped = false;

  /**
   * Where a user's status goes: administrators, the rooms of its channels (and those it is in or just left),
   * and the supervisors of its channels.
   */
  async function targetsOf(status: UserStatus, alsoRooms: string[]): Promise<string[]> {
    const channels = await services.memberships.channelsOfMember(status.userId);
    const rooms = new Set([
      ...channels.map((channel) => channel.rtcSession),
      ...(await services.channels.roomsOf(status.channelIds)),
      ...alsoRooms,
    ]);
    return [ADMINS_ROOM, ...[...rooms].map(channelRoom), ...channels.map((channel) => supervisorRoom(channel.id))];
  }

  /** Flushes at `at` at the latest. */
  function schedule(at: number): void {
    if (stopped || at >= dueAt) return;
    clearTimeout(timer);
    dueAt = at;
    timer = setTimeout(
      () => {
        flushing = flush()
          .catch((error: unknown) => log.error({ err: error }, 'could not push presence changes'))
          .finally(() => {
            flushing = undefined;
          });
      },
      Math.max(0, at - Date.now()),
    );
  }

  async function flush() {
    const gathered = batch;
    batch = new Map();
    timer = undefined;
    dueAt = Number.POSITIVE_INFINITY;
    // Arrivals still waiting for their join wait on, in the next batch.
    const now = Date.now();
    for (const [userId, pending] of gathered) {
      if (pending.heldUntil === undefined || pending.heldUntil <= now) continue;
      gathered.delete(userId);
      batch.set(userId, pending);
      schedule(pending.heldUntil);
    }
    // The clients that asked for one push per change get one onUserStatusesChanged per room and flush.
    const byRoom = new Map<string, { statuses: UserStatus[]; cameOnline: number[] }>();
    // The channels whose connected count may have changed: where the users are now, and the rooms they left.
    const channelIds = new Set<number>();
    const leftRooms = new Set<string>();
    const rendered: GatheredStatus[] = [];
    for (const [userId, pending] of gathered) {
      try {
        const status = await services.presence.status(userId);
        const targets = await targetsOf(status, [...pending.alsoRooms]);
        for (const id of status.channelIds) channelIds.add(id);
        for (const room of pending.alsoRooms) leftRooms.add(room);
        rendered.push({ status, targets, cameOnline: pending.cameOnline, at: pending.at });
        for (const room of targets) {
          const gatheredHere = byRoom.get(room) ?? { statuses: [], cameOnline: [] };
          gatheredHere.statuses.push(status);
          if (pending.cameOnline) gatheredHere.cameOnline.push(userId);
          byRoom.set(room, gatheredHere);
        }
      } catch (error) {
        log.error({ err: error, userId }, 'could not push a presence change');
      }
    }
    // Shutting down while the presence was read: the adapter's Redis clients may be closed already.
    if (stopped) return;
    alsoRender(rendered);
    if (byRoom.size === 0) return;
    // With the channels' connected counts as they are now: a console patches its channel list with them
    // instead of fetching it again.
    let connected: Array<{ channelId: number; connected: number }> = [];
    try {
      connected = await services.presence.connectedCounts([...channelIds], [...leftRooms]);
    } catch (error) {
      log.error({ err: error }, 'could not count the connected members of channels');
    }
    if (stopped) return;
    for (const [room, payload] of byRoom) emitTo([room], 'onUserStatusesChanged', { ...payload, connected });
  }

  return {
    publish(userId: number, options: StatusOptions = {}): void {
      const now = Date.now();
      const earlier = batch.get(userId);
      const pending: Pending = earlier ?? { alsoRooms: new Set<string>(), cameOnline: false, at: 0 };
      for (const room of options.alsoRooms ?? []) pending.alsoRooms.add(room);
      pending.cameOnline ||= options.cameOnline ?? false;
      pending.at = performance.now();
      // An arrival alone waits for its join; anything else (the join itself) goes with the next flush.
      if (options.arriving && (!earlier || earlier.heldUntil !== undefined)) {
        const asked = joinAsked.get(userId);
        pending.heldUntil =
          asked !== undefined && now - asked < JOIN_HOLD_MS ? asked + JOIN_HOLD_MS : now + ARRIVAL_HOLD_MS;
      } else pending.heldUntil = undefined;
      joinAsked.delete(userId);
      batch.set(userId, pending);
      schedule(pending.heldUntil ?? now + STATUS_GATHER_MS);
    },
    /** A new socket of the user asked to join a room: its arrival waits for that join (up to JOIN_HOLD_MS). */
    joinAsked(userId: number): void {
      const now = Date.now();
      const pending = batch.get(userId);
      if (pending?.heldUntil !== undefined) pending.heldUntil = Math.max(pending.heldUntil, now + JOIN_HOLD_MS);
      else if (!pending) joinAsked.set(userId, now);
      // Asked long ago and never published (the socket went): forgotten.
      for (const [user, at] of joinAsked) if (now - at >= JOIN_HOLD_MS) joinAsked.delete(user);
    },
    /** The user's join was answered or refused: an arrival waiting for it waits no more. */
    settled(userId: number): void {
      joinAsked.delete(userId);
      const pending = batch.get(userId);
      if (pending?.heldUntil === undefined) return;
      pending.heldUntil = undefined;
      schedule(Date.now() + STATUS_GATHER_MS);
    },
    /** Drops what is gathered and waits for a push being prepared, which then sends nothing (shutting down). */
    async stop(): Promise<void> {
      stopped = true;
      clearTimeout(timer);
      dueAt = Number.NEGATIVE_INFINITY;
      batch.clear();
      await flushing;
    },
  };
}
