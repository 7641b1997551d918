/**
 * A private call's room follows its call (issue 27): once the call is over (declined, missed, cancelled, hung
 * up), its parties' sockets leave its hidden channel, on every instance; a party whose page is gone from an
 * answered call's room and does not come back within the grace period ends the call.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { PrivateCalls } from '../calls/private-calls.ts';
import type { EventBus } from '../events.ts';
import { leaveChannel } from './concerns/rooms.ts';
import type { LocalSocket } from './context.ts';
import type { Io } from './io.ts';
import { participationIn } from './participations.ts';

/** What this part uses of the services (app.ts hands them over). */
export interface PrivateCallRoomServices {
  events: EventBus;
  privateCalls: PrivateCalls;
}

export function privateCallRooms(
  io: Io,
  deps: {
    services: PrivateCallRoomServices;
    local: Map<string, LocalSocket>;
    log: FastifyBaseLogger;
    shared: boolean;
    graceMs: number;
  },
) {
  const { services, local, log } = deps;
  const timers = new Set<NodeJS.Timeout>();

  function evict(channelId: number): void {
    for (const { socket, scope } of local.values()) {
      if (socket.disconnected || !participationIn(socket.data, channelId)) continue;
      void scope.run('private_call', async () => {
        const at = participationIn(socket.data, channelId);
        if (at) await leaveChannel(socket, scope, at, 'evicted');
      });
    }
  }

  io.on('privateCallOver', evict);
  const off = services.events.on('privateCallChanged', ({ call }) => {
    if (call.state === 'ringing' || call.state === 'active') return;
    evict(call.channelId);
    // The in-memory adapter has no other instance to tell.
    if (deps.shared) io.serverSideEmit('privateCallOver', call.channelId);
  });

  return {
    /** A party's socket left an answered call's room without a goodbye (or was closed). */
    left(userId: number, channelId: number): void {
      const timer = setTimeout(() => {
        timers.delete(timer);
        services.privateCalls
          .abandoned(userId, channelId)
          .catch((error) => log.error({ err: error, channelId }, 'could not end an abandoned private call'));
      }, deps.graceMs);
      timer.unref();
      timers.add(timer);
    },
    stop(): void {
      off();
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  };
}
