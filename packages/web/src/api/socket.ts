/**
 * Socket.IO client factory: the token travels in the handshake query (`?token=`, spec section 7), and the
 * events are typed by packages/protocol. Import this file only from lazily loaded pages (it pulls in
 * socket.io-client).
 *
 * A socket never gives up on its own: Socket.IO reconnects with back-off after a lost transport (a restart,
 * a crash, a network change, a laptop waking up), and this factory also comes back after a disconnect or a
 * refused handshake that the server did not explain as the end of the session. Only `session_ended` (or a
 * handshake refusing the token) stops it, and then the app signs out.
 */
import type { ClientToServerEvents, ServerToClientEvents } from '@talkgroup/protocol';
import i18next from 'i18next';
import { io, type ManagerOptions, type Socket, type SocketOptions } from 'socket.io-client';
import { endSession } from './client.ts';
import { refusalOf, setConnectionRefusal } from './connectionRefusal.ts';
import { wipeDisabledDevice } from './deviceWipe.ts';
import { getToken } from './session.ts';

export type TalkgroupSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** What the server's handshake says of a token that will never work again (its code; its sentence, from older servers). */
const TOKEN_REFUSED = /invalid, expired or revoked|Missing token/;
const TOKEN_CODES = new Set(['bad_token', 'token_missing']);

/**
 * Which app the page is, told in each handshake (read again at every reconnection): the server counts only the
 * members' app (/talk) as "the member's app is open" (device status, ambient listening; issue 60).
 */
const whichApp = (send: (auth: { app: 'talk' | 'console' }) => void) =>
  send({ app: typeof window !== 'undefined' && /^\/talk(\/|$)/.test(window.location.pathname) ? 'talk' : 'console' });

/** Back-off of the reconnections this factory makes itself (Socket.IO's own use the same bounds). */
const RETRY_MIN_MS = 500;
const RETRY_MAX_MS = 5000;

export function createSocket(
  options: Partial<ManagerOptions & SocketOptions> & { token?: string } = {},
): TalkgroupSocket {
  const { token = getToken() ?? '', ...rest } = options;
  const socket: TalkgroupSocket = io({
    path: '/socket.io',
    // One push per change (the server's push-once.ts): all_users, onSendMessage, gathered presence changes.
    query: { token, pushes: 'once' },
    auth: whichApp,
    transports: ['websocket', 'polling'],
    reconnectionDelay: RETRY_MIN_MS,
    reconnectionDelayMax: RETRY_MAX_MS,
    ...rest,
  });
  // The console's own session, not a call link's token: its end signs the console out.
  const ownSession = token === getToken();
  let ended = false;
  /** The page closed the socket (left the room, unmounted): nothing reopens it. */
  let closedByPage = false;
  let retries = 0;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;

  // A page that unloads says goodbye (the server then logs no lost connection for a reload or a closed
  // tab); a page kept in the back-forward cache comes back connected.
  const goodbye = () => {
    if (socket.connected) closeSocket();
  };
  const back = (event: PageTransitionEvent) => {
    if (event.persisted && !ended && !closedByPage && !socket.connected) socket.connect();
  };
  const hasWindow = typeof window !== 'undefined';
  if (hasWindow) {
    window.addEventListener('pagehide', goodbye);
    window.addEventListener('pageshow', back);
  }

  const closeSocket = socket.disconnect.bind(socket);
  socket.disconnect = () => {
    closedByPage = true;
    clearTimeout(retryTimer);
    if (hasWindow) {
      window.removeEventListener('pagehide', goodbye);
      window.removeEventListener('pageshow', back);
    }
    return closeSocket();
  };
  socket.close = socket.disconnect;

  const end = () => {
    if (ended) return;
    ended = true;
    socket.disconnect();
    if (ownSession && getToken() === token) endSession();
  };
  /** Comes back later, unless the session ended or the page closed the socket meanwhile. */
  const retry = () => {
    clearTimeout(retryTimer);
    const delay = Math.min(RETRY_MAX_MS, RETRY_MIN_MS * 2 ** retries++) * (0.75 + Math.random() / 2);
    retryTimer = setTimeout(() => {
      if (!ended && !closedByPage && !socket.connected) socket.connect();
    }, delay);
  };

  socket.on('session_ended', end);
  // Issue 60: an administrator disabled this device: the session is over for good and the page wipes itself.
  socket.on('device_disabled', () => {
    ended = true;
    socket.disconnect();
    void wipeDisabledDevice(i18next.language);
  });
  socket.on('connect', () => {
    retries = 0;
    setConnectionRefusal(null);
  });
  socket.on('disconnect', (reason) => {
    // A server-side disconnect without `session_ended` (an older server restarting): come back.
    if (reason === 'io server disconnect' && !ended) retry();
  });
  socket.on('connect_error', (error) => {
    const refusal = refusalOf(error);
    if ((refusal && TOKEN_CODES.has(refusal.code)) || TOKEN_REFUSED.test(error.message)) return end();
    // Why it is refused (too many connections, the server full, the database away): the banner says so.
    if (refusal) setConnectionRefusal(refusal);
    // A handshake the server could not complete stops Socket.IO's own reconnection: try again later.
    if (!socket.active && !ended) retry();
  });
  return socket;
}
