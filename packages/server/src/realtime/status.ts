/**
 * Presence pushes. They are gathered for STATUS_GATHER_MS and sent once per user, from the presence as it
 * is then: a member arriving connects and joins within a moment, and a crowd arriving at once (all phones
 * reconnecting after a restart) would otherwise push every change of every member to every member.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Services } from '../services.ts';
import type { RealtimeContext, StatusOptions } from './context.ts';
import { ADMINS_ROOM, channelRoom } from './room-names.ts';

const STATUS_GATHER_MS = 150;

export function statusPublisher(
  services: Pick<Services, 'presence' | 'memberships' | 'channels'>,
  emitTo: RealtimeContext['emitTo'],
  log: FastifyBaseLogger,
) {
  let batch = new Map<number, { alsoRooms: Set<string>; cameOnline: boolean }>();
  let timer: NodeJS.Timeout | undefined;

  async function publishNow(userId: number, options: { alsoRooms: string[]; cameOnline: boolean }) {
    const status = await services.presence.status(userId);
    const rooms = new Set([
      ...(await services.memberships.roomsOfMember(userId)),
      ...(await services.channels.roomsOf(status.channelIds)),
      ...options.alsoRooms,
    ]);
    const targets = [ADMINS_ROOM, ...[...rooms].map(channelRoom)];
    emitTo(targets, 'onUserStatusChanged', status);
    if (options.cameOnline) emitTo(targets, 'userConnected', status);
  }

  async function flush() {
    const gathered = batch;
    batch = new Map();
    timer = undefined;
    for (const [userId, pending] of gathered) {
      try {
        await publishNow(userId, { alsoRooms: [...pending.alsoRooms], cameOnline: pending.cameOnline });
      } catch (error) {
        log.error({ err: error, userId }, 'could not push a presence change');
      }
    }
  }

  return {
    publish(userId: number, options: StatusOptions = {}): void {
      const pending = batch.get(userId) ?? { alsoRooms: new Set<string>(), cameOnline: false };
      for (const room of options.alsoRooms ?? []) pending.alsoRooms.add(room);
      pending.cameOnline ||= options.cameOnline ?? false;
      batch.set(userId, pending);
      timer ??= setTimeout(() => void flush(), STATUS_GATHER_MS);
    },
    /** Drops what is gathered (shutting down). */
    stop(): void {
      clearTimeout(timer);
      batch.clear();
    },
  };
}
