/** The handshake: a socket is accepted only with a valid session token (spec section 7: `?token=`). */
import type { Socket } from 'socket.io';
import type { SessionStore } from '../auth/sessions.ts';
import { serverText } from '../http/messages.ts';
import { databaseUnreachable } from '../http/outages.ts';
import type { UserStore } from '../users/store.ts';
import type { Io, SocketData } from './context.ts';
import { wantsOnePush } from './legacy/client-kinds.ts';

/** The token from the handshake query, or from the Socket.IO `auth` object. */
export function tokenOf(handshake: Socket['handshake']): string | undefined {
  const fromQuery = handshake.query.token;
  const fromAuth = (handshake.auth as { token?: unknown } | undefined)?.token;
  const token = typeof fromQuery === 'string' && fromQuery !== '' ? fromQuery : fromAuth;
  return typeof token === 'string' && token !== '' ? token : undefined;
}

export function authenticateSockets(
  io: Io,
  deps: { sessions: SessionStore; users: UserStore; onError: (error: unknown) => void },
): void {
  io.use(async (socket, next) => {
    try {
      const token = tokenOf(socket.handshake);
      if (!token) return next(new Error('Missing token: connect with ?token=<your session token>.'));
      const owner = await deps.sessions.resolve(token);
      const user = owner && (await deps.users.row(owner.userId));
      if (!owner || !user) return next(new Error('The token is invalid, expired or revoked: sign in again.'));
      const data: SocketData = {
        userId: user.id,
        sessionId: owner.sessionId,
        role: user.role,
        name: user.display_name,
        mapRight: user.map_right === 1,
        pushesOnce: wantsOnePush(socket.handshake),
        participations: [],
      };
      socket.data = data;
      next();
    } catch (error) {
      // The database away: the client is told so and retries by itself; no error logged for each attempt.
      if (databaseUnreachable(error)) return next(new Error(serverText('database_unavailable')));
      deps.onError(error);
      next(new Error('The server could not check the token: try again.'));
    }
  });
}
