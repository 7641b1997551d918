/**
 * One push per change for clients that say they understand it. The spec's clients listen to twin events
 * (`messageResponse` and `onSendMessage` for a chat message, `all_users` and `usersInThisRoom` for the peers of
 * a room) and to one presence event per user; they keep receiving exactly that. A client that connects with
 * `pushes=once` in its handshake query (or `auth`) gets each change once: `onSendMessage` and `all_users` only,
 * and the presence changes gathered in one `onUserStatusesChanged` per room and flush (status.ts).
 *
 * Every socket joins one of two Socket.IO rooms at connection, so that a broadcast reaches one kind of client
 * with `except(the other kind's room)`, on every instance (the Redis adapter carries rooms).
 */
import type { Socket } from 'socket.io';
import type { EventName } from './context.ts';

/** Sockets of clients that asked for one push per change. */
export const ONE_PUSH_ROOM = 'pushes:once';
/** Sockets of the spec's clients (twin events, one presence event per user). */
export const EACH_PUSH_ROOM = 'pushes:each';

/** Events only the spec's clients receive: the once-clients get their twin or the gathered event instead. */
const SPEC_CLIENTS_ONLY: ReadonlySet<EventName> = new Set<EventName>([
  'messageResponse',
  'usersInThisRoom',
  'onUserStatusChanged',
  'userConnected',
]);
/** Events only the once-clients receive. */
const ONCE_CLIENTS_ONLY: ReadonlySet<EventName> = new Set<EventName>(['onUserStatusesChanged']);

/** Did the client ask for one push per change? */
export function wantsOnePush(handshake: Socket['handshake']): boolean {
  const fromQuery = handshake.query.pushes;
  const fromAuth = (handshake.auth as { pushes?: unknown } | undefined)?.pushes;
  return fromQuery === 'once' || fromAuth === 'once';
}

/** The room whose sockets must not receive this event, if any. */
export function excludedFrom(event: EventName): string | undefined {
  if (SPEC_CLIENTS_ONLY.has(event)) return ONE_PUSH_ROOM;
  if (ONCE_CLIENTS_ONLY.has(event)) return EACH_PUSH_ROOM;
  return undefined;
}

/** Whether a socket whose client asked for one push per change (or not) receives this event. */
export function receives(pushesOnce: boolean, event: EventName): boolean {
  return excludedFrom(event) !== (pushesOnce ? ONE_PUSH_ROOM : EACH_PUSH_ROOM);
}
