/** Ending sessions: their sockets, on whichever instance, are told why and closed for good. */
import type { SessionEndReason } from '@talkgroup/protocol';
import type { DomainEvents } from '../events.ts';
import type { Io, TalkSocket } from './io.ts';
import { userRoom } from './room-names.ts';

const MESSAGES: Record<SessionEndReason, string> = {
  logout: 'You signed out.',
  revoked: 'You were disconnected from all devices: sign in again.',
  password: 'Your password was changed: sign in again.',
  deleted: 'Your account was deleted.',
  disabled: 'Your account was disabled: ask your administrator.',
  ended: 'This session was signed out from another one: sign in again.',
};

/** Tells one socket of this instance that its session ended, and closes it for good. */
export function endSocketSession(socket: TalkSocket, reason: SessionEndReason): void {
  socket.emit('session_ended', { reason, message: MESSAGES[reason] });
  socket.disconnect(true);
}

export async function endSessions(io: Io, ended: DomainEvents['sessionsEnded']): Promise<void> {
  const { userId, reason, sessionId, exceptSessionId } = ended;
  const sockets = await io.in(userRoom(userId)).fetchSockets();
  for (const socket of sockets) {
    if (sessionId !== undefined && socket.data.sessionId !== sessionId) continue;
    if (exceptSessionId !== undefined && socket.data.sessionId === exceptSessionId) continue;
    socket.emit('session_ended', { reason, message: MESSAGES[reason] });
    socket.disconnect(true);
  }
}

/**
 * Issue 60 item 5: a disabled device's sockets, on whichever instance, are told (`device_disabled`: the page wipes
 * its storage) and closed for good. The session is already gone: a new socket with its token is refused.
 */
export async function disableDeviceSockets(io: Io, userId: number, sessionId: number): Promise<number> {
  const sockets = await io.in(userRoom(userId)).fetchSockets();
  let told = 0;
  for (const socket of sockets) {
    if (socket.data.sessionId !== sessionId) continue;
    socket.emit('device_disabled', { message: 'This device was disabled by an administrator.' });
    socket.disconnect(true);
    told++;
  }
  return told;
}
