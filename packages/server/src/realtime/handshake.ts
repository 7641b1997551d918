/**
 * The handshake: a socket is accepted only with a valid session token (spec section 7: `?token=`). A refusal is
 * `connect_error` with `{ code, message }` in its `data` (`token_missing`, `bad_token`,
 * `second_factor_setup_required`, `database_unavailable`,
 * `server_error`; the gate's `too_many_connections` and `server_busy` come before), its message the sentence.
 */
import type { Socket } from 'socket.io';
import type { SessionStore } from '../auth/sessions.ts';
import { databaseUnreachable } from '../http/outages.ts';
import { rightsOfRow } from '../users/account-rights.ts';
import type { UserStore } from '../users/store.ts';
import { refusal } from './connection-gate.ts';
import type { Io, SocketData } from './io.ts';
import { wantsOnePush } from './legacy/client-kinds.ts';

/** The token from the handshake query, or from the Socket.IO `auth` object. */
export function tokenOf(handshake: Socket['handshake']): string | undefined {
  const fromQuery = handshake.query.token;
  const fromAuth = (handshake.auth as { token?: unknown } | undefined)?.token;
  const token = typeof fromQuery === 'string' && fromQuery !== '' ? fromQuery : fromAuth;
  return typeof token === 'string' && token !== '' ? token : undefined;
}

/** The members' app (/talk) says so in its handshake: `auth: { app: 'talk' }` (or `?app=talk`). */
export function isTalkPage(handshake: Socket['handshake']): boolean {
  const fromAuth = (handshake.auth as { app?: unknown } | undefined)?.app;
  return fromAuth === 'talk' || handshake.query.app === 'talk';
}

export function authenticateSockets(
  io: Io,
  deps: { sessions: SessionStore; users: UserStore; onError: (error: unknown) => void },
): void {
  io.use(async (socket, next) => {
    try {
      const token = tokenOf(socket.handshake);
      if (!token) return next(refusal('token_missing', socket.request));
      const owner = await deps.sessions.resolve(token);
      const user = owner && (await deps.users.row(owner.userId));
      if (!owner || !user) return next(refusal('bad_token', socket.request));
      // A session waiting for its second factor's setup gets no real time (issue 38).
      if (owner.secondFactorPending) return next(refusal('second_factor_setup_required', socket.request));
      const data: SocketData = {
        userId: user.id,
        sessionId: owner.sessionId,
        role: user.role,
        talkPriority: rightsOfRow(user).talkPriority,
        name: user.display_name,
        mapRight: user.map_right === 1,
        pushesOnce: wantsOnePush(socket.handshake),
        talkPage: isTalkPage(socket.handshake),
        participations: [],
      };
      socket.data = data;
      next();
    } catch (error) {
      // The database away: the client is told so and retries by itself; no error logged for each attempt.
      if (databaseUnreachable(error)) return next(refusal('database_unavailable', socket.request));
      deps.onError(error);
      next(refusal('server_error', socket.request));
    }
  });
}
