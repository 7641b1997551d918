/**
 * The spec's twins, in one place. The spec's clients listen to twin events (`messageResponse` beside
 * `onSendMessage` for a chat message, `usersInThisRoom` beside `all_users` for the peers of a room) and to one
 * presence event per user (`onUserStatusChanged`, `userConnected`). The core emits only its own events
 * (`onSendMessage`, `all_users`, the gathered `onUserStatusesChanged`); this adapter adds the twins for the
 * spec's clients. A client that connects with `pushes=once` in its handshake query (or `auth`) gets each
 * change once, the core's way.
 *
 * Every socket joins one of two Socket.IO rooms at connection, so that a broadcast reaches one kind of client
 * with `except(the other kind's room)`, on every instance (the Redis adapter carries rooms).
 */
import type { Socket } from 'socket.io';
import { isConsoleRoom } from '../../sockets/room-names.ts';
import type { EventArgs, EventName, Io, TalkSocket } from '../io.ts';
import type { GatheredStatus } from '../status.ts';

/** Sockets of clients that asked for one push per change. */
export const ONE_PUSH_ROOM = 'pushes:once';
/** Sockets of the spec's clients (twin events, one presence event per user). */
export const EACH_PUSH_ROOM = 'pushes:each';

/** The spec's twin of a core event, sent beside it to the spec's clients only. */
const SPEC_TWINS: Partial<Record<EventName, EventName>> = {
  onSendMessage: 'messageResponse',
  all_users: 'usersInThisRoom',
};
/** Core events the spec's clients get in their own shape instead (per-user presence: specStatuses). */
const ONCE_CLIENTS_ONLY: ReadonlySet<EventName> = new Set<EventName>(['onUserStatusesChanged']);

/** Did the client ask for one push per change? */
export function wantsOnePush(handshake: Socket['handshake']): boolean {
  const fromQuery = handshake.query.pushes;
  const fromAuth = (handshake.auth as { pushes?: unknown } | undefined)?.pushes;
  return fromQuery === 'once' || fromAuth === 'once';
}

/** The room that tells which kind of client a socket is. */
export function clientKindRoom(socket: TalkSocket): string {
  return socket.data.pushesOnce ? ONE_PUSH_ROOM : EACH_PUSH_ROOM;
}

type AnyEmit = (event: string, ...args: unknown[]) => boolean;

/** The core's pushes, with their twins for the spec's clients. */
export function pushers(io: Io) {
  return {
    /** One push to the union of these rooms (a socket in several gets it once), and its twin. */
    emitTo<E extends EventName>(rooms: string[], event: E, ...args: EventArgs<E>): void {
      if (rooms.length === 0) return;
      const to = ONCE_CLIENTS_ONLY.has(event) ? io.to(rooms).except(EACH_PUSH_ROOM) : io.to(rooms);
      (to.emit as AnyEmit)(event, ...args);
      const twin = SPEC_TWINS[event];
      if (twin) (io.to(rooms).except(ONE_PUSH_ROOM).emit as AnyEmit)(twin, ...args);
    },

    /** A push to one socket of this instance, and its twin if it is a spec client. */
    emitToSocket<E extends EventName>(socket: TalkSocket, event: E, ...args: EventArgs<E>): void {
      (socket.emit as AnyEmit)(event, ...args);
      const twin = SPEC_TWINS[event];
      if (twin && !socket.data.pushesOnce) (socket.emit as AnyEmit)(twin, ...args);
    },

    /**
     * The spec's clients' rendering of gathered presence changes: one `onUserStatusChanged` per user to the
     * union of the rooms that hear about it (the spec's per-room event), and `userConnected` for a user that came
     * online to the consoles among them (administrators, supervisors: the spec names it among the events that
     * refresh the lists, not among a room's). `cameLate` names the sockets of this instance that arrived after
     * the change (arrivals.ts): they are not told of it.
     */
    specStatuses(entries: GatheredStatus[], cameLate: (targets: string[], at: number) => string[] = () => []): void {
      for (const { status, targets, cameOnline, at } of entries) {
        const late = cameLate(targets, at);
        io.to(targets)
          .except([ONE_PUSH_ROOM, ...late])
          .emit('onUserStatusChanged', status);
        const consoles = targets.filter(isConsoleRoom);
        if (cameOnline && consoles.length > 0)
          io.to(consoles)
            .except([ONE_PUSH_ROOM, ...late])
            .emit('userConnected', status);
      }
    },
  };
}
