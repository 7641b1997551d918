/**
 * Presence pushes. They are gathered for STATUS_GATHER_MS and sent once per user, from the presence as it
 * is then: a member arriving connects and joins within a moment, and a crowd arriving at once (all phones
 * reconnecting after a restart) would otherwise push every change of every member to every member. The
 * gathering goes out as one `onUserStatusesChanged` per room; the spec's clients get it in their own shape
 * (legacy/client-kinds.ts: one event per user), through `alsoRender`.
 */
import type { UserStatus } from '@talkgroup/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { Services } from '../services.ts';
import type { RealtimeContext, StatusOptions } from './context.ts';
import { ADMINS_ROOM, channelRoom, supervisorRoom } from './room-names.ts';

/** A user's presence change and the rooms that hear about it. */
export interface GatheredStatus {
  status: UserStatus;
  targets: string[];
  cameOnline: boolean;
}

const STATUS_GATHER_MS = 150;

export function statusPublisher(
  services: Pick<Services, 'presence' | 'memberships' | 'channels'>,
  emitTo: RealtimeContext['emitTo'],
  log: FastifyBaseLogger,
  alsoRender: (gathered: GatheredStatus[]) => void = () => {},
) {
  let batch = new Map<number, { alsoRooms: Set<string>; cameOnline: boolean }>();
  let timer: NodeJS.Timeout | undefined;
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

  async function flush() {
    const gathered = batch;
    batch = new Map();
    timer = undefined;
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
        rendered.push({ status, targets, cameOnline: pending.cameOnline });
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
      const pending = batch.get(userId) ?? { alsoRooms: new Set<string>(), cameOnline: false };
      for (const room of options.alsoRooms ?? []) pending.alsoRooms.add(room);
      pending.cameOnline ||= options.cameOnline ?? false;
      batch.set(userId, pending);
      if (stopped) return;
      timer ??= setTimeout(() => {
        flushing = flush()
          .catch((error: unknown) => log.error({ err: error }, 'could not push presence changes'))
          .finally(() => {
            flushing = undefined;
          });
      }, STATUS_GATHER_MS);
    },
    /** Drops what is gathered and waits for a push being prepared, which then sends nothing (shutting down). */
    async stop(): Promise<void> {
      stopped = true;
      clearTimeout(timer);
      batch.clear();
      await flushing;
    },
  };
}
